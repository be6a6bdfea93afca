"""On a 390 px phone (the ``page`` fixture) the leaderboard and a table's score sheet fit the screen: no
sideways scrolling of the page or of the table, and every column's name is on screen. Realistic worst
cases: long names (one with no space to break at), four-digit scores, a table of ten over a dozen hands."""

import pytest

from tests.tournament.standings_data import make_event, make_players, record_games, seat_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_WIDTH = 390
NAMES = ["Srinivasaraghavan Venkataramanujam Bhattacharyya", "Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
         "Chattopadhyay-Mukhopadhyay Anushka", "Debolina Banerjee", "Ravi", "Meera Iyer", "Kabir Khan",
         "Rajarajeswari Subramaniam", "Oindrila Gangopadhyay", "Zo"]


def ten_at_a_table():
    event = make_event(slug="phone", name="Chematoodlon Ocho Championship of the Department")
    players = make_players(event, NAMES)
    _round, tables = seat_round(event, players, table_size=10)
    # 14 hands at one table of ten; the winner of each scores the others' points left (four digits).
    hands = [(n % 10, [0 if i == n % 10 else 90 + 7 * i + n for i in range(10)]) for n in range(14)]
    record_games(tables, hands, target=9999)
    return event, tables[0].table


def overflow(page, selector: str) -> dict:
    return page.evaluate("""(selector) => {
        const box = document.querySelector(selector);
        return {page: document.scrollingElement.scrollWidth, box: box.scrollWidth, room: box.clientWidth};
    }""", selector)


def off_screen(page, selector: str) -> list[str]:
    """Texts of the elements matching ``selector`` that are hidden or not wholly inside the phone's width."""
    return page.evaluate("""([selector, width]) => [...document.querySelectorAll(selector)].filter(e => {
        const r = e.getBoundingClientRect();
        return r.width === 0 || r.height === 0 || r.left < 0 || r.right > width
            || getComputedStyle(e).visibility === 'hidden';
    }).map(e => e.textContent.trim())""", [selector, PHONE_WIDTH])


def test_the_leaderboard_fits_a_phone_with_every_column(live_server, page):
    event, _table = ten_at_a_table()
    page.goto(f"{live_server.url}/events/{event.slug}/leaderboard/")
    sizes = overflow(page, ".table-responsive:has(#leaderboard)")  # the box that would scroll sideways
    page.screenshot(path="/tmp/h5-leaderboard-phone.png")
    assert sizes["page"] <= PHONE_WIDTH, sizes
    assert sizes["box"] <= sizes["room"], sizes  # nor does the table scroll sideways inside its box
    headers = page.locator("#leaderboard thead th")
    assert headers.all_inner_texts() == ["#", "Player", "Points won", "Games won", "Hands won",
                                         "Points left in hand", "Rating"]
    assert off_screen(page, "#leaderboard thead th") == []
    assert off_screen(page, "#leaderboard tbody td") == []  # every cell too, the long names included
    assert page.locator("#leaderboard tbody tr").count() == len(NAMES)


def test_a_table_of_ten_score_sheet_fits_a_phone_with_every_column(live_server, page):
    event, table = ten_at_a_table()
    page.goto(f"{live_server.url}/events/{event.slug}/tables/{table.pk}/")
    sizes = overflow(page, ".score-sheet")
    page.locator(".score-sheet").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/h5-score-sheet-phone.png")
    assert sizes["page"] <= PHONE_WIDTH, sizes
    assert sizes["box"] <= sizes["room"], sizes
    columns = page.locator(".scoreboard thead th").all_text_contents()
    assert columns[:3] == ["Hand", "Dealer", "Winner"] and len(columns) == 13
    # The headers row is off screen for readers' software only; each hand labels every one of its cells
    # with its column's name, on screen.
    rows = page.locator(".scoreboard tbody tr")
    assert rows.count() == 14
    for row in (rows.first, rows.last):
        labels = row.locator(".sheet-label")
        assert labels.all_inner_texts() == columns
        assert all(labels.nth(i).is_visible() for i in range(len(columns)))
    assert off_screen(page, ".scoreboard tbody .sheet-label") == []
    assert off_screen(page, ".scoreboard tbody td, .scoreboard tbody th") == []
    totals = page.locator(".scoreboard tfoot td")
    assert totals.count() == 10 and off_screen(page, ".scoreboard tfoot td") == []
    assert page.locator(".scoreboard tfoot .sheet-label").all_inner_texts() == columns[3:]

    # On a desktop it is a plain table again: one header row, no repeated labels.
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.locator(".scoreboard thead th").first.is_visible()
    assert not page.locator(".scoreboard tbody .sheet-label").first.is_visible()
