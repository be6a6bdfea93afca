import json
import os
from urllib.parse import urlparse

import pytest

# The test process imports config.asgi: keep CPython's collector there (config/gc_tuning.py freezes a
# long-running server's heap; the tests of that set-up run it in fresh interpreters), ...
os.environ.setdefault("GC_TUNING", "0")
os.environ.setdefault("MALLOC_TRIM_SECONDS", "0")  # nor trims its heap (config/memory_trim.py)

from tests.browser import CHROMIUM_ARGS, chromium_path, unavailable
from tests.live_asgi import live_asgi_database_cleanup, live_uvicorn  # noqa: F401 (fixtures)
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


@pytest.fixture(scope="session", autouse=True)
def _live_move_pools_end_before_the_test_database(django_db_setup):
    """The one-statement move's pools (games/services/move_sql.py) live on the tests' event loops, which
    may close without closing them: their connections end before the test database is dropped (set up
    after the database, this is torn down before it)."""
    yield
    from games.services import move_sql

    move_sql.close_abandoned()


@pytest.fixture(autouse=True)
def _axes_off_in_process(settings):
    """django-axes counts failed logins only where a test turns it on (``settings.AXES_ENABLED = True``,
    tests/test_login_throttle.py): the test client's ``login()`` authenticates without a request, which
    axes refuses, and tests log in far more often than a person. Live servers (tests/live_asgi.py) run
    with it on, as in production; each test's database starts with no failed attempts."""
    settings.AXES_ENABLED = False


@pytest.fixture(autouse=True)
def _caps_lifted(settings):
    """Tests open many sockets from one process, and this process's cache and count of open sockets
    outlive a test: the caps on sockets (config/socket_caps.py) have their own tests on the live server
    (tests/games/test_socket_caps.py), which set them low there."""
    settings.SOCKET_OPEN_RATE = (100_000, 1.0)
    settings.SOCKET_MAX_OPEN_PER_ACCOUNT = 100_000
    settings.SOCKET_MAX_OPEN_PER_ADDRESS = 100_000
    settings.SOCKET_MAX_OPEN_PER_ADDRESS_LOGGED_IN = 100_000
    settings.LIVE_PRACTICE_STARTS_PER_ADDRESS = (100_000, 1)  # likewise (tests/games/test_practice_caps.py)


@pytest.fixture(autouse=True)
def _notifications_sent_before_the_database_is_flushed(request):
    """A test's committed changes queue notifications (notifications/background.py) and announce seats' first
    own moves from database threads (games/services/first_moves.py): they finish before the test's database
    is flushed, never while the next test runs."""
    marker = request.node.get_closest_marker("django_db")
    if (marker is not None and marker.kwargs.get("transaction")) or "transactional_db" in request.fixturenames:
        request.getfixturevalue("transactional_db")  # set up first, so flushed after the jobs below finished
    yield
    from games.services import first_moves
    from notifications import background

    first_moves.wait(timeout=10)
    background.flush()


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
def csp_violations() -> list[str]:
    """The Content-Security-Policy violations of the pages the test's `chromium` opened (one JSON text
    each); the `chromium` fixture fails the test at teardown if any is left here."""
    return []


@pytest.fixture
def chromium(csp_violations):
    """A headless Debian Chromium driven by Playwright (sync API).

    One per test, not per session: Playwright's sync API keeps an asyncio loop running in the main
    thread while it is started, which would stop the async (websocket) tests from running their own.
    Every page it opens is watched: a test fails if a page broke the site's Content-Security-Policy
    (an inline script or style, a file from elsewhere: `csp_violations`) or received a websocket frame
    that does not follow docs/protocol.schema.json.
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
    _watch_pages(browser, frames, csp_violations)
    yield browser
    browser.close()
    manager.stop()
    if csp_violations:
        pytest.fail(f"{len(csp_violations)} Content-Security-Policy violation(s) in the test's pages:\n"
                    + "\n".join(csp_violations), pytrace=False)
    for path, text in frames:  # every frame the pages received follows docs/protocol.schema.json
        check_server_frame(path, text)


CSP_VIOLATION_TAG = "[csp-violation] "
# Runs in every page before its own scripts: each `securitypolicyviolation` event (fired at the document
# for every kind of violation, also for a detached element) is told to the test as a console message.
WATCH_CSP = ("""document.addEventListener("securitypolicyviolation", (e) => console.error(""" + json.dumps(CSP_VIOLATION_TAG)
             + """ + JSON.stringify({directive: e.effectiveDirective, blocked: e.blockedURI, page: e.documentURI,
  file: e.sourceFile, line: e.lineNumber, sample: e.sample})), true);""")


def _watch_pages(browser, frames: list[tuple[str, str]], violations: list[str]) -> None:
    """Record the websocket frames every page of every context of `browser` receives, and the
    Content-Security-Policy violations in each."""

    def watch_page(page) -> None:
        def watch_socket(socket) -> None:
            path = urlparse(socket.url).path
            socket.on("framereceived", lambda payload: frames.append((path, payload))
                      if isinstance(payload, str) else None)

        def watch_console(message) -> None:
            if message.text.startswith(CSP_VIOLATION_TAG):
                violations.append(message.text.removeprefix(CSP_VIOLATION_TAG))

        page.on("websocket", watch_socket)
        page.on("console", watch_console)

    new_context, new_page = browser.new_context, browser.new_page

    def context_watched(*args, **kwargs):
        context = new_context(*args, **kwargs)
        context.add_init_script(script=WATCH_CSP)
        context.on("page", watch_page)
        return context

    def page_watched(*args, **kwargs):
        page = new_page(*args, **kwargs)
        page.add_init_script(script=WATCH_CSP)
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
