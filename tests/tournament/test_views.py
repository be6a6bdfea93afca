"""Student and viewer pages through Django's test client: what each shows, what each refuses."""

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from tests.tournament.standings_data import make_event, make_players, record_games, seat_round
from tournament.models import EligibilityEntry, Event, Player, Round
from tournament.services.email_verification import mark_verified

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-1"


@pytest.fixture
def played():
    """A running event: Asha, Ravi, Meera, Kabir at table 1; two hands, Ravi won the game."""
    event = make_event(slug="chem", name="Chematoodlon")
    players = make_players(event, ["Asha", "Ravi", "Meera", "Kabir"])
    round_, tables = seat_round(event, players)
    record_games(tables, [(0, [0, 10, 15, 5]), (1, [20, 0, 10, 10])], winner=1)
    return event, players, tables[0]


@pytest.fixture
def registration_event():
    event = make_event(slug="open-reg", name="Freshers Ocho", status=Event.Status.REGISTRATION,
                       eligibility=Event.Eligibility.LIST)
    EligibilityEntry.objects.create(event=event, roll_number="CHE2201", name="Asha Sen", email="asha@ju.example",
                                    department="Chemical Engineering", programme="UG", year=2)
    return event


def login(client, username="asha", email="asha@ju.example", verified=True):
    user = get_user_model().objects.create_user(username, email=email, password=PASSWORD)
    if verified:
        mark_verified(user)
    client.force_login(user)
    return user


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


# --- public pages ----------------------------------------------------------------------------------


def test_event_list_shows_public_events_with_status_and_hides_drafts(client, played):
    make_event(slug="secret", name="Secret draft", status=Event.Status.DRAFT)
    html = text(client.get(reverse("event_list")))
    assert "Chematoodlon" in html and "Running" in html and "4 players" in html
    assert "Secret draft" not in html
    assert client.get(reverse("event_detail", args=["secret"])).status_code == 404
    assert client.get(reverse("leaderboard", args=["secret"])).status_code == 404


def test_event_page_shows_schedule_rounds_and_seated_tables(client, played):
    event, players, seated = played
    html = text(client.get(reverse("event_detail", args=[event.slug])))
    assert "Round 1" in html and "Running" in html
    assert reverse("table_detail", args=[event.slug, seated.table.pk]) in html
    for player in players:
        assert reverse("player_detail", args=[event.slug, player.pk]) in html
    assert 'id="registration-state">closed: the event is under way<' in html and "Rules" in html
    assert "when the organizers open it" not in html


def test_event_page_says_registration_is_closed_once_the_event_is_over_and_open_while_it_is(
        client, played, registration_event):
    event, _players, _seated = played
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    html = text(client.get(reverse("event_detail", args=[event.slug])))
    assert 'id="registration-state">closed: the event is over<' in html
    assert "when the organizers open it" not in html and "Registration opens" not in html
    html = text(client.get(reverse("event_detail", args=[registration_event.slug])))
    assert 'id="registration-state">open now<' in html and "when the organizers open it" not in html


def test_table_page_shows_each_hand_with_dealer_winner_points_and_totals(client, played):
    event, _players, seated = played
    response = client.get(reverse("table_detail", args=[event.slug, seated.table.pk]))
    html = re.sub(r">\s+<", "><", text(response))
    # Hand 1: dealer seat 0 (Asha), Asha wins 30; hand 2: dealer Ravi, Ravi wins 40 (running total 40).
    # Each cell's label (shown on a phone, where the header row is not) set aside: the cells themselves.
    html = re.sub(r'<span class="sheet-label" aria-hidden="true">[^<]*</span>', "", html)
    assert re.search(r"<th scope=\"row\"[^>]*>1</th><td[^>]*>Asha</td><td[^>]*>Asha</td><td[^>]*><span class=\"won\">\+30</span><strong class=\"total\">30</strong>", html)
    assert re.search(r"<th scope=\"row\"[^>]*>2</th><td[^>]*>Ravi</td><td[^>]*>Ravi</td><td[^>]*><span class=\"won\">\+0</span><strong class=\"total\">30</strong></td><td[^>]*><span class=\"won\">\+40</span><strong class=\"total\">40</strong>", html)
    assert "Winner: <strong>Ravi</strong>" in html and "Finished" in html
    assert html.count('<g class="series"') == 4, "the chart has one series per seat"


def test_table_of_another_event_slug_is_not_found(client, played):
    event, _players, seated = played
    make_event(slug="other")
    assert client.get(reverse("table_detail", args=["other", seated.table.pk])).status_code == 404


def test_leaderboard_ranks_players_and_documents_the_tiebreak(client, played):
    event, _players, _seated = played
    html = text(client.get(reverse("leaderboard", args=[event.slug])))
    names = re.findall(r'<tr data-player-id="\d+" id="player-\d+"> <td>(\d+)</td> <td><a href="[^"]+">(\w+)</a>', html)
    assert names == [("1", "Ravi"), ("2", "Asha"), ("3", "Kabir"), ("4", "Meera")]
    assert "How ties are broken" in html and "Fewest points left in hand" in html
    assert "share a place" in html
    assert 'data-live-url="/ws/events/chem/?page=1"' in html and "js/live_leaderboard.js" in html


def test_round_leaderboard_and_unknown_round(client, played):
    event, _players, _seated = played
    html = text(client.get(reverse("round_leaderboard", args=[event.slug, 1])))
    assert "leaderboard, round 1" in html and "Ravi" in html
    assert "data-live-url" not in html, "only the whole-event board is live"
    assert client.get(reverse("round_leaderboard", args=[event.slug, 9])).status_code == 404


def test_leaderboards_page_links_each_started_events_boards(client, played):
    event, _players, _seated = played
    html = text(client.get(reverse("leaderboards")))
    assert reverse("leaderboard", args=[event.slug]) in html
    assert reverse("round_leaderboard", args=[event.slug, 1]) in html


def test_player_page_is_public_with_a_chart_and_no_private_data(client, played):
    event, players, _seated = played
    asha = players[0]
    html = text(client.get(reverse("player_detail", args=[event.slug, asha.pk])))
    assert "<svg" in html and html.count('<g class="series"') == 4
    assert "Points won</dt><dd class=\"col-6 col-sm-9\">30" in html
    assert asha.roll_number not in html and "asha@example.com" not in html


# --- accounts ----------------------------------------------------------------------------------------


def test_signup_creates_the_account_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {"username": "ravi", "email": "ravi@ju.example", "password1": "a-Long-pass-8421", "password2": "a-Long-pass-8421"},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="ravi")
    assert user.email == "ravi@ju.example"
    assert int(client.session["_auth_user_id"]) == user.pk


def test_signup_refuses_a_verified_email_and_mismatched_passwords(client):
    mark_verified(get_user_model().objects.create_user("ravi", email="ravi@ju.example"))
    html = text(client.post(
        reverse("signup"),
        {"username": "ravi2", "email": "RAVI@ju.example", "password1": "a-Long-pass-8421", "password2": "other-pass-8421"},
    ))
    assert "An account with this e-mail already exists" in html
    assert "password fields didn" in html
    assert not get_user_model().objects.filter(username="ravi2").exists()


def test_password_reset_sends_a_working_link_through_the_mail_backend(client):
    get_user_model().objects.create_user("asha", email="asha@ju.example", password=PASSWORD)
    response = client.post(reverse("password_reset"), {"email": "asha@ju.example"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(form_page.redirect_chain[-1][0], {"new_password1": "n3w-Pass-phrase", "new_password2": "n3w-Pass-phrase"})
    assert done.status_code == 302
    assert client.login(username="asha", password="n3w-Pass-phrase")


def test_password_reset_mails_an_account_once_a_minute(client, monkeypatch):
    from tournament.services import mail_pacing

    get_user_model().objects.create_user("asha", email="asha@ju.example", password=PASSWORD)
    get_user_model().objects.create_user("ravi", email="ravi@ju.example", password=PASSWORD)
    answers = [client.post(reverse("password_reset"), {"email": "asha@ju.example"}) for _ in range(10)]
    assert {(a.status_code, a.url) for a in answers} == {(302, reverse("password_reset_done"))}  # the same answer
    assert [m.to for m in mail.outbox] == [["asha@ju.example"]]
    client.post(reverse("password_reset"), {"email": "ravi@ju.example"})  # another account has its own minute
    assert [m.to for m in mail.outbox] == [["asha@ju.example"], ["ravi@ju.example"]]
    monkeypatch.setattr(mail_pacing, "INTERVAL_SECONDS", 0)  # the minute has passed
    client.post(reverse("password_reset"), {"email": "asha@ju.example"})
    assert len(mail.outbox) == 3


# --- registering through the form ------------------------------------------------------------------------


def test_register_requires_login(client, registration_event):
    response = client.get(reverse("register", args=[registration_event.slug]))
    assert response.status_code == 302 and reverse("login") in response.url


def test_register_form_is_prefilled_from_the_list(client, registration_event):
    login(client)
    html = text(client.get(reverse("register", args=[registration_event.slug])))
    assert 'value="CHE2201"' in html and 'value="Asha Sen"' in html


def test_an_unverified_address_does_not_fill_the_form_from_the_list(client, registration_event):
    # anyone can sign up with a listed student's address: the list's data waits for the verified address
    login(client, username="someone", verified=False)
    html = text(client.get(reverse("register", args=[registration_event.slug])))
    assert "CHE2201" not in html and "Asha Sen" not in html


def test_register_refusal_is_shown_on_the_form(client, registration_event):
    login(client)
    html = text(client.post(reverse("register", args=[registration_event.slug]), {"roll_number": "XYZ1", "display_name": "A"}))
    assert "Roll number XYZ1 is not on the eligibility list of Freshers Ocho." in html
    assert not Player.objects.exists()


def test_register_then_my_event(client, registration_event):
    login(client)
    response = client.post(reverse("register", args=[registration_event.slug]), {"roll_number": "che2201", "display_name": ""})
    assert response.status_code == 302 and response.url == reverse("my_event", args=[registration_event.slug])
    html = text(client.get(response.url))
    assert "Asha Sen" in html and "CHE2201" in html and "Registered" in html
    assert "You have no table yet" in html


def test_register_page_says_why_registration_is_closed(client, played):
    event, _players, _seated = played
    login(client, "late", "late@ju.example")
    html = text(client.get(reverse("register", args=[event.slug])))
    assert "Registration for Chematoodlon is closed: the event is running." in html
    assert "<form" not in html.split("<main")[1]


# --- my event, check-in, withdraw ------------------------------------------------------------------------


def test_my_event_shows_table_seat_game_and_a_link_to_the_table(client, played):
    event, players, seated = played
    user = players[1].user
    client.force_login(user)
    html = text(client.get(reverse("my_event", args=[event.slug])))
    assert 'Table <strong class="my-table">1</strong>' in html
    assert 'seat <strong class="my-seat-number">2</strong>' in html
    assert "your points <strong>40</strong>" in html and "won by Ravi" in html
    assert reverse("table_detail", args=[event.slug, seated.table.pk]) in html
    assert "Withdraw from this event" not in html, "the round has started"


def test_a_student_never_sees_another_players_private_data(client, played):
    event, players, _seated = played
    login(client, "nosy", "nosy@ju.example")
    html = text(client.get(reverse("my_event", args=[event.slug])))
    assert "You are not registered for this event." in html
    for player in players:
        assert player.roll_number not in html
    # The public player page shows no roll number either.
    assert players[0].roll_number not in text(client.get(reverse("player_detail", args=[event.slug, players[0].pk])))


def test_my_event_requires_login(client, played):
    event, _players, _seated = played
    assert client.get(reverse("my_event", args=[event.slug])).status_code == 302


def test_check_in_through_the_page(client, registration_event):
    user = login(client)
    player = Player.objects.create(event=registration_event, user=user, roll_number="CHE2201", display_name="Asha")
    url = reverse("check_in", args=[registration_event.slug])
    assert client.get(url).status_code == 405
    html = text(client.post(url, follow=True))
    assert "Check-in is not open right now" in html
    Event.objects.filter(pk=registration_event.pk).update(checkin_open=True)
    assert "Check in for the next round" in text(client.get(reverse("my_event", args=[registration_event.slug])))
    html = text(client.post(url, follow=True))
    assert "You are checked in." in html
    player.refresh_from_db()
    assert player.status == Player.Status.CHECKED_IN


def test_withdraw_through_the_page(client, registration_event):
    user = login(client)
    player = Player.objects.create(event=registration_event, user=user, roll_number="CHE2201", display_name="Asha")
    url = reverse("withdraw", args=[registration_event.slug])
    assert "Withdraw from Freshers Ocho?" in text(client.get(url))
    html = text(client.post(url, {"reason": "exams"}, follow=True))
    assert "You have withdrawn from Freshers Ocho." in html
    player.refresh_from_db()
    assert player.status == Player.Status.WITHDRAWN


def test_withdraw_refused_after_the_round_started(client, registration_event):
    user = login(client)
    player = Player.objects.create(event=registration_event, user=user, roll_number="CHE2201", display_name="Asha")
    seat_round(registration_event, [player], status=Round.Status.RUNNING)
    html = text(client.post(reverse("withdraw", args=[registration_event.slug]), follow=True))
    assert "Round 1 has started with you seated, so you can no longer withdraw." in html
    player.refresh_from_db()
    assert player.status == Player.Status.REGISTERED


def test_the_admin_is_not_reachable_by_students(client, registration_event):
    login(client)
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response.url
    assert client.get("/admin/tournament/player/").status_code == 302
    assert "Admin</a>" not in text(client.get(reverse("home")))


def test_every_public_page_of_the_demo_renders(client):
    from django.core.management import call_command

    from tournament.demo_data import EVENT_SLUG
    from tournament.models import Table

    call_command("demo", stdout=io.StringIO())
    event = Event.objects.get(slug=EVENT_SLUG)  # the championship: its rounds are seated and played
    urls = [reverse("event_list"), reverse("leaderboards"), reverse("event_detail", args=[event.slug]),
            reverse("leaderboard", args=[event.slug])]
    urls += [reverse("table_detail", args=[event.slug, t.pk]) for t in Table.objects.filter(round__event=event)]
    urls += [reverse("player_detail", args=[event.slug, p.pk]) for p in event.players.all()[:5]]
    for url in urls:
        assert client.get(url).status_code == 200, url
    student = Player.objects.filter(event=event, seats__isnull=False).first().user
    client.force_login(student)
    assert "Go to my table" in client.get(reverse("my_event", args=[event.slug])).content.decode()
