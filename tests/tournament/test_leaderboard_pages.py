"""Big public pages: the leaderboard's pages, search and "my position"; the bracket's stages and pages;
both cached per scores version and recomputed when a hand is recorded or corrected."""

import re

import pytest
from django.urls import reverse

from tests.tournament.bracket_factories import played_first_round
from tests.tournament.standings_data import make_event, make_players, record_games, seat_round
from tournament import standings_cache
from tournament.models import Game, Seat
from tournament.scores_version import Version
from tournament.services import bracket_stages, next_round, results
from tournament.services.next_round import NextRoundOptions

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cold_caches")]



def ranked_event(count=250):
    """``count`` players; at each table of 4 the first seat wins one hand (table t's winner scores 10 + t)."""
    event = make_event(slug="big")
    players = make_players(event, [f"P{i:04d}" for i in range(count)])
    _round, tables = seat_round(event, players)
    record_games(tables, [(0, [0, 4, 3, 3])])
    return event, players, tables


def listed(html: str) -> list[str]:
    return re.findall(r'<tr data-player-id="\d+" id="player-\d+">\s*<td>[\d-]+</td>\s*<td><a href="[^"]+">(\w+)</a>', html)


def test_the_leaderboard_shows_100_rows_a_page_with_links_to_the_others(client):
    event, players, _ = ranked_event(250)
    url = reverse("leaderboard", args=[event.slug])
    first = client.get(url).content.decode()
    assert len(listed(first)) == 100 and "Rows 1–100 of 250" in first
    assert f'href="{url}?page=2"' in first and f'href="{url}?page=3"' in first and "?page=4" not in first
    assert 'data-live-url="/ws/events/big/?page=1"' in first
    last = client.get(url, {"page": 3}).content.decode()
    assert len(listed(last)) == 50 and "Rows 201–250 of 250" in last and 'rel="prev"' in last
    everyone = listed(first) + listed(client.get(url, {"page": 2}).content.decode()) + listed(last)
    assert sorted(everyone) == sorted(p.display_name for p in players)
    for bad in ("0", "4", "x", "-1", "2.5"):
        assert client.get(url, {"page": bad}).status_code == 404, bad


def test_find_a_player_lists_matches_with_rank_and_page(client):
    event, players, _ = ranked_event(250)
    url = reverse("leaderboard", args=[event.slug])
    html = client.get(url, {"q": "p02"}).content.decode()  # P0200-P0249, case-insensitive
    assert "50 players named like “p02”" in html
    assert re.search(r'href="/events/big/leaderboard/\?page=\d#player-\d+">page \d</a>', html)
    assert "js/live_leaderboard.js" not in html
    none = client.get(url, {"q": "<nobody>"}).content.decode()
    assert "No player named like “&lt;nobody&gt;”" in none and "<nobody>" not in none


def test_a_logged_in_player_gets_their_position_from_me_json(client):
    event, players, _ = ranked_event(250)
    me = players[201]
    client.force_login(me.user)
    position = client.get(reverse("me_json"), {"event": event.slug, "position": 1}).json()["position"]
    assert position["player_id"] == me.pk and position["pages"] == 3
    assert position["url"] == f"/events/big/leaderboard/?page={position['page']}#player-{me.pk}"
    page = client.get(reverse("leaderboard", args=[event.slug]), {"page": position["page"]}).content.decode()
    assert f'id="player-{me.pk}"' in page
    assert re.search(rf'id="player-{me.pk}">\s*<td>{position["place"]}</td>', page)
    assert 1 <= position["rank"] <= 250


def leaderboard_points(client, event, player) -> int:
    html = client.get(reverse("leaderboard", args=[event.slug]), {"q": player.display_name}).content.decode()
    return int(re.search(r"<td class=\"text-end\">(\d+)</td><td><a href=\"[^\"]+\">page", html).group(1))


@pytest.mark.parametrize("capture", [True, False], ids=["after-commit", "inside-the-transaction"])
def test_recording_and_correcting_a_hand_changes_the_cached_pages(client, django_capture_on_commit_callbacks,
                                                                   capture):
    event, players, tables = ranked_event(8)
    game = Game.objects.get(table=tables[1].table)
    seats = list(Seat.objects.filter(table=tables[1].table).order_by("number"))
    winner = seats[2].player
    url = reverse("leaderboard", args=[event.slug])
    assert leaderboard_points(client, event, winner) == 0
    client.get(url)  # the anonymous page is now cached
    first_page = client.get(url).content.decode()

    def record(number, left):
        points = {seat.pk: value for seat, value in zip(seats, left, strict=True)}
        if capture:
            with django_capture_on_commit_callbacks(execute=True):
                results.record_hand(game, number, seats[2].pk, points, None, "played offline")
        else:
            results.record_hand(game, number, seats[2].pk, points, None, "played offline")

    record(2, [5, 6, 0, 7])
    assert leaderboard_points(client, event, winner) == 18
    assert client.get(url).content.decode() != first_page
    record(2, [1, 1, 0, 1])  # a correction of the same hand
    assert leaderboard_points(client, event, winner) == 3


def big_bracket():
    """300 players, a field of 256: stage one has 64 tables, then 16, 4 and the final (85 tables)."""
    event, organizer, _ = played_first_round(300)
    options = NextRoundOptions(field=256, advance=[1], draw_seed=9)
    round_two = next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids,
                                                organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    return event, round_two


def tables_shown(html: str) -> list[str]:
    return re.findall(r'id="s(\d+)t(\d+)"', html)


def test_a_big_bracket_shows_one_stage_a_page_at_a_time_with_a_search(client):
    event, round_two = big_bracket()
    url = reverse("bracket", args=[event.slug, round_two.number])
    html = client.get(url).content.decode()
    assert tables_shown(html) == [("1", str(n)) for n in range(1, 33)]
    assert "Tables 1–32 of 64" in html and "64 tables" in html and "16 tables" in html and "Final" in html
    assert 'href="?stage=1&amp;page=2"' in html and 'href="?stage=2"' in html
    assert 'data-fragment-url="/events/' in html
    second = client.get(url, {"stage": 1, "page": 2}).content.decode()
    assert tables_shown(second) == [("1", str(n)) for n in range(33, 65)]
    waiting = client.get(url, {"stage": 2}).content.decode()
    assert tables_shown(waiting) == [] and "16 tables, seated when stage 1 ends." in waiting
    fragment = client.get(reverse("bracket_fragment", args=[event.slug, round_two.number]),
                          {"stage": 1, "page": 2}).content.decode()
    assert tables_shown(fragment) == tables_shown(second) and "<html" not in fragment
    for bad in ({"stage": 9}, {"stage": "x"}, {"stage": 1, "page": 3}, {"page": "0"}):
        assert client.get(url, bad).status_code == 404, bad
    entry = round_two.bracket_entries.select_related("player").order_by("-seed").first()
    found = client.get(url, {"q": entry.player.display_name}).content.decode()
    table = next(t for t in round_two.tables.filter(stage=1) if entry.player_id in {s.player_id for s in t.seats.all()})
    page = (table.number - 1) // 32 + 1
    anchor = f'?stage=1{"&amp;page=2" if page == 2 else ""}#s1t{table.number}'
    assert f"Seed {entry.seed}: <strong>{entry.player.display_name}</strong>" in found and anchor in found


@pytest.mark.parametrize("players", [16, 64])
@pytest.mark.parametrize("check_seconds,queries", [(0, 1), (60, 0)], ids=["version-read", "version-known"])
def test_a_cached_bracket_page_costs_only_the_version_check(client, django_assert_num_queries, settings, players,
                                                            check_seconds, queries):
    """A stored page costs the version's query, or none while the version read is less than
    STANDINGS_VERSION_CHECK_SECONDS old."""
    settings.STANDINGS_VERSION_CHECK_SECONDS = check_seconds
    event, organizer, _ = played_first_round(players)
    options = NextRoundOptions(field=players, advance=[1], draw_seed=9)
    round_two = next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids,
                                                organizer)
    url = reverse("bracket", args=[event.slug, round_two.number])
    client.get(url)
    with django_assert_num_queries(queries):
        assert client.get(url).status_code == 200
    with django_assert_num_queries(queries):  # the fragment shares the diagram
        assert client.get(reverse("bracket_fragment", args=[event.slug, round_two.number])).status_code == 200


def test_the_memo_keeps_only_the_two_newest_versions_of_an_event():
    """Versions only move forward: what was kept for older ones goes when a newer one is stored (while
    scores changed, old versions' standings and pages piled up in every worker). Two are kept: a big
    event's pages show the published version while its live socket reads the newest."""
    old, shown, new = (Version(41, 1.5, change) for change in (7, 9, 12))
    other = Version(42, 2.5, 3)
    builds = []

    def build(value):
        return lambda: builds.append(value) or value

    standings_cache.memo(("standings", old, None), build("old standings"))
    standings_cache.memo(("leaderboard-page", old, None), build("old page"))
    standings_cache.memo(("standings", other, None), build("other event"))
    standings_cache.memo(("standings", shown, None), build("shown standings"))
    assert standings_cache.peek(("standings", old, None)) == "old standings"

    standings_cache.memo(("standings", new, None), build("new standings"))
    assert standings_cache.peek(("standings", old, None)) is None
    assert standings_cache.peek(("leaderboard-page", old, None)) is None
    assert standings_cache.peek(("standings", shown, None)) == "shown standings"
    assert standings_cache.peek(("standings", new, None)) == "new standings"
    assert standings_cache.peek(("standings", other, None)) == "other event"

    # A reader still on a version older than both gets its value built, but it is not kept.
    assert standings_cache.memo(("standings", old, None), build("old again")) == "old again"
    assert standings_cache.peek(("standings", old, None)) is None
    assert builds == ["old standings", "old page", "other event", "shown standings", "new standings", "old again"]
