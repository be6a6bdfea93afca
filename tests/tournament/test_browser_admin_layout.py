"""The admin in a real headless Chromium: the event page's toolbar (its links to the eligibility list, the
first round, rounds...) does not lie over the event's title, the eligibility list's table is not clipped
(every column can be reached), and the admin pages carry the site's icon."""

import os

import pytest
from django.conf import settings
from django.test import Client

from tests.tournament.organizer_factories import make_event, make_organizer_of
from tournament.models import EligibilityEntry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = os.environ.get("TABLE_SCREENSHOTS")
SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 820, "height": 1180},
         "laptop": {"width": 1280, "height": 800}}


# Data is made in a fixture listed before `chromium`: the ORM runs before Playwright starts its event loop.
@pytest.fixture
def organizer(live_asgi):
    event = make_event(name="CHEMATOODLON'20 UNO — first round for the undergraduates of Chemical Engineering")
    for n in range(5):
        EligibilityEntry.objects.create(
            event=event, roll_number=f"001910301{n:03d}", name=f"Student with a rather long name {n}",
            email=f"student.with.a.long.address{n}@chemical.example.edu", department="Chemical Engineering",
            programme="UG", year=2)
    user = make_organizer_of(event)
    client = Client()
    client.force_login(user)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": live_asgi.url}
    return {"event": event, "cookie": cookie}


REACHABLE = """(th) => {
  // After scrolling to it, the header shows as much of itself as its scrolling boxes can hold: no box
  // that clips cuts it off, and the page itself does not hide it.
  const r = th.getBoundingClientRect();
  if (r.width < 1) return "no width";
  let room = r.width;
  for (let el = th.parentElement; el; el = el.parentElement) {
    const style = getComputedStyle(el);
    if (style.overflowX === "visible") continue;
    const c = el.getBoundingClientRect();
    room = Math.min(room, c.width);
    const shown = Math.min(r.right, c.right) - Math.max(r.left, c.left);
    if (shown < room - 1) return `cut off by ${el.tagName}.${el.className} (${style.overflowX})`;
  }
  const shown = Math.min(r.right, window.innerWidth) - Math.max(r.left, 0);
  return shown >= Math.min(room, window.innerWidth - Math.max(r.left, 0)) - 1 ? true : "outside the window";
}"""


def assert_every_column_reachable(page, table: str) -> None:
    # The page itself does not grow sideways: a wide table scrolls in its own box.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page scrolls sideways"
    headers = page.locator(f"{table} thead th")
    assert headers.count() >= 7
    for i in range(headers.count()):
        header = headers.nth(i)
        header.scroll_into_view_if_needed()
        found = page.evaluate(REACHABLE, header.element_handle())
        assert found is True, f"column {header.inner_text()!r}: {found}"


def overlap(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_event_toolbar_does_not_cover_the_title(live_asgi, organizer, chromium, size):
    context = chromium.new_context(viewport=SIZES[size])
    context.add_cookies([organizer["cookie"]])
    page = context.new_page()
    page.goto(f"{live_asgi.url}/admin/tournament/event/{organizer['event'].pk}/change/")
    tools = page.locator(".object-tools").bounding_box()
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"admin-event-{size}.png"))
    titles = page.locator("#content > h1, #content > h2")  # "Change event" and the event's name
    assert titles.count() == 2 and tools
    links = page.locator(".object-tools a")
    assert links.count() >= 6
    for t in range(titles.count()):
        title = titles.nth(t).bounding_box()
        assert not overlap(title, tools), f"toolbar {tools} lies over the title {title}"
        for i in range(links.count()):
            assert not overlap(title, links.nth(i).bounding_box())
    assert page.locator('link[rel="icon"]').get_attribute("href").endswith("img/favicon.svg")
    context.close()


@pytest.mark.parametrize("size", ["phone", "tablet", "laptop"])
def test_the_eligibility_list_is_not_clipped(live_asgi, organizer, chromium, size):
    context = chromium.new_context(viewport=SIZES[size])
    context.add_cookies([organizer["cookie"]])
    page = context.new_page()
    page.goto(f"{live_asgi.url}/admin/tournament/eligibilityentry/?event__id__exact={organizer['event'].pk}")
    table = page.locator("#result_list")
    table.wait_for()
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"admin-eligibility-{size}.png"), full_page=True)
    assert_every_column_reachable(page, "#result_list")
    context.close()


CSV = ("roll_number,name,email,department,programme,year\n" + "".join(
    f"00191030200{n},Another student with a long name {n},another.student.{n}@chemical.example.edu,"
    f"Chemical Engineering,UG,3\n" for n in range(4)))


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_eligibility_upload_preview_is_not_clipped(live_asgi, organizer, chromium, size, tmp_path):
    path = tmp_path / "list.csv"
    path.write_text(CSV)
    context = chromium.new_context(viewport=SIZES[size])
    context.add_cookies([organizer["cookie"]])
    page = context.new_page()
    page.goto(f"{live_asgi.url}/admin/tournament/event/{organizer['event'].pk}/eligibility/upload/")
    page.locator('input[type="file"]').set_input_files(str(path))
    page.get_by_role("button", name="Preview").click()
    page.locator("#added-rows").wait_for()
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"admin-eligibility-preview-{size}.png"), full_page=True)
    assert page.locator(".added-count").inner_text() == "4"
    assert_every_column_reachable(page, "#added-rows table")
    context.close()
