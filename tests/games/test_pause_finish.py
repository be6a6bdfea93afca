"""The organizer pauses, resumes or finishes a tournament game while its table is live: a pause stops the
turn clock (the player on turn gets back the time that was left, no timer fires at the resume), and each
change reaches every socket at once as a numbered update."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import LiveGame, LiveMove
from games.services import timers
from tests.games.test_table_play import play_one, setup_table
from tests.tournament.organizer_factories import make_user
from tournament.services import game_status, rounds
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def organizer_does(game, action, reason=""):
    return game_status.change_game_status(game, action, make_user(f"org-{action}-{game.pk}-{timezone.now().timestamp()}"),
                                          reason=reason)


@database_sync_to_async
def reload(pk):
    return LiveGame.objects.get(pk=pk)


@database_sync_to_async
def set_clock(pk, **fields):
    LiveGame.objects.filter(pk=pk).update(**fields)


@database_sync_to_async
def sweep(now):
    return timers.sweep_once(now)


async def all_get(sockets, version):
    return [await s.receive_until(lambda m: m["type"] in ("update", "state") and m["version"] == version)
            for s in sockets]


async def test_a_pause_stops_the_turn_clock_and_every_socket_hears_it():
    game, live, users, sockets, states = await setup_table(turn_seconds=30)
    await play_one(sockets, 1)
    live = await reload(live.pk)
    # 10 s of the 30 s turn are left when the organizer pauses
    now = timezone.now()
    await set_clock(live.pk, deadline=now + timedelta(seconds=10))
    await organizer_does(game, "pause")
    paused = await reload(live.pk)
    assert paused.paused_at is not None and paused.version == 3
    for update in await all_get(sockets, 3):
        assert update["events"] == [{"kind": "game_paused", "by": "organizer"}]
        assert update["game"]["status"] == "paused"
    # the pause lasts long past the deadline: the sweeper leaves the game alone
    assert await sweep(now + timedelta(minutes=5)) == 0
    # as if it had all happened 5 minutes ago: on resume the player still has what was left at the pause
    left = paused.deadline - paused.paused_at
    await set_clock(live.pk, paused_at=paused.paused_at - timedelta(minutes=5),
                    deadline=paused.deadline - timedelta(minutes=5))
    before = timezone.now()
    await organizer_does(game, "resume")
    after = timezone.now()
    resumed = await reload(live.pk)
    assert resumed.paused_at is None and resumed.version == 4
    assert before + left <= resumed.deadline <= after + left
    assert await sweep(timezone.now()) == 0  # no timer fires at the resume
    for update in await all_get(sockets, 4):
        assert update["events"][0]["kind"] == "game_resumed" and update["events"][0]["paused_seconds"] >= 300
        assert update["game"]["status"] == "playing"
        assert update["deadline"] == resumed.deadline.isoformat()
    # and play goes on
    await play_one(sockets, 4)
    for s in sockets:
        await s.close()


async def test_a_pause_between_hands_delays_the_next_deal():
    game, live, users, sockets, states = await setup_table(seed=11)
    version = 1
    while sockets[0].state["view"]["phase"] != "over":
        await play_one(sockets, version)
        version += 1
    now = timezone.now()
    await set_clock(live.pk, next_hand_at=now + timedelta(seconds=3))
    await organizer_does(game, "pause")
    paused = await reload(live.pk)
    left = paused.next_hand_at - paused.paused_at
    await set_clock(live.pk, paused_at=paused.paused_at - timedelta(minutes=2),
                    next_hand_at=paused.next_hand_at - timedelta(minutes=2))
    assert await sweep(timezone.now()) == 0  # paused: not dealt although due
    before = timezone.now()
    await organizer_does(game, "resume")
    after = timezone.now()
    resumed = await reload(live.pk)
    assert before + left <= resumed.next_hand_at <= after + left
    assert await sweep(resumed.next_hand_at) == 1  # dealt when the rest of the pause between hands is over
    for s in sockets:
        await s.close()


async def test_finishing_early_closes_the_table_for_every_socket():
    game, live, users, sockets, states = await setup_table(turn_seconds=30)
    await play_one(sockets, 1)
    await organizer_does(game, "finish", reason="the hall closes")
    closed = await reload(live.pk)
    assert closed.status == LiveGame.Status.FINISHED and closed.deadline is None and closed.version == 3
    for update in await all_get(sockets, 3):
        assert update["events"] == [{"kind": "game_closed", "by": "organizer"}]
        assert update["game"]["status"] == "finished"
        # the hand that was in play is abandoned: its seed is published with the close
        assert update["game"]["shuffles"][-1]["seed"] is not None
    mover = next(s for s in sockets if s.state["hand_seat"] == s.state["view"]["turn"])
    action = {k: v for k, v in mover.state["view"]["legal_actions"][0].items() if k != "seat"} \
        if mover.state["view"]["legal_actions"] else {"type": "draw"}
    await mover.send({"type": "move", "version": 3, "action": action, "id": "late"})
    refused = await mover.receive_until(lambda m: m["type"] == "error")
    assert refused["code"] == "game_over"
    assert not await database_sync_to_async(LiveMove.objects.filter(live_game_id=live.pk, version__gt=3).exists)()
    for s in sockets:
        await s.close()


def test_a_game_without_a_live_table_changes_status_as_before():
    from tests.games.factories import make_tournament_game

    game, _ = make_tournament_game(2)
    assert game_status.change_game_status(game, "pause", make_user("org-nolive")).status == "paused"
    assert not LiveGame.objects.filter(game=game).exists()


def test_a_pause_while_a_move_holds_the_table_is_refused_at_once_not_deadlocked():
    import threading

    from django.db import connection, transaction

    from games.services.moves import lock_live_game
    from tests.games.factories import make_tournament_game
    from tournament.models import AuditEntry

    if not connection.features.has_select_for_update_nowait:
        pytest.skip("SQLite has no row locks: its write lock is taken when the transaction begins")
    game, _ = make_tournament_game(2)
    live = live_game_for(game, seed=3)
    held, release = threading.Event(), threading.Event()

    def a_move_in_progress():
        with transaction.atomic():
            lock_live_game(live.pk)
            held.set()
            release.wait(10)
        connection.close()

    mover = threading.Thread(target=a_move_in_progress)
    mover.start()
    assert held.wait(10)
    organizer = make_user("org-busy")
    try:
        with pytest.raises(rounds.RoundError, match="a move is being played at this table right now; try again"):
            game_status.change_game_status(game, "pause", organizer)
    finally:
        release.set()
        mover.join()
    game.refresh_from_db()
    assert game.status == "running" and not AuditEntry.objects.filter(action="game.pause").exists()
    assert LiveGame.objects.get(pk=live.pk).paused_at is None
    assert game_status.change_game_status(game, "pause", organizer).status == "paused"  # the move is done: it goes through
