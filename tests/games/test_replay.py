"""Replays rebuilt from the stored log: a finished game shows every hand's cards and seeds, a running one
only what a spectator sees; the JSON download has the rules, the revealed seeds and every move, and
dealing each hand with its seed and applying its moves gives the game's final totals."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.hidden_cards import private_codes
from games.models import LiveGame, LiveMove
from games.services import lifecycle
from tests.games.factories import make_tournament_game
from tests.ratings.factories import finished_tournament_game, play
from tests.tournament.organizer_factories import make_user
from tournament.services.results import record_hand

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_running_games_replay_shows_no_hidden_card_and_no_unrevealed_seed():
    owner = make_user("replayer")
    live = lifecycle.start_practice_game(owner, "uno-official", 2, seed=21, turn_seconds=0)
    live = play(live, {0: owner}, stop_after_moves=6)
    assert live.status == LiveGame.Status.RUNNING
    client = Client()
    client.force_login(owner)
    page = client.get(f"/play/tables/{live.pk}/replay/")
    assert page.status_code == 200
    data = page.context["replay"]
    assert data["hands"] and not data["cards_shown"]
    frames = [f for h in data["hands"] for f in h["frames"]]
    assert len(frames) > 6 and all(not private_codes(f) for f in frames)
    assert data["hands"][-1]["seed"] is None  # the hand being played keeps its seed
    download = client.get(f"/play/tables/{live.pk}/replay.json").json()
    assert not private_codes(download) and download["hands"][-1]["seed"] is None
    assert Client().get(f"/play/tables/{live.pk}/replay/").status_code == 404  # a practice game is private


def test_a_finished_games_replay_shows_every_hand_and_its_log_replays_to_the_final_totals():
    live, users = finished_tournament_game(2, bots=1, seed=31)
    page = Client().get(f"/play/tables/{live.pk}/replay/")
    assert page.status_code == 200
    data = page.context["replay"]
    assert data["cards_shown"] and all(h["seed"] for h in data["hands"])
    first = data["hands"][0]["frames"][0]["table"]["players"]
    assert all(len(p["hand"]) == p["cards"] == 7 for p in first)

    response = Client().get(f"/play/tables/{live.pk}/replay.json")
    assert response["Content-Disposition"] == f'attachment; filename="game-{live.pk}.json"'
    log = json.loads(response.content)
    assert log["rules"]["preset"] == "uno-official" and log["rules"]["target"] == 30
    assert len(log["seats"]) == 3 and "frames" not in log["hands"][0]
    moves = LiveMove.objects.filter(live_game=live, action__isnull=False)
    assert sum(len(h["moves"]) for h in log["hands"]) == moves.count()
    rules = engine.RuleSet.from_dict(log["rules"])
    totals = [0] * len(log["seats"])
    for hand in log["hands"]:
        state, _ = engine.HandSetup(rules, len(hand["seats"]), int(hand["seed"]), None, hand["dealer"]).start()
        for move in hand["moves"]:
            engine.apply(state, engine.action_from_dict(move["action"]))
        assert state.over
        for game_seat, won in zip(range(len(totals)), hand["result"]["points_won"], strict=True):
            totals[game_seat] += won or 0
    assert totals == log["totals"] == engine.Game.from_dict(live.state).totals


def test_a_replay_of_no_game_answers_404():
    assert Client().get("/play/tables/999999/replay/").status_code == 404
    assert Client().get("/play/tables/999999/replay.json").status_code == 404


def test_a_game_recorded_by_hand_shows_no_replay_link_and_a_live_one_does():
    """A game played on paper has no move log: its score sheet says so instead of linking a replay that
    would answer 404; a game of a live table links its replay, which opens."""
    on_paper, _ = make_tournament_game(players=3)
    seats = list(on_paper.table.seats.order_by("number"))
    organizer = make_user("recorder", is_staff=True, is_superuser=True)
    record_hand(on_paper, 1, seats[0].pk, {s.pk: (0 if s == seats[0] else 12) for s in seats}, organizer,
                "played on paper")
    live, _ = finished_tournament_game()
    event = on_paper.table.round.event
    player = seats[1].player
    for url in (reverse("table_detail", args=[event.slug, on_paper.table_id]),
                reverse("player_detail", args=[event.slug, player.pk])):
        page = Client().get(url).content.decode()
        assert "recorded by hand: no replay" in page, url
        assert reverse("games:tournament_game_replay", args=[on_paper.pk]) not in page, url
    played = live.game
    page = Client().get(reverse("table_detail", args=[played.table.round.event.slug, played.table_id])).content.decode()
    link = reverse("games:tournament_game_replay", args=[played.pk])
    assert link in page and "no replay" not in page
    assert Client().get(link, follow=True).status_code == 200
