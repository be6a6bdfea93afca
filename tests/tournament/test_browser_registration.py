"""A real headless Chromium on a phone: an eligible student signs up, verifies their e-mail address with
the mailed link, registers for an event, and once the organizers have seated the round sees their table
and seat on "my event"."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import expect

from tests.tournament.standings_data import make_players, seat_round
from tournament.models import EligibilityEntry, Event, Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_student_signs_up_registers_and_finds_their_seat(live_server, page, monkeypatch):
    from tournament.services import email_verification

    monkeypatch.setattr(email_verification, "RESEND_SECONDS", 0)  # she asks for the link again at once
    event = Event.objects.create(
        name="Chematoodlon Ocho", slug="chematoodlon", rules_preset="ocho-plato",
        status=Event.Status.REGISTRATION, eligibility=Event.Eligibility.LIST,
    )
    EligibilityEntry.objects.create(
        event=event, roll_number="CHE2201", name="Asha Sen", email="asha@ju.example",
        department="Chemical Engineering", programme="UG", year=2,
    )
    others = make_players(event, ["Ravi", "Meera", "Kabir"])
    requests = []
    page.on("request", lambda request: requests.append(request.url))

    # A visitor opens the event and chooses to log in to register, and signs up from the login page.
    page.goto(f"{live_server.url}/events/chematoodlon/")
    page.get_by_role("link", name="Log in to register").click()
    assert "/accounts/login/" in page.url
    page.get_by_role("link", name="Sign up").last.click()
    page.fill("#id_username", "asha")
    page.fill("#id_email", "asha@ju.example")
    page.fill("#id_password1", "a-Long-pass-8421")
    page.fill("#id_password2", "a-Long-pass-8421")
    page.get_by_role("button", name="Sign up").click()

    # Back on the registration form: not filled from the list before the address is verified (anyone
    # could have typed it), so she types her roll number.
    assert page.url.endswith("/events/chematoodlon/register/")
    assert "We mailed a link to asha@ju.example" in page.content()
    assert page.input_value("#id_roll_number") == "" and page.input_value("#id_display_name") == ""
    assert "Asha Sen" not in page.content()
    page.fill("#id_roll_number", "CHE2201")
    page.fill("#id_display_name", "Asha")
    page.get_by_role("button", name="Register").click()

    # Not before the address is verified: the form says so and offers the link again.
    expect(page.locator("body")).to_contain_text(  # read once the next page is there, not mid-navigation
        "Verify your e-mail address first: open the link we mailed to asha@ju.example")
    page.locator("#verify-first").get_by_role("link", name="Send the link again").click()
    assert "asha@ju.example is not verified yet" in page.locator("#email-status").inner_text()
    page.get_by_role("button", name="Send the link again").click()
    expect(page.locator("body")).to_contain_text("We sent a new link to asha@ju.example")
    assert len(mail.outbox) == 2 and mail.outbox[1].to == ["asha@ju.example"]

    # She opens the mailed link on her phone: the address is verified, and she registers.
    link = re.search(r"(http://\S+/accounts/email/verify/\S+/)", mail.outbox[1].body).group(1)
    assert link.startswith(live_server.url)
    page.goto(link)
    assert "asha@ju.example is verified" in page.locator("#verify-result").inner_text()
    page.goto(f"{live_server.url}/events/chematoodlon/register/")
    assert page.input_value("#id_roll_number") == "CHE2201"  # now filled from the list through the address
    assert page.input_value("#id_display_name") == "Asha Sen"
    page.fill("#id_display_name", "Asha")
    page.get_by_role("button", name="Register").click()

    assert page.url.endswith("/events/chematoodlon/me/")
    assert page.locator("#player-status").inner_text() == "Registered"
    assert "You have no table yet" in page.content()
    player = Player.objects.get(user=get_user_model().objects.get(username="asha"))
    assert (player.roll_number, player.display_name) == ("CHE2201", "Asha")

    # The organizers seat the first round: Asha is third at table 1.
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    seat_round(event, [others[0], others[1], player, others[2]], status=Round.Status.PLANNED)

    page.reload()
    assert page.locator(".my-table").inner_text() == "1"
    assert page.locator(".my-seat-number").inner_text() == "3"
    assert "With Ravi, Meera, Kabir" in page.locator(".my-seat").inner_text()
    assert page.get_by_role("link", name="Go to my table").count() == 0  # one button: the next step's
    page.get_by_role("link", name="See my table").click()
    assert page.locator("h1").inner_text().startswith("Table 1")
    assert page.locator(".seat-list li").all_inner_texts() == ["Ravi", "Meera", "Asha", "Kabir"]
    assert all(url.startswith(live_server.url) for url in requests), "no request leaves the site"
