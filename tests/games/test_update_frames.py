"""Updates are changes (games/services/update_frames.py): merged into what a client holds they give the same
picture as a whole state; each viewer's frame is built once and shared; a field that goes away asks for a
whole state."""

import json

import pytest

from games import engine
from games.hidden_cards import known_cards, private_codes
from games.models import LiveMove
from games.services import snapshots
from games.services.moves import submit_move
from games.services.update_frames import sent_in, update_frames
from games.view_changes import NeedsState, changed, merge
from tests.games.factories import make_tournament_game
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]

PICTURE = ("version", "hand_seat", "view", "game", "deadline")


def test_merged_updates_give_the_whole_state_and_share_their_bytes(live_settings):
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=21)
    snap = snapshots.load_snapshot(live.pk)
    viewers = [0, 1, 2, None]
    pictures = {seat: snapshots.state_message(snap, seat, []) for seat in viewers}
    sent = {seat: sent_in(pictures[seat]) for seat in viewers}
    frames = {seat: [] for seat in viewers}
    for n in range(40):  # a few dozen moves: plays, draws, a hand's end and the next deal if it comes
        game = snap.game
        if game.hand is None or game.hand.over:
            break
        turn = game.hand.turn
        action = engine.legal_actions(game.hand, turn)[0].to_dict()
        del action["seat"]
        done = submit_move(live.pk, users[snap.hand_seats[turn]], snap.version, action, f"u-{n}")
        snap, moves = snapshots.cached_changes(live.pk, snap.version, done.version)
        for seat in viewers:
            base = sent[seat]
            sent[seat], texts = update_frames(snap, moves, base, (0, 1, 2))
            again = update_frames(snap, moves, base, (0, 1, 2))[1]  # a second socket of the same viewer
            assert all(a is b for a, b in zip(texts, again, strict=True))  # built and encoded once
            for text in texts:
                update = json.loads(text)
                frames[seat].append(update)
                pictures[seat] = merge(pictures[seat], update)
    whole = {seat: snapshots.state_message(snap, seat, []) for seat in viewers}
    for seat in viewers:
        assert {k: pictures[seat][k] for k in PICTURE} == {k: whole[seat][k] for k in PICTURE}
    # an update is the fields that moved, not the whole view
    sizes = [len(json.dumps(f.get("view", {}))) for f in frames[0]]
    assert max(sizes) < len(json.dumps(whole[0]["view"]))
    # no frame holds a card its viewer was not entitled to see
    stored = list(LiveMove.objects.filter(live_game_id=live.pk))
    for seat in viewers:
        seen = set().union(*(private_codes(f) for f in frames[seat]))
        assert seen <= known_cards(stored, seat)


def test_a_list_comes_as_its_changed_items_and_a_field_that_goes_away_needs_a_whole_state():
    counts = [{"seat": s, "cards": 7} for s in range(4)]
    before = {"players": counts, "hand": ["R1", "G2"]}
    after = {"players": [*counts[:2], {"seat": 2, "cards": 6}, counts[3]], "hand": ["G2"]}
    fields = changed(before, after)
    assert fields == {"players": {"2": {"seat": 2, "cards": 6}}, "hand": ["G2"]}  # one of four; a new length
    assert merge({"version": 1, "view": before}, {"version": 2, "by": {}, "events": [], "view": fields})["view"] == after
    player = {"turn": 1, "hand": ["R1"], "legal_actions": []}
    assert changed(player, {**player, "turn": 2}) == {"turn": 2}
    assert changed(player, player) == {} and changed(player, None) is None and changed(None, player) is player
    with pytest.raises(NeedsState):  # a player out of the game is shown the spectator's view
        changed(player, {"turn": 2})
