"""Make the screenshots of the organizers' guide (docs/organizers.md) again, from the pages as they are.

    .venv/bin/python docs/screenshots.py

Runs the browser test of a whole small event (tests/tournament/test_browser_event_day.py: a throwaway
test database, the site served by a live ASGI server, Debian's Chromium driven by Playwright) with
``EVENT_SCREENSHOTS`` set, so each step saves its picture into docs/screenshots/. The same test runs in the
suite with the pictures going to a temporary folder and checks that every one is made, so the pictures
cannot silently stop matching the pages. Extra arguments go to pytest (for example ``--ds`` or ``-x``).
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "docs" / "screenshots"
TEST = "tests/tournament/test_browser_event_day.py"


def command(extra: list[str]) -> list[str]:
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", TEST, *extra]


def main(argv: list[str]) -> int:
    FOLDER.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, EVENT_SCREENSHOTS=str(FOLDER), REQUIRE_BROWSER="1")
    code = subprocess.call(command(argv), cwd=ROOT, env=env)
    if code == 0:
        for picture in sorted(FOLDER.glob("*.png")):
            print(f"{picture.relative_to(ROOT)}: {picture.stat().st_size // 1024} KB")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
