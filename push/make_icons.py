"""Draw the app icons' PNGs from their SVGs with Debian's chromium (run once; the PNGs are committed):

.venv/bin/python push/make_icons.py
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
WANTED = [
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("icon-maskable.svg", 512, "icon-maskable-512.png"),
]


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        for source, size, target in WANTED:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = f'<svg width="{size}" height="{size}" '
            svg = (ICONS / source).read_text().replace("<svg ", sized, 1)
            page.set_content(f'<body style="margin:0;background:transparent">{svg}</body>')
            clip = {"x": 0, "y": 0, "width": size, "height": size}
            page.screenshot(path=str(ICONS / target), omit_background=True, clip=clip)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
