"""The organizer's admin, end to end through the test client (a staff user in the Organizer group)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tournament.organizer_factories import (
    make_event,
    make_players,
    pause_for_paper,
    seat_first_round_in_admin,
)
from tournament.models import AuditEntry, EligibilityEntry, Game, Hand, Player, Round, RoundDraft

pytestmark = pytest.mark.django_db

CSV = (
    "\ufeffroll_number;name;email;department;programme;year\n"
    "001;Ananya Basu;ananya@ju.in;Chemical Engineering;UG;2\n"
    "002;Rohan Das;rohan@ju.in;Chemical Engineering;b.tech;3\n"
    "003;Broken Mail;nope;Chemical Engineering;UG;1\n"
)


def upload(client, event, content: str | bytes, name="list.csv"):
    data = content.encode("utf-8") if isinstance(content, str) else content
    return client.post(reverse("admin:tournament_event_eligibility_upload", args=[event.pk]),
                       {"file": SimpleUploadedFile(name, data, content_type="text/csv")})


def test_event_change_page_links_the_organizer_pages_and_shows_rules(organizer_client, event):
    page = organizer_client.get(reverse("admin:tournament_event_change", args=[event.pk])).content.decode()
    assert reverse("admin:tournament_event_eligibility_upload", args=[event.pk]) in page
    assert reverse("admin:tournament_event_first_round", args=[event.pk]) in page
    assert "Rules in force" in page and "<b>100</b>" in page  # target overridden by the event


def test_event_form_refuses_rules_the_engine_refuses(organizer_client, event):
    url = reverse("admin:tournament_event_change", args=[event.pk])
    data = {"name": event.name, "slug": event.slug, "status": "draft", "rules_preset": "uno-official",
            "rules_overrides": '{"hand_size": 0}', "target_score": "", "min_table_size": 3,
            "max_table_size": 4, "turn_seconds": 30, "missed_turns_before_bot": 3,
            "arrival_grace_seconds": 300, "eligibility": "open",
            "organizers": [organizer_client.user.pk]}
    response = organizer_client.post(url, data)
    assert response.status_code == 200
    assert "hand_size" in response.content.decode()
    data["rules_overrides"] = '{"hand_size": 8}'
    assert organizer_client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert event.rules_overrides == {"hand_size": 8}


def test_upload_preview_lists_bad_rows_and_saves_nothing(organizer_client, event):
    response = upload(organizer_client, event, CSV)
    page = response.content.decode()
    assert response.status_code == 200
    assert '"added-count">2</b> to add' in page and '1</b> bad row' in page
    assert "<td>4</td><td>003</td><td>Broken Mail</td>" in page and "not a valid address" in page
    assert not EligibilityEntry.objects.exists()
    # confirming without choosing "only the good rows" saves nothing
    plan = response.context["preview"]
    confirm = {"token": response.context["token"], "digest": plan.digest, "fingerprint": plan.fingerprint,
               "confirm": "Import"}
    url = reverse("admin:tournament_event_eligibility_upload", args=[event.pk])
    response = organizer_client.post(url, confirm)
    assert "nothing was imported" in response.content.decode()
    assert not EligibilityEntry.objects.exists()
    response = organizer_client.post(url, {**confirm, "only_good_rows": "on"})
    assert response.status_code == 302
    assert sorted(EligibilityEntry.objects.values_list("roll_number", "programme")) == [("001", "UG"), ("002", "UG")]
    assert AuditEntry.objects.get(action="eligibility.import").actor == organizer_client.user


def test_confirm_needs_the_token_of_this_session(organizer_client, event):
    upload(organizer_client, event, CSV)
    url = reverse("admin:tournament_event_eligibility_upload", args=[event.pk])
    response = organizer_client.post(url, {"token": "forged", "confirm": "Import", "only_good_rows": "on"},
                                     follow=True)
    assert "expired" in response.content.decode()
    assert not EligibilityEntry.objects.exists()


def test_upload_of_a_file_that_is_not_utf8(organizer_client, event):
    page = upload(organizer_client, event, "roll_number,name\nÄ,B\n".encode("cp1252")).content.decode()
    assert "not UTF-8" in page and 'name="confirm"' not in page


def test_eligibility_list_search_filter_and_export(organizer_client, event):
    EligibilityEntry.objects.create(event=event, roll_number="11", name="Ananya Basu", email="a@ju.in",
                                    department="Chemical Engineering", programme="UG", year=2)
    EligibilityEntry.objects.create(event=event, roll_number="12", name="Rohan Das", email="r@ju.in",
                                    department="Physics", programme="PG", year=1)
    url = reverse("admin:tournament_eligibilityentry_changelist")
    assert "Rohan" not in organizer_client.get(url, {"q": "ananya"}).content.decode()
    assert "Ananya" not in organizer_client.get(url, {"programme__exact": "PG"}).content.decode()
    ids = list(EligibilityEntry.objects.values_list("pk", flat=True))
    response = organizer_client.post(url, {"action": "export_csv", "_selected_action": ids})
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    assert lines[0] == "roll_number,name,email,department,programme,year" and len(lines) == 3


def test_build_round_preview_swap_two_players_confirm_start_and_record(organizer_client, event):
    make_players(event, 8, status=Player.Status.CHECKED_IN)
    make_players(event, 2)  # registered, not checked in: not seated
    # the admin action leads to the first-round page
    response = organizer_client.post(reverse("admin:tournament_event_changelist"),
                                     {"action": "build_first_round", "_selected_action": [event.pk]})
    url = reverse("admin:tournament_event_first_round", args=[event.pk])
    assert response.status_code == 302 and response["Location"] == url
    organizer_client.post(url, {"seed": "99", "source": "checked_in", "preview": "Preview"})
    preview = organizer_client.get(url)
    tables = preview.context["tables"]
    assert [t["size"] for t in tables] == [4, 4] and preview.context["plan"].seed == 99
    organizer_client.post(url, {"seed": "99", "source": "checked_in", "reshuffle": "1"})
    assert RoundDraft.objects.get(event=event).seed != 99
    organizer_client.post(url, {"seed": "99", "source": "checked_in", "preview": "Preview"})  # back to seed 99
    draft = RoundDraft.objects.get(event=event)
    mover, other = draft.tables[0][0], draft.tables[1][0]
    page = organizer_client.post(url, {"version": draft.version, "first": mover, "second": other, "swap": "Swap"},
                                 follow=True).content.decode()
    assert "swapped seats" in page and "2 players moved by swaps" in page
    draft.refresh_from_db()
    assert [len(t) for t in draft.tables] == [4, 4] and mover in draft.tables[1] and other in draft.tables[0]
    response = organizer_client.post(url, {"version": draft.version, "confirm": "Confirm"})
    round_ = Round.objects.get(event=event)
    assert response.status_code == 302 and round_.seed == 99
    assert Player.objects.get(pk=mover).seats.get().table.number == 2
    assert AuditEntry.objects.get(action="round.create").changes["moved_players"] == sorted([mover, other])
    assert not RoundDraft.objects.filter(event=event).exists()

    overview = reverse("admin:tournament_round_overview", args=[round_.pk])
    assert "Start round 1" in organizer_client.get(overview).content.decode()
    organizer_client.post(overview, {"start": "1"})
    round_.refresh_from_db()
    assert round_.status == "running"

    game = Game.objects.get(table__round=round_, table__number=1)
    seats = list(game.table.seats.order_by("number"))
    record_url = reverse("admin:tournament_game_record_hand", args=[game.pk])
    form = {"number": 1, "winner": seats[0].pk, "reason": "Played on paper during a power cut",
            "pause_live": "on"}  # the table's live game opened with the round: the form pauses it first
    form.update({f"points_{s.pk}": (0 if i == 0 else 40) for i, s in enumerate(seats)})
    form.update({f"did_not_play_{s.pk}": "played" for s in seats})  # on paper: the organizer says who played
    response = organizer_client.post(record_url, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    hand = Hand.objects.get(game=game)
    assert hand.source == "manual" and hand.winner_id == seats[0].pk
    page = organizer_client.get(overview).content.decode()
    assert "<td>120</td>" in page  # the winner's cumulative score

    # correcting needs a reason and shows the form's error
    form.update({"reason": "", f"points_{seats[1].pk}": 10})
    assert "This field is required" in organizer_client.post(record_url, form).content.decode()

    response = organizer_client.get(reverse("admin:tournament_event_standings_csv", args=[event.pk]))
    lines = response.content.decode().splitlines()
    assert lines[0] == "rank,place,player,points_won,games_won,hands_won,points_left,status"
    # 120 ≥ the target of 100: the hand finished the game, so the winner also has a game won
    assert lines[1].startswith(f"1,1,{seats[0].player.display_name},120,1,1,0,")


def test_finish_game_from_the_round_page_needs_a_reason(organizer_client, event):
    make_players(event, 3)
    seat_first_round_in_admin(organizer_client, event)
    round_ = Round.objects.get(event=event)
    overview = reverse("admin:tournament_round_overview", args=[round_.pk])
    organizer_client.post(overview, {"start": "1"})
    game = Game.objects.get(table__round=round_)
    page = organizer_client.post(overview, {"game": game.pk, "game_action": "finish"}, follow=True)
    assert "Say why" in page.content.decode()
    page = organizer_client.post(overview, {"game": game.pk, "game_action": "pause"}, follow=True)
    assert "Say why table 1 is paused" in page.content.decode()  # a pause needs its reason, as on the live view
    game.refresh_from_db()
    assert game.status == "running"
    page = organizer_client.post(overview, {"game": game.pk, "game_action": "pause", "reason": "Fire drill"},
                                 follow=True)
    assert "Table 1 paused." in page.content.decode()
    game.refresh_from_db()
    assert game.status == "paused"
    organizer_client.post(overview, {"game": game.pk, "game_action": "finish", "reason": "Time is up"})
    game.refresh_from_db()
    assert game.status == "finished"


def test_seating_error_is_shown_to_the_organizer(organizer_client, event):
    make_players(event, 2)
    url = reverse("admin:tournament_event_first_round", args=[event.pk])
    page = organizer_client.post(url, {"seed": "1", "source": "registered", "preview": "Preview"},
                                 follow=True).content.decode()
    assert "2 players cannot be seated at tables of 3 to 4" in page
    assert not RoundDraft.objects.exists()
    page = organizer_client.post(url, {"seed": "1", "source": "registered", "fill_with_bots": "on",
                                       "preview": "Preview"}, follow=True).content.decode()
    assert "<i>Bot</i>" in page


def test_player_actions_withdraw_with_reason(organizer_client, event):
    (player,) = make_players(event, 1)
    url = reverse("admin:tournament_player_changelist")
    page = organizer_client.post(url, {"action": "withdraw", "_selected_action": [player.pk]})
    assert "Kept in the audit log" in page.content.decode()
    organizer_client.post(url, {"action": "withdraw", "_selected_action": [player.pk], "apply": "1",
                                "reason": "Has an exam"})
    player.refresh_from_db()
    assert player.status == "withdrawn"
    assert AuditEntry.objects.get(action="player.withdraw").reason == "Has an exam"
    organizer_client.post(url, {"action": "check_in", "_selected_action": [player.pk]})
    player.refresh_from_db()
    assert player.status == "withdrawn"


def test_organizer_creating_an_event_runs_it(organizer_client):
    data = {"name": "Second event", "slug": "second-event", "status": "draft", "rules_preset": "ocho-plato",
            "rules_overrides": "{}", "target_score": "", "min_table_size": 2, "max_table_size": 4,
            "turn_seconds": 30, "missed_turns_before_bot": 3,
            "arrival_grace_seconds": 300, "eligibility": "list"}
    response = organizer_client.post(reverse("admin:tournament_event_add"), data)
    assert response.status_code == 302
    from tournament.models import Event

    assert organizer_client.user in Event.objects.get(slug="second-event").organizers.all()


def _round_page_queries(client, event, players):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament.services import results, rounds

    make_players(event, players)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), None)
    rounds.start_round(round_, None)
    for game in Game.objects.filter(table__round=round_):
        seats = list(game.table.seats.all())
        pause_for_paper(game)
        results.record_hand(game, 1, seats[0].pk, {s.pk: (0 if s == seats[0] else 7) for s in seats}, None, "x")
    url = reverse("admin:tournament_round_overview", args=[round_.pk])
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_round_page_queries_do_not_grow_with_the_round(organizer_client, event):
    small = _round_page_queries(organizer_client, event, 8)
    big_event = make_event(min_table_size=3, max_table_size=4, target_score=100)
    big_event.organizers.add(organizer_client.user)
    big = _round_page_queries(organizer_client, big_event, 60)
    assert big == small <= 15


def test_foreign_key_choices_list_only_my_events(organizer_client, event):
    other = make_event(name="Not mine at all")
    page = organizer_client.get(reverse("admin:tournament_eligibilityentry_add")).content.decode()
    assert event.name in page and other.name not in page
