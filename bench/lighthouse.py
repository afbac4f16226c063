"""`make lighthouse`: Lighthouse's accessibility score of every rules page and tutorial page, in English
and Dutch. Not part of `make test` or `make bench`: it needs Node (20 or later) and npm, and Debian's
chromium.

It installs the pinned Lighthouse into var/lighthouse/ (ignored) the first time, starts a dev server
on a fresh database under var/lighthouse/ (or measures --url), and prints one line per page; the
reports go to var/lighthouse/reports/. Exit 1 when a page scores under 100, naming its failing audits.

Options: --url http://127.0.0.1:8765 (a running site instead of its own server), --port N (its own
server's, default 8765), --chrome /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from games.engines.registry import SPECS  # noqa: E402  (the repository root goes on the path first)

VERSION = "12.2.3"  # Lighthouse 13 needs Node 22
HOME = REPO / "var" / "lighthouse"
BINARY = HOME / "node_modules" / ".bin" / "lighthouse"
LANGUAGES = ("en", "nl")


def install() -> None:
    """The pinned version, once: npm's own lock keeps it exact."""
    if BINARY.exists():
        found = subprocess.run([str(BINARY), "--version"], capture_output=True, text=True).stdout.strip()
        if found == VERSION:
            return
    HOME.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["npm", "install", "--exact", "--no-audit", "--no-fund", f"lighthouse@{VERSION}"], cwd=HOME, check=True
    )


def pages() -> list[str]:
    slugs = [slug for slug, spec in SPECS.items() if spec.tutorial is not None]
    return [f"/games/{slug}/rules/" for slug in slugs] + [f"/learn/{slug}/" for slug in slugs]


def serve(port: int) -> subprocess.Popen:
    """A dev server on its own database, so the measure never touches the developer's."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{HOME / 'db.sqlite3'}", "DEBUG": "1"}
    manage = [sys.executable, str(REPO / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=REPO, env=env, check=True)
    server = subprocess.Popen(
        [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(60):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit("the dev server did not start")


def measure(url: str, language: str, chrome: str) -> tuple[int, list[str]]:
    """The accessibility score (0-100) and the ids of the audits that failed."""
    name = url.split("//", 1)[1].split("/", 1)[1].strip("/").replace("/", "-") or "home"
    report = HOME / "reports" / f"{name}-{language}.json"
    report.parent.mkdir(parents=True, exist_ok=True)
    command = [
        str(BINARY),
        url,
        "--only-categories=accessibility",
        "--output=json",
        f"--output-path={report}",
        "--quiet",
        "--chrome-flags=--headless=new --no-sandbox",
        f"--extra-headers={json.dumps({'Accept-Language': language})}",
    ]
    subprocess.run(command, env={**os.environ, "CHROME_PATH": chrome}, check=True, timeout=300)
    result = json.loads(report.read_text())
    audits = result["audits"]
    failed = [key for key, audit in audits.items() if audit.get("score") is not None and audit["score"] < 1]
    return round(result["categories"]["accessibility"]["score"] * 100), failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--chrome", default="/usr/bin/chromium")
    args = parser.parse_args()
    install()
    server = None if args.url else serve(args.port)
    base = (args.url or f"http://127.0.0.1:{args.port}").rstrip("/")
    below = 0
    try:
        print(f"Lighthouse {VERSION}, accessibility")
        for path in pages():
            for language in LANGUAGES:
                score, failed = measure(base + path, language, args.chrome)
                below += score < 100
                print(f"{score:>4}  {language}  {path}" + (f"  failed: {', '.join(failed)}" if failed else ""))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
    return 1 if below else 0


if __name__ == "__main__":
    raise SystemExit(main())
