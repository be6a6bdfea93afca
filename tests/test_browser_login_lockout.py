"""Where a person meets the protections against guessing and impersonation, in Chromium: a student on a
phone who gets the password wrong too often reads what happened and what to do, an organizer at
/admin/login/ likewise, and a copy of another player's name with an invisible character is refused on the
register page with a clear message."""

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from tests.tournament.organizer_factories import PASSWORD, make_event, make_user, make_verified_user
from tournament.models import Event, Player
from tournament.services.organizers import make_organizer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, url: str, username: str, password: str) -> None:
    page.goto(url)
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("button[type=submit], input[type=submit]").first.click()
    page.wait_for_load_state()


def visible_text(page) -> str:
    return " ".join(page.locator("body").inner_text().split())


def test_lockouts_and_a_look_alike_name_read_clearly(live_server, page, chromium, settings):
    event = make_event(status=Event.Status.REGISTRATION, eligibility=Event.Eligibility.OPEN)
    Player.objects.create(event=event, user=make_verified_user("asha"), display_name="Asha Sen")
    make_verified_user("copycat")
    organizer = make_user("organizer")
    make_organizer(organizer, event)

    # A copy of "Asha Sen" with a zero-width space: refused, with the character named, and kept typed.
    log_in(page, live_server.url + "/accounts/login/", "copycat", PASSWORD)
    page.goto(live_server.url + reverse("register", args=[event.slug]))
    page.fill("#id_display_name", "Asha\u200b Sen")
    page.locator("form:has(#id_display_name) [type=submit]").click()
    page.wait_for_load_state()
    assert "invisible or control characters (U+200B)" in visible_text(page)
    assert Player.objects.filter(event=event).count() == 1

    settings.AXES_ENABLED = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    limit = settings.AXES_FAILURE_LIMIT
    context = page.context
    context.clear_cookies()

    # A student on a phone: the limit's wrong passwords, then a page that says what happened.
    for _ in range(limit):
        log_in(page, live_server.url + "/accounts/login/", "asha", "not-the-password")
    text = visible_text(page)
    assert "Too many failed logins" in text and "Try again in 15 minutes" in text, text
    log_in(page, live_server.url + "/accounts/login/", "asha", PASSWORD)  # the right one: still paused
    assert "Too many failed logins" in visible_text(page)
    assert not any(cookie["name"] == "sessionid" for cookie in context.cookies())

    # The organizer at a laptop, on the admin's own login page (the address's count starts afresh).
    AccessAttempt.objects.all().delete()
    laptop = chromium.new_context(viewport={"width": 1280, "height": 800})
    admin_page = laptop.new_page()
    for _ in range(limit):
        log_in(admin_page, live_server.url + reverse("admin:login"), organizer.username, "not-the-password")
    text = visible_text(admin_page)
    assert "Too many failed logins" in text and "Try again in 15 minutes" in text, text
    laptop.close()
