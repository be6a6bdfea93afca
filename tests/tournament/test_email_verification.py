"""Sign-up verifies the e-mail address: a link mailed through the configured backend, a page to send it
again, and registration against a list entry only with the entry's address verified."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from tournament.models import EligibilityEntry, Event, Player, VerifiedEmail
from tournament.services import email_verification
from tournament.services.email_verification import EmailVerificationError, mark_verified, verified_email

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-pass-8421"


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def sign_up(client, username="asha", email="asha@ju.example", **extra):
    return client.post(reverse("signup"), {"username": username, "email": email, "password1": PASSWORD,
                                           "password2": PASSWORD, **extra})


def mailed_link(message) -> str:
    return re.search(r"http://testserver(/accounts/email/verify/\S+/)", message.body).group(1)


@pytest.fixture
def listed_event():
    event = Event.objects.create(name="Freshers Ocho", slug="freshers", status=Event.Status.REGISTRATION,
                                 eligibility=Event.Eligibility.LIST)
    for roll, name, email in [("CHE01", "Asha Sen", "asha@ju.example"), ("CHE02", "Ravi Das", "ravi@ju.example"),
                              ("CHE03", "Meera Iyer", "")]:
        EligibilityEntry.objects.create(event=event, roll_number=roll, name=name, email=email,
                                        department="ChE", programme="UG", year=1)
    return event


def test_sign_up_mails_a_link_that_verifies_the_address(client):
    response = sign_up(client, next="/events/")
    assert response.status_code == 302 and response.url == "/events/"
    user = get_user_model().objects.get(username="asha")
    assert verified_email(user) == ""
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["asha@ju.example"]
    assert "We mailed a link to asha@ju.example" in text(client.get("/events/"))
    link = mailed_link(mail.outbox[0])

    page = client.get(link)
    assert page.status_code == 200 and "Thank you: asha@ju.example is verified." in text(page)
    assert verified_email(user) == "asha@ju.example"
    # the link works once
    again = client.get(link)
    assert again.status_code == 400 and "This link is not valid" in text(again)


@pytest.mark.parametrize("link", ["/accounts/email/verify/xx/yy/", "/accounts/email/verify/MQ/1-abc/",
                                  "/accounts/email/verify/%F0%9F%98%80/z/"])
def test_a_made_up_link_is_refused_without_an_error_page(client, link):
    get_user_model().objects.create_user("asha", email="asha@ju.example")
    response = client.get(link)
    assert response.status_code == 400 and "This link is not valid" in text(response)
    assert not VerifiedEmail.objects.exists()


def test_a_link_stops_working_once_the_accounts_address_changes(client):
    sign_up(client)
    user = get_user_model().objects.get(username="asha")
    link = mailed_link(mail.outbox[0])
    user.email = "other@ju.example"
    user.save()
    assert client.get(link).status_code == 400
    assert verified_email(user) == ""


def test_the_email_page_sends_the_link_again_and_says_when_verified(client, monkeypatch):
    monkeypatch.setattr(email_verification, "RESEND_SECONDS", 0)
    sign_up(client)
    page = text(client.get(reverse("account_email")))
    assert "asha@ju.example</strong> is not verified yet" in page and "Send the link again" in page
    html = text(client.post(reverse("account_email"), follow=True))
    assert "We sent a new link to asha@ju.example" in html
    assert len(mail.outbox) == 2
    client.get(mailed_link(mail.outbox[1]))
    assert "asha@ju.example</strong> is verified" in text(client.get(reverse("account_email")))
    html = text(client.post(reverse("account_email"), follow=True))
    assert "asha@ju.example is already verified." in html and len(mail.outbox) == 2


def test_the_link_is_sent_again_at_most_once_a_minute(client):
    sign_up(client)
    html = text(client.post(reverse("account_email"), follow=True))
    assert "A link was sent less than a minute ago" in html and len(mail.outbox) == 1


def test_the_email_page_needs_login(client):
    assert client.get(reverse("account_email")).status_code == 302


def test_a_mail_server_that_fails_is_said_not_a_server_error(client, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 2  # nothing listens
    response = sign_up(client)
    assert response.status_code == 302
    assert "could not be sent just now" in text(client.get(response.url))
    assert get_user_model().objects.filter(username="asha").exists()


def test_an_unverified_holder_of_an_address_does_not_block_its_owner(client, monkeypatch):
    monkeypatch.setattr(email_verification, "RESEND_SECONDS", 0)
    get_user_model().objects.create_user("squatter", email="asha@ju.example")
    assert sign_up(client).status_code == 302
    client.get(mailed_link(mail.outbox[0]))
    asha = get_user_model().objects.get(username="asha")
    assert verified_email(asha) == "asha@ju.example"
    squatter = get_user_model().objects.get(username="squatter")
    with pytest.raises(EmailVerificationError, match="already verified by another account"):
        email_verification.send_link(squatter, "http://testserver")


def test_sign_up_verify_then_register_against_the_list(client, listed_event):
    sign_up(client)
    url = reverse("register", args=[listed_event.slug])
    html = text(client.post(url, {"roll_number": "CHE01", "display_name": ""}))
    assert "Verify your e-mail address first: open the link we mailed to asha@ju.example" in html
    assert f'href="{reverse("account_email")}"' in html and "Send the link again" in html
    assert not Player.objects.exists()
    client.get(mailed_link(mail.outbox[0]))
    response = client.post(url, {"roll_number": "CHE01", "display_name": ""})
    assert response.status_code == 302
    assert Player.objects.get().display_name == "Asha Sen"


def test_a_classmates_roll_number_is_refused_on_the_form(client, listed_event):
    user = get_user_model().objects.create_user("asha", email="asha@ju.example")
    mark_verified(user)
    client.force_login(user)
    html = text(client.post(reverse("register", args=[listed_event.slug]), {"roll_number": "che02",
                                                                            "display_name": "Ravi"}))
    assert "Roll number CHE02 is on the list with another e-mail address (ra…@ju.example), not asha@ju.example." in html
    assert not Player.objects.exists()


def test_a_claim_says_an_organizer_confirms_it_at_check_in(client, listed_event):
    user = get_user_model().objects.create_user("meera")  # no address: the list has none for CHE03
    client.force_login(user)
    response = client.post(reverse("register", args=[listed_event.slug]), {"roll_number": "CHE03", "display_name": ""},
                           follow=True)
    html = text(response)
    assert "An organizer confirms your place on the list at check-in: bring your college ID." in html
    assert 'id="claim-pending"' in html and "You are seated once it is confirmed." in html
    assert Player.objects.get().claim == Player.Claim.PENDING
    Event.objects.filter(pk=listed_event.pk).update(checkin_open=True)
    html = text(client.get(reverse("my_event", args=[listed_event.slug])))
    assert "Check in for the next round" not in html
    html = text(client.post(reverse("check_in", args=[listed_event.slug]), follow=True))
    assert "An organizer confirms your place on the list at the check-in desk" in html
    assert Player.objects.get().status == Player.Status.REGISTERED


def test_a_taken_display_name_is_refused_on_the_form(client, listed_event):
    Player.objects.create(event=listed_event, display_name="Asha Sen")
    user = get_user_model().objects.create_user("asha", email="asha@ju.example")
    mark_verified(user)
    client.force_login(user)
    html = text(client.post(reverse("register", args=[listed_event.slug]), {"roll_number": "CHE01", "display_name": ""}))
    assert "Someone in Freshers Ocho already shows as &quot;Asha Sen&quot;. Add an initial" in html
