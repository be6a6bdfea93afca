"""A real headless Chromium against the real ASGI site (Daphne, the page cache in front of Django): a
player logs in, reads the leaderboard again and again (from the stored page, with their own name and
position), logs out from it, and then sees the public page."""

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

    page.goto(f"{live_asgi.url}/accounts/login/?next=/events/{event.slug}/leaderboard/")
    page.fill("#id_username", me.user.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    assert page.url == leaderboard
    tokens = set()
    for _ in range(4):  # the first reading goes through Django; the next ones come from the stored page
        page.reload()
        assert page.locator(".navbar-text").inner_text() == me.user.username
        assert f"#player-{me.pk}" in page.locator("#my-position a").get_attribute("href")
        assert page.get_by_role("link", name="My event").count() == 1
        assert page.locator('.navbar a[href="/admin/"]').count() == 0
        assert page.locator('.navbar a[href^="/accounts/login/"]').count() == 0
        assert other.user.username not in page.content()
        tokens.add(page.locator('.navbar input[name="csrfmiddlewaretoken"]').get_attribute("value"))
    assert len(tokens) == 4  # a fresh token each time

    page.get_by_role("button", name="Toggle navigation").click()  # a phone: the menu is folded
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_asgi.url}/")
    page.goto(leaderboard)
    assert page.locator('.navbar a[href^="/accounts/login/"]').inner_text() == "Log in"
    assert me.user.username not in page.content()
    assert page.locator("#my-position").count() == 0
    assert page.get_by_role("link", name="My event").count() == 0
