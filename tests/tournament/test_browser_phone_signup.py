"""Signing up from a phone (390x844): Sign up is on the home page without opening the menu, and from the
event's link a student is registered in at most six taps plus the mail (a tap on each button and link, and
one to focus each field the page did not focus itself), landing back on the event's
register page when they open the link in the mail."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from tournament.models import EligibilityEntry, Event, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_from_the_events_link_to_registered_in_six_taps_plus_the_mail(live_server, page):
    event = Event.objects.create(name="Chematoodlon Ocho", slug="chematoodlon", rules_preset="ocho-plato",
                                 status=Event.Status.REGISTRATION, eligibility=Event.Eligibility.LIST)
    EligibilityEntry.objects.create(event=event, roll_number="CHE2207", name="Neha Wadhwa",
                                    email="neha@ju.example", department="Chemical Engineering", programme="UG", year=1)
    taps = []

    def tap(locator):
        taps.append(locator)
        locator.click()

    def type_into(selector: str, text: str) -> None:
        """Type as on a phone: a tap to focus the field first, unless the page put the focus there."""
        field = page.locator(selector)
        if not field.evaluate("el => el === document.activeElement"):
            tap(field)
        page.keyboard.type(text)

    page.goto(live_server.url + "/")
    signup = page.locator("#home-account").get_by_role("link", name="Sign up")
    assert signup.is_visible()  # on the page itself, not only inside the collapsed menu
    assert page.locator(".navbar-toggler").is_visible()  # (the menu is collapsed on a phone)

    page.goto(f"{live_server.url}/events/chematoodlon/")  # the link the organizers shared
    tap(page.get_by_role("link", name="Sign up and register"))
    page.wait_for_url(re.compile(r"/accounts/signup/"))
    expect(page.locator("#id_username")).to_be_focused()  # autofocused: no tap
    type_into("#id_username", "neha")
    type_into("#id_email", "neha@ju.example")
    type_into("#id_password1", "a-Long-pass-8421")
    type_into("#id_password2", "a-Long-pass-8421")
    tap(page.get_by_role("button", name="Sign up"))
    page.wait_for_url(re.compile(r"/events/chematoodlon/register/$"))

    link = re.search(r"(http://\S+/accounts/email/verify/\S+)", mail.outbox[-1].body).group(1)
    assert "next=%2Fevents%2Fchematoodlon%2Fregister%2F" in link
    page.goto(link)  # the link in the mail: back where she started, verified
    assert page.url.endswith("/events/chematoodlon/register/")
    assert "neha@ju.example is verified" in page.content()
    assert page.input_value("#id_roll_number") == "CHE2207"  # the list knows a verified address
    tap(page.get_by_role("button", name="Register"))
    page.wait_for_url(re.compile(r"/events/chematoodlon/me/$"))
    assert Player.objects.get(event=event, user__username="neha").display_name == "Neha Wadhwa"
    assert len(taps) <= 6, [str(t) for t in taps]  # link, three fields, Sign up, Register


def test_a_verification_link_never_leads_off_the_site(client, django_user_model):
    from tournament.services import email_verification

    user = django_user_model.objects.create_user("kabir", email="kabir@ju.example", password="a-Long-pass-8421")
    for target in ("https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"):
        path = email_verification.verification_path(user, target)
        assert "next=" not in path
        response = client.get(path.split("?")[0] + "?next=" + target)
        assert response.status_code == 200 and b"kabir@ju.example is verified" in response.content
