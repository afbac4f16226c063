"""`make run` keeps its data in SQLite: every migration must apply there too (a PostgreSQL-only
statement in one broke `make run` on a fresh clone once)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_migration_applies_to_a_fresh_sqlite_database(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dizzysite.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DIZZY_VAR_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert "Applying ratings.0004_player_record... OK" in done.stdout
