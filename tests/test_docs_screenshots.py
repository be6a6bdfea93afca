"""The organizers' guide shows the pictures the event-day browser test makes, and they are in the repository.

The browser test (tests/tournament/test_browser_event_day.py) checks that every picture is made from the
pages; docs/screenshots.py runs it into docs/screenshots/. Here, without a browser: the guide, the committed
pictures and the test's list of pictures (tests/tournament/event_day_browsers.py) agree, and the pictures
stay small."""

import importlib.util
import re
from pathlib import Path

from tests.tournament.event_day_browsers import SCREENSHOTS

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "organizers.md"


def script():
    spec = importlib.util.spec_from_file_location("docs_screenshots", ROOT / "docs" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guide_shows_every_picture_the_test_makes_and_no_other():
    shown = re.findall(r"!\[[^\]]+\]\(screenshots/([^)]+)\)", GUIDE.read_text())
    assert shown == SCREENSHOTS, "in the guide's order, each once"


def test_every_picture_is_committed_and_small():
    folder = ROOT / "docs" / "screenshots"
    assert sorted(p.name for p in folder.glob("*.png")) == sorted(SCREENSHOTS)
    for name in SCREENSHOTS:
        data = (folder / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", name
        assert len(data) < 150_000, f"{name} is {len(data)} bytes"


def test_the_script_runs_the_event_day_test_into_the_docs_folder():
    module = script()
    assert (ROOT / module.TEST).is_file()
    assert module.TEST in module.command([]) and module.FOLDER == ROOT / "docs" / "screenshots"
