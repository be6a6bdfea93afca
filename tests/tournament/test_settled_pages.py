"""Pages of a big event while its scores change: they show the version published in the shared cache
for ``STANDINGS_SETTLE_SECONDS`` (rebuilt at most once a period, by one worker for all), and a worker
gets a page another worker rendered instead of building it again."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.bracket_factories import played_first_round
from tests.tournament.standings_data import make_event, make_players, record_games, seat_round
from tournament import public_pages, scores_version, standings_cache
from tournament.models import Game, Seat
from tournament.services import next_round, results
from tournament.services.next_round import NextRoundOptions
from tournament.views import bracket as bracket_views

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cold_caches")]



def points_shown(client, event, player) -> int:
    html = client.get(reverse("leaderboard", args=[event.slug]), {"q": player.display_name}).content.decode()
    return int(re.search(r"<td class=\"text-end\">(\d+)</td><td><a href=\"[^\"]+\">page", html).group(1))


def shown_key(event) -> str:
    return f"scores-shown:{event.pk}:{event.created_at.timestamp()!r}"


@pytest.mark.parametrize("min_players", [8, 9], ids=["big-event", "small-event"])
def test_a_big_events_pages_show_the_published_version_until_it_moves_on(client, settings, min_players,
                                                                        django_capture_on_commit_callbacks):
    settings.STANDINGS_SETTLE_SECONDS = 60
    settings.STANDINGS_SETTLE_MIN_PLAYERS = min_players
    settings.STANDINGS_VERSION_CHECK_SECONDS = 0  # every page reads (and may publish) the version
    event = make_event(slug="settled")
    players = make_players(event, [f"P{i}" for i in range(8)])
    _round, tables = seat_round(event, players)
    record_games(tables, [(0, [0, 4, 3, 3])])
    seats = list(Seat.objects.filter(table=tables[1].table).order_by("number"))
    game = Game.objects.get(table=tables[1].table)
    assert points_shown(client, event, seats[2].player) == 0  # standings built: the event's size known
    assert points_shown(client, event, seats[2].player) == 0  # a big event's version is published now
    with django_capture_on_commit_callbacks(execute=True):
        results.record_hand(game, 2, seats[2].pk, {s.pk: v for s, v in zip(seats, [5, 6, 0, 7], strict=True)},
                            None, "played offline")
    big = min_players <= 8
    assert points_shown(client, event, seats[2].player) == (0 if big else 18)
    # The live socket's version is never held back.
    event.refresh_from_db()
    _, shown = scores_version.public_event(event.slug)
    assert scores_version.current_version(event).change > shown.change if big else True
    cache.delete(shown_key(event))  # the period is over (Redis expires the key)
    assert points_shown(client, event, seats[2].player) == 18


def small_bracket():
    event, organizer, _ = played_first_round(16)
    options = NextRoundOptions(field=16, advance=[1], draw_seed=9)
    round_two = next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids,
                                                organizer)
    return event, round_two


def test_a_worker_gets_the_bracket_page_another_one_rendered(client, settings, monkeypatch,
                                                           django_assert_num_queries):
    settings.STANDINGS_SHARED_CACHE = True
    event, round_two = small_bracket()
    url = reverse("bracket", args=[event.slug, round_two.number])
    fragment = reverse("bracket_fragment", args=[event.slug, round_two.number])
    page, part = client.get(url).content, client.get(fragment).content
    scores_version.clear()  # another process: nothing of this event in memory
    standings_cache.clear()
    public_pages.clear()

    def no_diagram(round_):
        raise AssertionError("the diagram was built again")

    monkeypatch.setattr(bracket_views, "load_bracket", no_diagram)
    with django_assert_num_queries(2):  # the event with its version, the round
        response = client.get(url)
    assert response.content == page and response["ETag"]
    assert client.get(fragment).content == part
    # A query string that cannot be canonical takes the longer way (and nothing is kept for it).
    with pytest.raises(AssertionError, match="built again"):
        client.get(url, {"stage": "01"})


def test_a_worker_waits_for_the_one_building_a_shared_value(settings, monkeypatch):
    settings.STANDINGS_SHARED_CACHE = True
    name = f"test-shared:{id(object())}"
    assert cache.add(f"{name}:building", 1, timeout=30)  # another worker is building it

    def they_finish(_seconds):
        cache.set(name, "theirs", timeout=30)

    monkeypatch.setattr(standings_cache.time, "sleep", they_finish)
    assert standings_cache.shared(name, lambda: pytest.fail("built twice")) == "theirs"


def test_a_worker_builds_a_shared_value_itself_when_the_builder_is_stuck(settings, monkeypatch):
    settings.STANDINGS_SHARED_CACHE = True
    name = f"test-shared:{id(object())}"
    assert cache.add(f"{name}:building", 1, timeout=30)  # held by a worker that died mid-build
    monkeypatch.setattr(standings_cache, "BUILD_WAIT_SECONDS", 0)
    assert standings_cache.shared(name, lambda: ("mine", True)) == "mine"
    assert cache.get(name) == "mine"
    cache.delete(f"{name}:building")
