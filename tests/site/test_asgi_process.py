"""The ASGI process keeps the collector's full passes rare and short (dizzysite/asgi.py): its start
is frozen out of them, and its young generation is large enough for a request's objects to die young."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

READ = """
import gc, json
before = gc.get_threshold()
from dizzysite import asgi
print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count(),
                  "wanted": asgi.GC_THRESHOLDS}))
"""


def test_the_asgi_process_freezes_its_start_and_raises_the_young_generation():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE"))}
    env["DJANGO_SETTINGS_MODULE"] = "dizzysite.settings"
    result = subprocess.run([sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["before"] == [700, 10, 10]  # Python's own
    assert figures["after"] == figures["wanted"] == [20_000, 10, 10]
    assert figures["frozen"] > 50_000  # Django and the site's modules, out of every pass
