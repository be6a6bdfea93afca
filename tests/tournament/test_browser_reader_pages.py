"""A real headless Chromium against the real ASGI site (Daphne): a player logs in and reads the leaderboard,
a page the same for every reader; reader.js fills in their name, "My event" and their position from
/me.json; they log out from it (the form's CSRF token taken from the cookie) and then see the public page."""

import pytest

from tests.tournament.test_leaderboard_pages import ranked_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-8421"


def test_a_player_reads_the_leaderboard_logged_in_and_logs_out_from_it(live_asgi, page):
    event, players, _ = ranked_event(250)
    me, other = players[201], players[3]
    for player in (me, other):
        player.user.set_password(PASSWORD)
        player.user.save()
    leaderboard = f"{live_asgi.url}/events/{event.slug}/leaderboard/"
    anonymous_html = page.request.get(leaderboard).text()

    page.goto(f"{live_asgi.url}/accounts/login/?next=/events/{event.slug}/leaderboard/")
    page.fill("#id_username", me.user.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    assert page.url == leaderboard
    for _ in range(2):
        assert page.locator(".navbar-text").inner_text() == me.user.username
        position = page.locator("#my-position")
        assert position.locator("a").get_attribute("href").endswith(f"#player-{me.pk}")
        assert position.inner_text().startswith("You are ranked ")
        rank = position.locator("strong").inner_text()
        page_number = position.locator("a").get_attribute("href").split("page=")[1].split("#")[0]
        assert page.get_by_role("link", name="My event").count() == 1
        assert page.locator('.navbar a[href="/admin/"]').count() == 0
        assert page.locator('.navbar a[href^="/accounts/login/"]').count() == 0
        assert other.user.username not in page.content()
        page.reload()
    # The page itself, as the server sent it, is the anonymous reader's.
    assert page.request.get(leaderboard).text() == anonymous_html
    page.goto(f"{leaderboard}?page={page_number}")
    assert page.locator(f"#player-{me.pk} td").first.inner_text() == rank

    page.get_by_role("button", name="Toggle navigation").click()  # a phone: the menu is folded
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_asgi.url}/")
    page.goto(leaderboard)
    assert page.locator('.navbar a[href^="/accounts/login/"]').inner_text() == "Log in"
    assert me.user.username not in page.content()
    assert page.locator("#my-position").is_hidden()
    assert page.get_by_role("link", name="My event").count() == 0
