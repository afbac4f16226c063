"""`make run`'s supervisor (dizzysite/supervise.py): what each process is started with."""

from __future__ import annotations

import os
import subprocess
import sys

from dizzysite import supervise


def test_the_asgi_server_runs_without_persistent_connections_and_the_worker_keeps_them(monkeypatch):
    """Django advises DATABASE_CONN_MAX_AGE=0 under ASGI (a request's thread ends with it); the worker
    and beat keep the setting as it is (60 by default)."""
    monkeypatch.setenv("DATABASE_CONN_MAX_AGE", "60")
    envs: list[dict[str, str]] = []
    real_popen = subprocess.Popen

    def popen(command: list[str], env: dict[str, str] | None = None, **kwargs) -> subprocess.Popen:
        envs.append(dict(os.environ) if env is None else env)
        return real_popen([sys.executable, "-c", "pass"])

    monkeypatch.setattr(supervise.subprocess, "Popen", popen)
    children = supervise.children_for("127.0.0.1:8123", noreload=True, concurrency=1)
    for child in children:
        child.start()
        child.process.wait()
    started = {child.name: env for child, env in zip(children, envs, strict=True)}
    assert started["web"]["DATABASE_CONN_MAX_AGE"] == "0"
    assert started["worker"]["DATABASE_CONN_MAX_AGE"] == "60"
    assert started["beat"]["DATABASE_CONN_MAX_AGE"] == "60"
    assert started["web"]["PATH"] == started["worker"]["PATH"]  # the rest of the environment as it was


def test_make_run_serves_its_links_where_it_binds_and_says_where(monkeypatch):
    monkeypatch.delenv("SITE_URL", raising=False)
    assert supervise.serve_at("127.0.0.1:8031") == "http://127.0.0.1:8031"
    assert os.environ["SITE_URL"] == "http://127.0.0.1:8031"  # the site, the worker and beat inherit it
    monkeypatch.delenv("SITE_URL")
    assert supervise.serve_at("0.0.0.0:9000") == "http://127.0.0.1:9000"  # every address: this machine's
    monkeypatch.setenv("SITE_URL", "https://play.example/")
    assert supervise.serve_at("127.0.0.1:8031") == "https://play.example"  # one set by hand wins


def test_make_run_starts_quietly(tmp_path, caplog):
    """What `make run` printed that alarmed newcomers: SQLite's W040 warnings, uvicorn's "lifespan
    unsupported", kombu's "No hostname was supplied"."""
    from kombu import Connection

    from dizzysite.broker import Transport

    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"  # make run's database
    command = [sys.executable, "manage.py", "check", "--database", "default"]
    check = subprocess.run(command, cwd=supervise.ROOT, env=env, capture_output=True, text=True)
    assert check.returncode == 0 and "W040" not in check.stdout + check.stderr
    assert "System check identified no issues" in check.stdout
    assert ["--lifespan", "off"] == supervise.web_command("127.0.0.1:8031", True)[-2:]
    with caplog.at_level("WARNING"):
        Connection("filesystem://", transport=Transport).info()
    assert "No hostname" not in caplog.text
