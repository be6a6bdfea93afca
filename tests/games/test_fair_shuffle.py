"""Shuffles people can check: every hand's commitment is public from its deal, its seed and salt only once
it is over; the revealed seed deals the same hand again (verify_hand, /play/verify/)."""

import json

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.models import LiveGame
from games.services import fairness, timers
from games.services.lifecycle import start_practice_game
from games.services.seats import turn_game_seat
from games.view_changes import merge
from tests.games.factories import Socket, engine_game_of, login_socket, make_tournament_game
from tests.tournament.organizer_factories import make_user
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_commitments_hide_the_seed_until_the_hand_is_over():
    key = fairness.new_shuffle_key()
    seeds = {fairness.hand_secret(key, n)[0] for n in range(50)}
    assert len(seeds) == 50 and all(0 <= s < 2**63 for s in seeds)
    seed, salt = fairness.hand_secret(key, 3)
    assert len(salt) == 32
    c = fairness.commitment(seed, salt)
    assert fairness.check_commitment(c, str(seed), salt)
    assert not fairness.check_commitment(c, str(seed + 1), salt)
    tampered = ("1" if salt[0] == "0" else "0") + salt[1:]  # one digit changed (a random salt may start "00")
    assert not fairness.check_commitment(c, str(seed), tampered)
    records = [{"hand": 0, "commitment": "a", "seed": "1", "salt": "s"},
               {"hand": 1, "commitment": "b", "seed": "2", "salt": "t"}]
    shown = fairness.public_shuffles(records, 1, False)
    assert shown == [{"hand": 1, "commitment": "a", "seed": "1", "salt": "s"},
                     {"hand": 2, "commitment": "b", "seed": None, "salt": None}]
    assert all(r["seed"] for r in fairness.public_shuffles(records, 1, True))  # the game was closed
    # a message carries only the newest hand and the one before it (the last reveal), however long the game
    many = [{"hand": n, "commitment": f"c{n}", "seed": str(n), "salt": "s"} for n in range(30)]
    assert fairness.public_shuffles(many, 29, False) == [
        {"hand": 29, "commitment": "c28", "seed": "28", "salt": "s"},
        {"hand": 30, "commitment": "c29", "seed": None, "salt": None}]


@database_sync_to_async
def reload(pk):
    return LiveGame.objects.select_related("game").get(pk=pk)


async def play_to_the_end(live, players, sockets):
    """Players play their first legal action, the sweeper plays the bots and deals; until the game ends."""
    for _ in range(5000):
        live = await reload(live.pk)
        for s in sockets:
            if s.state["version"] < live.version:
                await s.receive_until(lambda m, v=live.version: m["type"] in ("update", "state") and m["version"] == v)
        if live.status == LiveGame.Status.FINISHED:
            return live
        game = await engine_game_of(live)
        seat = turn_game_seat(game, live.hand_seats)
        if seat is None or seat >= len(players):
            assert await database_sync_to_async(timers.sweep_once)(timezone.now()) == 1
        else:
            sock = players[seat]
            action = {k: v for k, v in sock.state["view"]["legal_actions"][0].items() if k != "seat"}
            await sock.send({"type": "move", "version": live.version, "action": action})
            reply = await sock.receive_until(lambda m: m["type"] in ("ack", "error"))
            assert reply["type"] == "ack", reply
    raise AssertionError("the game did not end")


async def test_no_frame_carries_a_hands_seed_before_the_hand_is_over_and_every_hand_verifies():
    # (random seeds: usually several hands to 250, at least one)
    tgame, users = await database_sync_to_async(make_tournament_game)(2, bots=1, target_score=250)
    live = await database_sync_to_async(live_game_for)(tgame)  # no explicit seed: the production path
    assert live.shuffle_key and len(live.shuffles) == 1
    players = [await login_socket(live.pk, u) for u in users]
    watcher = Socket(live.pk)
    sockets = [*players, watcher]
    for s in sockets:
        await s.connect()
    live = await play_to_the_end(live, players, sockets)
    game = await engine_game_of(live)
    records = live.shuffles
    assert len(records) == len(game.results) >= 1
    assert len({r["seed"] for r in records}) == len(records)
    # each hand was dealt with its recorded seed
    for r in records:
        assert fairness.check_commitment(r["commitment"], r["seed"], r["salt"])
    for s in sockets:
        committed = set()
        picture = None
        for frame in s.frames:
            raw = json.dumps(frame)
            if frame["type"] == "state":
                picture = frame
            elif frame["type"] == "update":
                picture = merge(picture, frame)  # an update holds the fields that moved
            info = picture["game"] if frame["type"] in ("state", "update") else None
            for r in records:
                if r["seed"] in raw or r["salt"] in raw:
                    # only in a state/update that shows the hand over
                    assert info is not None and info["hands_played"] > r["hand"], (r, frame["type"])
            if "shuffles" in (frame.get("game") or {}):
                for shown in info["shuffles"]:
                    committed.add(shown["commitment"])
                    number = shown["hand"] - 1
                    if number >= info["hands_played"] and info["status"] != "finished":
                        assert shown["seed"] is None and shown["salt"] is None
        # every viewer saw every hand's commitment (each with its deal), and at the end the last reveals;
        # a message never carries more than the newest two hands (the verify page lists them all)
        assert committed == {r["commitment"] for r in records}
        assert all(len(f["game"].get("shuffles", ())) <= fairness.SHOWN_HANDS for f in s.frames if f.get("game"))
        final = s.state["game"]["shuffles"]
        assert [(x["seed"], x["salt"]) for x in final] == [(r["seed"], r["salt"]) for r in records[-2:]]
    # the commitment of a hand reached the players with its deal, before any move of that hand
    for r in records:
        deal = [f for f in players[0].frames if f.get("version") == r["version"] and f["type"] in ("update", "state")]
        if deal:  # (the first deal came in the connect state, at the same version)
            assert any(x["commitment"] == r["commitment"] and x["seed"] is None for x in deal[0]["game"]["shuffles"])
    for s in sockets:
        await s.close()
    # the management command and the page replay every hand with the engine
    out = await database_sync_to_async(_verify_command)(live.pk)
    assert f"{len(records)} hand(s) checked" in out and "FAILED" not in out
    page = await database_sync_to_async(Client().get)(reverse("games:verify"), {"game": live.pk,
                                                                              "hand": len(records)})
    assert page.status_code == 200
    html = page.content.decode()
    assert "identical to the deal played" in html and records[-1]["seed"] in html
    # tampering is caught: a different seed, or a different stored deal
    await database_sync_to_async(_tamper)(live.pk)
    with pytest.raises(CommandError, match="failed the check"):
        await database_sync_to_async(_verify_command)(live.pk)


def _verify_command(pk, *args):
    from io import StringIO

    out = StringIO()
    call_command("verify_hand", pk, *args, stdout=out)
    return out.getvalue()


def _tamper(pk):
    live = LiveGame.objects.get(pk=pk)
    shuffles = list(live.shuffles)
    shuffles[0] = {**shuffles[0], "seed": str(int(shuffles[0]["seed"]) + 1)}
    LiveGame.objects.filter(pk=pk).update(shuffles=shuffles)


def test_a_hand_in_play_is_not_revealed_anywhere():
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame)
    record = live.shuffles[0]
    client = Client()
    page = client.get(reverse("games:verify"), {"game": live.pk})
    assert page.status_code == 200
    assert record["seed"] not in page.content.decode() and "No hand of this game is over yet" in page.content.decode()
    assert client.get(reverse("games:verify"), {"game": live.pk, "hand": 1}).status_code == 404
    with pytest.raises(CommandError, match="is not over"):
        _verify_command(live.pk, "--hand", "1")
    # the table page and the stored game give only the commitment
    assert record["seed"] not in client.get(live.get_absolute_url()).content.decode()


def test_the_verify_form_checks_any_commitment_and_the_command_replays_a_deal():
    seed, salt = fairness.hand_secret(fairness.new_shuffle_key(), 0)
    c = fairness.commitment(seed, salt)
    client = Client()
    ok = client.get(reverse("games:verify"), {"commitment": c, "seed": seed, "salt": salt})
    assert "match the commitment" in ok.content.decode() and "alert-success" in ok.content.decode()
    bad = client.get(reverse("games:verify"), {"commitment": c, "seed": seed + 1, "salt": salt})
    assert "do <strong>not</strong> match" in bad.content.decode()
    junk = client.get(reverse("games:verify"), {"commitment": "zz", "seed": "x", "salt": "!"})
    assert junk.status_code == 200 and "64 hexadecimal digits" in junk.content.decode()
    assert client.get(reverse("games:verify"), {"game": "abc"}).status_code == 404
    from io import StringIO

    out = StringIO()
    call_command("verify_hand", commitment=c, seed=str(seed), salt=salt, preset="uno-official", seats=3, stdout=out)
    text = out.getvalue()
    events = fairness.replay_deal(engine.get_preset("uno-official"), 3, seed, None)
    dealt = [e.private["cards"] for e in events if e.kind == "dealt"]
    assert "commitment matches" in text and " ".join(dealt[0]) in text
    with pytest.raises(CommandError, match="do NOT match"):
        call_command("verify_hand", commitment=c, seed=str(seed + 1), salt=salt)


def test_a_private_practice_games_hands_are_checked_by_its_owner_only():
    owner = make_user("owner-fair")
    live = start_practice_game(owner, "uno-official", 1, turn_seconds=0)
    client = Client()
    assert client.get(reverse("games:verify"), {"game": live.pk}).status_code == 404
    client.force_login(make_user("someone-else"))
    assert client.get(reverse("games:verify"), {"game": live.pk}).status_code == 404
    client.force_login(owner)
    assert client.get(reverse("games:verify"), {"game": live.pk}).status_code == 200
