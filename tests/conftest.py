import os

import pytest

from tests.browser import CHROMIUM_ARGS, chromium_path, unavailable


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
    yield browser
    browser.close()
    manager.stop()


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
