"""The check-in desk: search by name and roll number, check in and undo, bulk, confirm a claim, walk-ins,
counts; refusals for other organizers and bad input; a constant number of queries at 1,000 players."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.organizer_factories import (
    PASSWORD,
    bulk_players,
    make_event,
    make_organizer_of,
    make_players,
    make_user,
    seat_first_round_in_admin,
)
from tournament.models import AuditEntry, Event, Player, Round, Seat, Table
from tournament.services import checkin_desk
from tournament.services.rounds import start_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return make_event(status=Event.Status.REGISTRATION, checkin_open=True, min_table_size=3, max_table_size=4,
                      target_score=100)


def desk(event, **params):
    url = reverse("admin:tournament_event_checkin_desk", args=[event.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def named(event, name, roll, **fields):
    user = make_user()
    return Player.objects.create(event=event, user=user, display_name=name, roll_number=roll, **fields)


@pytest.fixture
def students(event):
    return {
        "asha": named(event, "Asha Sen", "CHE001"),
        "ravi": named(event, "Ravi Das", "CHE002"),
        "meera": named(event, "Meera Iyer", "CHE003", claim=Player.Claim.PENDING),
        "ashok": named(event, "Ashok Rao", "MEC101", status=Player.Status.CHECKED_IN),
        "gone": named(event, "Gone Away", "CHE009", status=Player.Status.WITHDRAWN),
    }


def results(response) -> str:
    html = response.content.decode()
    return html[html.index('id="desk-results"'):]


def test_search_by_name_and_by_roll_number(organizer_client, event, students):
    page = results(organizer_client.get(desk(event, q="ash")))
    assert "Asha Sen" in page and "Ashok Rao" in page and "Ravi Das" not in page
    page = results(organizer_client.get(desk(event, q="che002")))
    assert "Ravi Das" in page and "Asha Sen" not in page
    page = results(organizer_client.get(desk(event, q="CHE00")))
    assert page.index("Asha Sen") < page.index("Meera Iyer") < page.index("Ravi Das")
    assert "Nobody matches" in results(organizer_client.get(desk(event, q="zzz")))
    partial = organizer_client.get(desk(event, q="ravi", partial=1))  # the search box's as-you-type answer
    assert partial.content.decode().lstrip().startswith('<div id="desk-results">')
    assert "Ravi Das" in partial.content.decode() and "desk-counts" not in partial.content.decode()
    waiting = results(organizer_client.get(desk(event, show="waiting")))
    assert "Asha Sen" in waiting and "Ashok Rao" not in waiting and "Gone Away" not in waiting
    claims = results(organizer_client.get(desk(event, show="claims")))
    assert "Meera Iyer" in claims and "Asha Sen" not in claims


def test_check_in_and_undo_are_audited(organizer_client, event, students):
    asha = students["asha"]
    response = organizer_client.post(desk(event), {"action": "check_in", "player": asha.pk, "q": "asha"})
    assert response.status_code == 302 and response["Location"].endswith("?q=asha")
    asha.refresh_from_db()
    assert asha.status == Player.Status.CHECKED_IN and asha.checked_in_at is not None
    entry = AuditEntry.objects.get(event=event, action="player.check_in")
    assert entry.actor == organizer_client.user and entry.reason == "Checked in at the desk"
    response = organizer_client.post(desk(event), {"action": "undo", "player": asha.pk}, follow=True)
    assert "check-in is undone" in response.content.decode()
    asha.refresh_from_db()
    assert asha.status == Player.Status.REGISTERED and asha.checked_in_at is None
    assert AuditEntry.objects.filter(event=event, action="player.undo_check_in", actor=organizer_client.user).exists()
    response = organizer_client.post(desk(event), {"action": "undo", "player": asha.pk}, follow=True)
    assert "not checked in" in response.content.decode()


def test_undo_is_refused_once_the_player_plays(organizer_client, event):
    players = make_players(event, 6, status=Player.Status.CHECKED_IN)
    seat_first_round_in_admin(organizer_client, event, source="checked_in")
    start_round(Round.objects.get(event=event, number=1), organizer_client.user)
    response = organizer_client.post(desk(event), {"action": "undo", "player": players[0].pk}, follow=True)
    assert "already plays in round 1" in response.content.decode()
    assert Player.objects.get(pk=players[0].pk).status == Player.Status.CHECKED_IN
    assert checkin_desk.desk_counts(event).seated == 6


def test_the_seated_count_names_the_current_round_and_stage(organizer_client, event):
    players = make_players(event, 6, status=Player.Status.CHECKED_IN)
    page = organizer_client.get(desk(event)).content.decode()
    assert 'id="seated-in">round 1<' in page and 'id="count-seated">0<' in page  # before any round
    seat_first_round_in_admin(organizer_client, event, source="checked_in")
    start_round(Round.objects.get(event=event, number=1), organizer_client.user)
    second = Round.objects.create(event=event, number=2, kind=Round.Kind.BRACKET, seed=7)
    for stage, seated in ((1, players[:4]), (2, players[:2])):
        table = Table.objects.create(round=second, number=1, stage=stage)
        Seat.objects.bulk_create(Seat(table=table, number=n, player=p) for n, p in enumerate(seated))
    page = organizer_client.get(desk(event)).content.decode()
    assert "Seated in round 1" not in page
    assert 'id="seated-in">round 2, stage 2<' in page and 'id="count-seated">2<' in page
    found = organizer_client.get(desk(event, q=players[5].display_name)).content.decode()
    assert players[5].display_name in found and ">Seated<" not in found  # seated in round 1 only
    Round.objects.filter(pk=second.pk).update(kind=Round.Kind.TABLES)
    counts = checkin_desk.desk_counts(event)
    assert (counts.seated_in, counts.seated) == ("round 2", 4)


def test_a_pending_claim_is_confirmed_with_an_editable_reason_and_checked_in(organizer_client, event, students):
    meera = students["meera"]
    page = organizer_client.get(desk(event, q="meera")).content.decode()
    assert 'value="ID checked at the desk"' in page
    response = organizer_client.post(desk(event), {"action": "check_in", "player": meera.pk}, follow=True)
    assert "confirm the claim first" in response.content.decode()
    response = organizer_client.post(desk(event), {"action": "confirm_claim", "player": meera.pk, "reason": "  "},
                                     follow=True)
    assert "Give a reason" in response.content.decode()
    organizer_client.post(desk(event), {"action": "confirm_claim", "player": meera.pk,
                                        "reason": "College ID 4411 seen", "check_in": "1"})
    meera.refresh_from_db()
    assert (meera.claim, meera.status) == (Player.Claim.CONFIRMED, Player.Status.CHECKED_IN)
    assert AuditEntry.objects.get(event=event, action="player.confirm_claim").reason == "College ID 4411 seen"


def test_bulk_check_in_of_ticked_players_skips_who_cannot(organizer_client, event, students):
    ids = [students[k].pk for k in ("asha", "ravi", "meera", "ashok")]
    response = organizer_client.post(desk(event), {"action": "bulk", "players": ids}, follow=True)
    html = response.content.decode()
    assert "2 players checked in." in html
    assert "Meera Iyer: claim of roll number CHE003 not confirmed yet" in html
    assert "Ashok Rao: checked in" in html
    statuses = dict(Player.objects.filter(pk__in=ids).values_list("display_name", "status"))
    assert statuses == {"Asha Sen": "checked_in", "Ravi Das": "checked_in", "Meera Iyer": "registered",
                        "Ashok Rao": "checked_in"}
    assert AuditEntry.objects.filter(event=event, action="player.check_in").count() == 2
    response = organizer_client.post(desk(event), {"action": "bulk"}, follow=True)
    assert "Tick the players" in response.content.decode()


def test_check_in_all_registered_asks_first(organizer_client, event, students):
    page = organizer_client.get(desk(event)).content.decode()
    assert 'id="confirm-all"' not in page
    page = organizer_client.get(desk(event, confirm_all=1)).content.decode()
    assert 'id="confirm-all"' in page and "all <b>" not in page and "<b>all 3</b>" in page
    organizer_client.post(desk(event), {"action": "all"})
    assert set(Player.objects.filter(event=event, status="checked_in").values_list("display_name", flat=True)) == {
        "Asha Sen", "Ravi Das", "Ashok Rao"}
    assert Player.objects.get(pk=students["gone"].pk).status == Player.Status.WITHDRAWN


def test_a_walk_in_is_added_at_the_desk(organizer_client, event, students):
    page = organizer_client.get(desk(event)).content.decode()
    assert 'value="Walk-in at the desk"' in page
    response = organizer_client.post(desk(event), {"action": "walk_in", "display_name": "Nila Roy",
                                                   "roll_number": "", "account": "", "check_in": "on",
                                                   "reason": "Walk-in at the desk"}, follow=True)
    assert "Nila Roy joined as a walk-in and is checked in." in response.content.decode()
    nila = Player.objects.get(event=event, display_name="Nila Roy")
    assert nila.status == Player.Status.CHECKED_IN and nila.user is None
    assert AuditEntry.objects.get(event=event, action="player.walk_in").actor == organizer_client.user
    response = organizer_client.post(desk(event), {"action": "walk_in", "display_name": "asha sen", "reason": "x"})
    assert response.status_code == 200 and "already shows as" in response.content.decode()
    response = organizer_client.post(desk(event), {"action": "walk_in", "display_name": "", "reason": ""})
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert Player.objects.filter(event=event).count() == 6


def test_counts(organizer_client, event, students):
    counts = checkin_desk.desk_counts(event)
    assert (counts.registered, counts.checked_in, counts.not_checked_in, counts.claims_pending, counts.seated) == (
        4, 1, 3, 1, 0)
    page = organizer_client.get(desk(event)).content.decode()
    assert 'id="count-registered">4<' in page and 'id="count-checked-in">1<' in page
    assert 'id="count-absent">3<' in page and 'id="count-claims">1<' in page and 'id="count-seated">0<' in page


def test_bad_input_and_another_events_player_never_answer_500(organizer_client, event, students):
    stranger = make_players(make_event(), 1)[0]
    for data in ({"action": "check_in", "player": stranger.pk}, {"action": "check_in", "player": "abc"},
                 {"action": "check_in"}, {"action": "undo", "player": "99999999"},
                 {"action": "confirm_claim", "player": stranger.pk, "reason": "x"},
                 {"action": "bulk", "players": ["x", str(stranger.pk)]}, {"action": "what"}, {},
                 {"action": "confirm_claim", "player": students["meera"].pk, "reason": "ID\x00seen", "q": "\x00"},
                 {"action": "undo", "player": students["ashok"].pk, "reason": "\x00"},
                 {"action": "check_in", "player": "9" * 30}, {"action": "bulk", "players": ["²", "9" * 30]},
                 {"action": "walk_in", "display_name": "N\x00ila", "roll_number": "\x00", "reason": "\x00"}):
        response = organizer_client.post(desk(event), data, follow=True)
        assert response.status_code == 200, data
    assert Player.objects.get(pk=stranger.pk).status == Player.Status.REGISTERED
    assert "No such player in this event." in organizer_client.post(
        desk(event), {"action": "check_in", "player": stranger.pk}, follow=True).content.decode()
    for params in ({"show": "nonsense"}, {"q": "x" * 500}, {"q": "%00'\""}, {"partial": "yes", "q": "🙂"}):
        assert organizer_client.get(desk(event, **params)).status_code == 200


def test_only_the_events_organizers_and_superusers_use_the_desk(client, event, students):
    url = desk(event)
    client.login(username=make_user().username, password=PASSWORD)
    assert client.get(url).status_code == 302
    client.login(username=make_organizer_of(make_event()).username, password=PASSWORD)
    assert client.get(url).status_code == 404
    assert client.post(url, {"action": "check_in", "player": students["asha"].pk}).status_code == 404
    assert Player.objects.get(pk=students["asha"].pk).status == Player.Status.REGISTERED
    client.login(username=make_user(is_staff=True, is_superuser=True).username, password=PASSWORD)
    assert client.get(url).status_code == 200


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_desk_reads_the_same_queries_at_10_and_1000_players_and_shows_a_page(organizer_client, event):
    bulk_players(event, 10, status=Player.Status.REGISTERED)
    few = _queries(organizer_client, desk(event)), _queries(organizer_client, desk(event, q="student"))
    bulk_players(event, 990, status=Player.Status.REGISTERED)
    many = _queries(organizer_client, desk(event)), _queries(organizer_client, desk(event, q="student"))
    assert few == many
    page = organizer_client.get(desk(event, q="student")).content.decode()
    assert page.count('class="desk-player') == checkin_desk.SEARCH_LIMIT and "More players match" in page
