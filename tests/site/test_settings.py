"""Settings come from the environment; bad values fail loudly; production passes check --deploy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dizzysite.env import BadSetting, env_bool, env_int, env_list

ROOT = Path(__file__).resolve().parents[2]


def test_env_helpers_read_and_refuse(monkeypatch):
    monkeypatch.setenv("X_BOOL", "yes")
    monkeypatch.setenv("X_INT", "42")
    monkeypatch.setenv("X_LIST", "a.example, b.example,")
    assert env_bool("X_BOOL", False) is True
    assert env_int("X_INT", 1) == 42
    assert env_list("X_LIST", []) == ["a.example", "b.example"]
    assert env_int("X_MISSING", 7) == 7
    monkeypatch.setenv("X_BOOL", "perhaps")
    monkeypatch.setenv("X_INT", "4 2")
    with pytest.raises(BadSetting, match="X_BOOL"):
        env_bool("X_BOOL", False)
    with pytest.raises(BadSetting, match="X_INT"):
        env_int("X_INT", 1)


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE", "CELERY", "DEBUG"))}
    clean.update(env)
    clean["DJANGO_SETTINGS_MODULE"] = "dizzysite.settings"
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True)


PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "dizzy.example",
    "DATABASE_URL": "postgres://dizzy@db.example:5432/dizzy",
    "CELERY_BROKER_URL": "redis://redis.example:6379/0",
    "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
    "DIZZY_VAR_DIR": "/tmp/dizzysite-deploy-check",
}


@pytest.mark.slow
def test_production_settings_pass_check_deploy():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_without_secret_key_fails_loudly():
    env = dict(PRODUCTION)
    del env["SECRET_KEY"]
    result = run_manage("check", **env)
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


def test_a_bad_boolean_stops_the_site():
    result = run_manage("check", DEBUG="maybe")
    assert result.returncode != 0 and "DEBUG='maybe'" in result.stderr
