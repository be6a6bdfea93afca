"""Who reaches what in the admin: an organizer only their events' objects; students and visitors nothing."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from tests.tournament.organizer_factories import (
    PASSWORD,
    make_event,
    make_organizer_of,
    make_players,
    make_user,
    pause_for_paper,
)
from tournament.models import AuditEntry, EligibilityEntry, Game, Hand, Player, Round
from tournament.services import game_status, results, rounds
from tournament.services.organizers import ORGANIZER_GROUP, ORGANIZER_PERMISSIONS

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_event():
    """An event run by someone else, with an eligibility entry, players, a running round and a hand."""
    event = make_event(name="Someone else's cup", min_table_size=2, max_table_size=2, target_score=500)
    owner = make_organizer_of(event)
    EligibilityEntry.objects.create(event=event, roll_number="X1", name="Hidden Person", email="h@x.in",
                                    department="Physics", programme="UG", year=1)
    make_players(event, 2)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), owner)
    rounds.start_round(round_, owner)
    game = Game.objects.get(table__round=round_)
    a, b = game.table.seats.all()
    pause_for_paper(game, owner)
    results.record_hand(game, 1, a.pk, {a.pk: 0, b.pk: 5}, owner, "paper")
    game_status.change_game_status(game, "resume", owner)
    return event


@pytest.fixture
def mine_client(client):
    mine = make_event(name="My own event")
    user = make_organizer_of(mine)
    client.login(username=user.username, password=PASSWORD)
    client.event = mine
    return client


def object_urls(event):
    round_ = Round.objects.get(event=event)
    game = Game.objects.get(table__round=round_)
    return {
        "event change": reverse("admin:tournament_event_change", args=[event.pk]),
        "eligibility change": reverse("admin:tournament_eligibilityentry_change",
                                      args=[EligibilityEntry.objects.get(event=event).pk]),
        "player change": reverse("admin:tournament_player_change", args=[Player.objects.filter(event=event)[0].pk]),
        "round change": reverse("admin:tournament_round_change", args=[round_.pk]),
        "game change": reverse("admin:tournament_game_change", args=[game.pk]),
        "hand change": reverse("admin:tournament_hand_change", args=[Hand.objects.get(game=game).pk]),
        "audit change": reverse("admin:tournament_auditentry_change",
                                args=[AuditEntry.objects.filter(event=event)[0].pk]),
        "upload": reverse("admin:tournament_event_eligibility_upload", args=[event.pk]),
        "first round": reverse("admin:tournament_event_first_round", args=[event.pk]),
        "standings": reverse("admin:tournament_event_standings_csv", args=[event.pk]),
        "round overview": reverse("admin:tournament_round_overview", args=[round_.pk]),
        "record hand": reverse("admin:tournament_game_record_hand", args=[game.pk]),
    }


def test_the_group_holds_only_what_organizers_need():
    group = Group.objects.get(name=ORGANIZER_GROUP)  # created by migration 0002
    codenames = set(group.permissions.filter(content_type__app_label="tournament").values_list("codename", flat=True))
    assert codenames == {f"{a}_{m}" for m, actions in ORGANIZER_PERMISSIONS.items() for a in actions}
    login_records = set(group.permissions.exclude(content_type__app_label="tournament").values_list(
        "content_type__app_label", "codename"))
    assert login_records == {("axes", "delete_accessattempt"), ("axes", "view_accessattempt")}
    assert "change_hand" not in codenames and "delete_event" not in codenames


def test_organizer_cannot_reach_another_events_objects(mine_client, other_event):
    for name, url in object_urls(other_event).items():
        response = mine_client.get(url)
        # a change page of an object outside the scope redirects to the admin index with a message
        assert response.status_code in (302, 404), name
        if response.status_code == 302:
            assert response["Location"] == reverse("admin:index"), name
        assert b"Hidden Person" not in response.content, name


def test_organizer_lists_show_only_their_events(mine_client, other_event):
    for model in ("event", "eligibilityentry", "player", "round", "table", "game", "hand", "auditentry"):
        page = mine_client.get(reverse(f"admin:tournament_{model}_changelist")).content.decode()
        assert "Someone else" not in page and "Hidden Person" not in page, model
    # list filters too: the event filter lists only my events
    page = mine_client.get(reverse("admin:tournament_eligibilityentry_changelist")).content.decode()
    assert "Someone else" not in page


def test_custom_views_refuse_posts_into_another_event(mine_client, other_event):
    urls = object_urls(other_event)
    game = Game.objects.get(table__round__event=other_event)
    a, b = game.table.seats.all()
    assert mine_client.post(urls["round overview"], {"game": game.pk, "game_action": "pause"}).status_code == 404
    form = {"number": 2, "winner": a.pk, f"points_{a.pk}": 0, f"points_{b.pk}": 9, "reason": "x"}
    assert mine_client.post(urls["record hand"], form).status_code == 404
    assert mine_client.post(urls["first round"], {"seed": 1, "source": "registered", "confirm": "1"}).status_code == 404
    game.refresh_from_db()
    assert game.status == "running" and Hand.objects.filter(game=game).count() == 1


def test_game_of_another_event_through_my_round_page_is_refused(mine_client, other_event):
    mine = mine_client.event
    make_players(mine, 3)
    round_ = rounds.create_first_round(mine, rounds.plan_first_round(mine, seed=1), None)
    rounds.start_round(round_, None)
    foreign_game = Game.objects.get(table__round__event=other_event)
    url = reverse("admin:tournament_round_overview", args=[round_.pk])
    assert mine_client.post(url, {"game": foreign_game.pk, "game_action": "pause"}).status_code == 404
    foreign_game.refresh_from_db()
    assert foreign_game.status == "running"


def test_actions_on_another_events_rows_do_nothing(mine_client, other_event):
    player = Player.objects.filter(event=other_event)[0]
    mine_client.post(reverse("admin:tournament_player_changelist"),
                     {"action": "withdraw", "_selected_action": [player.pk], "apply": "1", "reason": "x"})
    mine_client.post(reverse("admin:tournament_event_changelist"),
                     {"action": "export_standings", "_selected_action": [other_event.pk]})
    player.refresh_from_db()
    assert player.status == "registered"
    response = mine_client.post(reverse("admin:tournament_eligibilityentry_changelist"), {
        "action": "export_csv", "_selected_action": list(EligibilityEntry.objects.values_list("pk", flat=True))})
    assert b"Hidden Person" not in response.content


def test_staff_without_the_group_gets_403_on_custom_views(client, other_event):
    user = make_user(is_staff=True)
    other_event.organizers.add(user)  # even listed as an organizer: no model permissions, no access
    client.login(username=user.username, password=PASSWORD)
    assert client.get(reverse("admin:tournament_event_first_round", args=[other_event.pk])).status_code == 403


def test_superuser_sees_every_event(client, other_event):
    boss = make_user(is_staff=True, is_superuser=True)
    client.login(username=boss.username, password=PASSWORD)
    for name, url in object_urls(other_event).items():
        assert client.get(url).status_code == 200, name


@pytest.mark.parametrize("who", ["student", "anonymous"])
def test_students_and_visitors_do_not_reach_the_admin(client, other_event, who):
    if who == "student":
        client.login(username=Player.objects.filter(event=other_event)[0].user.username, password=PASSWORD)
    for name, url in object_urls(other_event).items():
        response = client.get(url)
        assert response.status_code == 302 and reverse("admin:login") in response["Location"], name
    response = client.post(object_urls(other_event)["record hand"], {"number": 2})
    assert response.status_code == 302 and Hand.objects.count() == 1
