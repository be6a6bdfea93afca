"""The browsers of the event-day test (tests/tournament/test_browser_event_day.py) and the pictures they take.

The organizer works at a laptop (one desktop context); each student is on a phone (390x844, touch). Every
page's uncaught errors are collected, and each step's picture goes into the folder the test chose.
"""

from pathlib import Path

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 800}
# The pictures every run makes, in the order of the guide (docs/organizers.md).
SCREENSHOTS = [
    "01-control-room.png", "02-eligibility-preview.png", "03-control-room-registration.png",
    "04-checkin-desk.png", "05-seating-preview.png", "06-my-event-phone.png", "07-table-phone.png",
    "08-live-round-view.png", "09-hand-summary-phone.png", "10-plan-next-round.png", "11-bracket-champion.png",
    "12-control-room-champion.png", "13-results.png",
]


class Day:
    """The browsers of the day: the organizer's page, the students' phones, and where pictures go."""

    def __init__(self, url: str, chromium, shots: Path) -> None:
        self.url, self.chromium, self.shots = url, chromium, shots
        self.errors: list[str] = []
        self.organizer = self.context(DESKTOP).new_page()

    def context(self, viewport: dict, cookie: dict | None = None):
        context = self.chromium.new_context(viewport=viewport, has_touch=viewport is PHONE)
        context.set_default_timeout(20_000)
        if cookie:
            context.add_cookies([cookie])
        context.on("page", lambda page: page.on("pageerror", lambda error: self.errors.append(str(error))))
        return context

    def phone(self, cookie: dict):
        page = self.context(PHONE, cookie).new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page

    def snap(self, page, name: str) -> None:
        assert name in SCREENSHOTS, name
        page.screenshot(path=str(self.shots / name), animations="disabled")
