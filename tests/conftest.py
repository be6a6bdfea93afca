import os
from urllib.parse import urlparse

import pytest

from tests.browser import CHROMIUM_ARGS, chromium_path, unavailable
from tests.protocol_schema import check_server_frame

# The event-day browser test's steps live in helper modules: their asserts report values as a test's do.
pytest.register_assert_rewrite(
    "tests.tournament.event_day_browsers", "tests.tournament.event_day_organizer_steps",
    "tests.tournament.event_day_student_steps")


@pytest.fixture(autouse=True)
def _server_frames_follow_the_protocol_schema(monkeypatch):
    """Every text frame an application sends to a test's `WebsocketCommunicator` (`receive_from`,
    `receive_json_from`, `receive_output`) is validated against docs/protocol.schema.json."""
    from channels.testing import WebsocketCommunicator

    receive_output = WebsocketCommunicator.receive_output

    async def checked(self, timeout=1):
        message = await receive_output(self, timeout)
        if message.get("type") == "websocket.send" and message.get("text") is not None:
            check_server_frame(self.scope["path"], message["text"])
        return message

    monkeypatch.setattr(WebsocketCommunicator, "receive_output", checked)


@pytest.fixture
def live_settings(settings):
    """Live play at test speed: bots answer at once, the next hand is dealt at once, tests drive the
    sweeper themselves (the live-game tests use it for every test)."""
    from games.services import snapshots

    settings.LIVE_BOT_THINK_SECONDS = (0, 0)
    settings.LIVE_NEXT_HAND_SECONDS = 0
    settings.LIVE_SWEEPER_IN_PROCESS = False
    settings.LIVE_SOCKET_RATE_LIMIT = (10_000, 1.0)  # test clients play much faster than people
    snapshots.forget_all()
    yield settings
    snapshots.forget_all()


@pytest.fixture
def chromium():
    """A headless Debian Chromium driven by Playwright (sync API).

    One per test, not per session: Playwright's sync API keeps an asyncio loop running in the main
    thread while it is started, which would stop the async (websocket) tests from running their own.
    """
    path = chromium_path()
    if not path:
        unavailable("no chromium executable found")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is not installed")
    # Playwright's sync API keeps an event loop running in this thread; the ORM calls that tests make
    # around page actions are plain synchronous code, so allow them.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    manager = sync_playwright().start()
    try:
        browser = manager.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
    except Exception as exc:  # noqa: BLE001 - any launch failure means "no browser here"
        manager.stop()
        unavailable(f"chromium at {path} did not start: {exc}")
    frames: list[tuple[str, str]] = []  # (socket path, text) of every frame the site sent a page
    _record_frames(browser, frames)
    yield browser
    browser.close()
    manager.stop()
    for path, text in frames:  # every frame the pages received follows docs/protocol.schema.json
        check_server_frame(path, text)


def _record_frames(browser, frames: list[tuple[str, str]]) -> None:
    """Record the websocket frames every page of every context of `browser` receives."""

    def watch_page(page) -> None:
        def watch_socket(socket) -> None:
            path = urlparse(socket.url).path
            socket.on("framereceived", lambda payload: frames.append((path, payload))
                      if isinstance(payload, str) else None)

        page.on("websocket", watch_socket)

    new_context, new_page = browser.new_context, browser.new_page

    def context_watched(*args, **kwargs):
        context = new_context(*args, **kwargs)
        context.on("page", watch_page)
        return context

    def page_watched(*args, **kwargs):
        page = new_page(*args, **kwargs)
        watch_page(page)
        return page

    browser.new_context = context_watched
    browser.new_page = page_watched


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 844})  # a phone
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture(autouse=True)
def forget_public_events():
    """Public pages remember each slug's event for a second (tournament/public_pages.py): a test's
    database is rolled back, so another test's event of the same slug must not be remembered."""
    from tournament import public_pages

    public_pages.clear()
    yield
    public_pages.clear()
