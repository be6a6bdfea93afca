"""A real headless Chromium watches a bracket page while the final's game ends.

Two paths: pytest-django's ``live_server`` serves HTTP only, so the page's websocket cannot open and the
page polls its bracket fragment every few seconds (the fallback); against the live ASGI server (Daphne,
``tests/live_asgi.py``) the final is played live by its players' websockets and the page redraws when the
event's websocket says the scores changed.
"""

import pytest

from games.view_changes import merge
from tests.tournament.bracket_factories import finish_table, played_first_round, stage_game, stage_tables
from tournament.services import bracket_stages, next_round
from tournament.services.next_round import NextRoundOptions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_bracket_page_updates_when_the_final_ends(live_server, page):
    event, organizer, _ = played_first_round(16)
    options = NextRoundOptions(field=16, advance=[1], draw_seed=4)
    round_two = next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids,
                                                organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    for number, members in enumerate(stage_tables(round_two, 1), start=1):
        finish_table(stage_game(round_two, 1, number), members, organizer)
    bracket_stages.start_stage(round_two, 2, organizer)
    final = stage_tables(round_two, 2)[0]

    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/2/bracket/")
    assert page.locator("#stage-2 .bracket-table").count() == 1
    assert page.locator("#champion").count() == 0
    # Phone: the stages are stacked, and a stage's tables scroll sideways instead of squeezing.
    first, second = page.locator("#stage-1").bounding_box(), page.locator("#stage-2").bounding_box()
    assert second["y"] > first["y"]
    assert page.evaluate("(() => { const s = document.querySelector('#stage-1 .stage-tables');"
                         " return s.scrollWidth > s.clientWidth; })()")

    finish_table(stage_game(round_two, 2, 1), final, organizer)
    page.locator("#champion").wait_for(timeout=15_000)
    champion = page.locator("#champion").inner_text()
    assert "Champion:" in champion
    assert page.locator("#stage-2 li.advanced").count() == 1
    assert "Updated at" in page.locator("#live-status").inner_text()
    assert all(url.startswith(live_server.url) or url.startswith("ws") for url in requests), requests


def test_projector_mode_puts_stages_side_by_side_in_large_type(live_server, page):
    event, organizer, _ = played_first_round(16)
    options = NextRoundOptions(field=16, advance=[1], draw_seed=4)
    next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids, organizer)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/2/bracket/?projector=1")
    first, second = page.locator("#stage-1").bounding_box(), page.locator("#stage-2").bounding_box()
    assert second["x"] > first["x"] and abs(second["y"] - first["y"]) < 5
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.bracket-seats li')).fontSize)")
    assert size >= 20
    # Nothing of the site's chrome on the big screen: no navigation bar, no log-in or sign-up link.
    assert page.locator("nav.navbar").count() == 0
    assert page.get_by_role("link", name="Log in").count() == 0
    assert page.get_by_role("link", name="Sign up").count() == 0
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/2/bracket/")
    assert page.locator("nav.navbar").is_visible() and page.get_by_role("link", name="Log in").is_visible()


# ---- over the event's websocket, as at the venue: the final's game is played live to its end ----------

@pytest.fixture
def live_asgi_settings():
    # The test's players move as fast as the server answers: on a quiet machine faster than the per-socket
    # limit (30 messages per 5 s) lets a person, and a `rate_limited` move left the test waiting for a
    # version nobody made (its intermittent timeout).
    return {"LIVE_BOT_THINK_SECONDS": [0, 0], "LIVE_NEXT_HAND_SECONDS": 0.2, "LIVE_SWEEP_INTERVAL": 0.05,
            "LIVE_SOCKET_RATE_LIMIT": (1_000_000, 1.0)}


@pytest.fixture
def live_final(live_asgi):
    """A bracket whose final is running live (a low target: a hand or two), with its players' cookies.
    Made before the browser starts (the ORM and the channel layer run outside Playwright's loop)."""
    from tests.games.factories import session_cookie
    from tournament.models import Seat
    from tournament.services.live_tables import live_game_for

    event, organizer, _ = played_first_round(16, target_score=30)
    options = NextRoundOptions(field=16, advance=[1], draw_seed=4)
    round_two = next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids,
                                                organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    for number, members in enumerate(stage_tables(round_two, 1), start=1):
        finish_table(stage_game(round_two, 1, number), members, organizer)
    bracket_stages.start_stage(round_two, 2, organizer)
    game = stage_game(round_two, 2, 1)
    live = live_game_for(game)
    seats = Seat.objects.filter(table_id=game.table_id).select_related("player__user").order_by("number")
    cookies = [session_cookie(seat.player.user).decode() for seat in seats]
    return event, live, cookies


def next_version(socket, seen: int, picture: dict) -> dict:
    """The socket's picture (its last state with the later updates merged in, docs/protocol.md) once it is
    newer than `seen`; a refused move fails here with the server's reason (a `stale` one is followed by the
    current state)."""
    while picture["version"] <= seen:
        message = socket.receive_until(lambda m: m["type"] in ("error", "update", "state"))
        assert message["type"] != "error" or message.get("code") == "stale", message
        if message["type"] == "state":
            picture = message
        elif message["type"] == "update" and message["version"] == picture["version"] + 1:
            picture = merge(picture, message)
    return picture


def test_bracket_page_follows_a_final_played_live_over_its_websocket(live_asgi, live_final, page):
    from tests.games.test_faults_restart import RawSocket

    event, live, cookies = live_final
    page.goto(f"{live_asgi.url}/events/{event.slug}/rounds/2/bracket/")
    assert page.locator("#champion").count() == 0
    page.locator('#bracket[data-live="open"]').wait_for(state="attached")  # the event's websocket is open
    sockets = [RawSocket(live_asgi.host, live_asgi.port, live.ws_path, cookie) for cookie in cookies]
    views = {i: s.receive_until(lambda m: m["type"] == "state") for i, s in enumerate(sockets)}
    finished = False
    for _ in range(3000):  # the player on turn plays their first legal action; the server deals hands
        latest = max(views.values(), key=lambda m: m["version"])
        behind = [i for i, m in views.items() if m["version"] < latest["version"]]
        for i in behind:  # a socket may have been sent a newer state than the others' update: catch up first
            views[i] = next_version(sockets[i], latest["version"] - 1, views[i])
        if behind:
            continue
        if latest["game"]["status"] == "finished":
            finished = True
            break
        view = latest["view"]
        on_turn = view.get("turn") if latest["game"]["status"] == "playing" else None
        mover = next((i for i, m in views.items() if on_turn is not None and m["view"]["seat"] == on_turn), None)
        if mover is not None:
            action = {k: v for k, v in views[mover]["view"]["legal_actions"][0].items() if k != "seat"}
            sockets[mover].send({"type": "move", "version": latest["version"], "action": action})
        for i, s in enumerate(sockets):  # everyone catches up with the next version
            views[i] = next_version(s, latest["version"], views[i])
    for s in sockets:
        s.close()
    assert finished, "the final did not end"
    # the page hears of it on the event's websocket and redraws the bracket with the champion
    page.locator("#champion").wait_for(timeout=15_000)
    assert "Champion:" in page.locator("#champion").inner_text()
    assert page.locator("#stage-2 li.advanced").count() == 1
    assert "(live)" in page.locator("#live-status").inner_text(), "updated through the websocket"
