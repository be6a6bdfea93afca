"""Failed logins are throttled (django-axes): per account and per client address, on the students' login
page and on /admin/login/, with a clear page; an organizer or an admin lifts the pause; the address is the
real client's, behind a trusted proxy too, and cannot be chosen by the client."""

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournament.organizer_factories import make_event
from tournament.services.organizers import make_organizer

pytestmark = pytest.mark.django_db

PASSWORD = "right-pass-123"
FAST_HASHER = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # the lockout, not the hashing, is tested


@pytest.fixture
def axes_on(settings):
    settings.AXES_ENABLED = True
    settings.PASSWORD_HASHERS = FAST_HASHER
    return settings


def login(client, username, password, url="/accounts/login/", address="10.0.0.1", **headers):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_a_student_is_locked_out_after_the_failure_limit_even_with_the_right_password(client, axes_on):
    get_user_model().objects.create_user("asha", password=PASSWORD)
    limit = axes_on.AXES_FAILURE_LIMIT
    assert limit == 10  # the default (LOGIN_FAILURE_LIMIT)
    for _ in range(limit - 1):
        assert login(client, "asha", "guess").status_code == 200  # the form again, with its error
    locked = login(client, "asha", "guess")
    assert locked.status_code == 429 and locked["Retry-After"] == "900"
    page = " ".join(locked.content.decode().split())
    assert "Too many failed logins" in page and "Try again in 15 minutes" in page
    # the right password, from another address as well: still refused, nobody logged in
    for address in ("10.0.0.1", "10.9.9.9"):
        response = login(client, "asha", PASSWORD, address=address)
        assert response.status_code == 429 and not logged_in(client)
        assert "asha" in response.content.decode()


def test_one_address_guessing_many_accounts_is_locked_out(client, axes_on):
    get_user_model().objects.create_user("ravi", password=PASSWORD)
    for number in range(axes_on.AXES_FAILURE_LIMIT):
        login(client, f"someone{number}", "guess", address="10.0.0.7")
    # a header the client chooses does not change its address
    response = login(client, "ravi", PASSWORD, address="10.0.0.7", HTTP_X_FORWARDED_FOR="10.0.0.99")
    assert response.status_code == 429 and not logged_in(client)
    # another address logs in to the account (it had no failure of its own)
    assert login(client, "ravi", PASSWORD, address="10.0.0.8").status_code == 302 and logged_in(client)


def test_the_admin_login_is_throttled_and_an_organizer_lifts_a_students_pause(client, axes_on):
    organizer = get_user_model().objects.create_user("organizer", password=PASSWORD)
    make_organizer(organizer, make_event())
    get_user_model().objects.create_user("meera", password=PASSWORD)
    admin_login = reverse("admin:login")
    for _ in range(axes_on.AXES_FAILURE_LIMIT):
        last = login(client, organizer.username, "guess", url=admin_login, address="10.0.1.1")
    assert last.status_code == 429 and "Too many failed logins" in last.content.decode()
    assert login(client, organizer.username, PASSWORD, url=admin_login, address="10.0.1.1").status_code == 429
    # a superuser lifts the organizer's pause from the admin (Access attempts: delete)
    boss = get_user_model().objects.create_superuser("boss", "boss@example.com", PASSWORD)
    client.force_login(boss)
    attempt = AccessAttempt.objects.get(username=organizer.username)
    page = client.get(reverse("admin:axes_accessattempt_changelist"))
    assert page.status_code == 200 and organizer.username in page.content.decode()
    client.post(reverse("admin:axes_accessattempt_delete", args=[attempt.pk]), {"post": "yes"})
    client.logout()
    assert login(client, organizer.username, PASSWORD, url=admin_login, address="10.0.1.2").status_code == 302

    # the organizer lifts a student's pause the same way
    for _ in range(axes_on.AXES_FAILURE_LIMIT):
        login(client, "meera", "guess", address="10.0.2.1")
    assert login(client, "meera", PASSWORD, address="10.0.2.2").status_code == 429
    client.force_login(organizer)
    attempts = list(AccessAttempt.objects.filter(username="meera").values_list("pk", flat=True))
    response = client.post(reverse("admin:axes_accessattempt_changelist"), {
        "action": "delete_selected", "_selected_action": attempts, "post": "yes"})
    assert response.status_code == 302 and not AccessAttempt.objects.filter(username="meera").exists()
    client.logout()
    assert login(client, "meera", PASSWORD, address="10.0.2.2").status_code == 302 and logged_in(client)


# ---- through uvicorn as `make prod` runs it (--proxy-headers) ------------------------------------------

def wrong_login_over_http(server, username: str, forwarded_for: str) -> int:
    """A wrong password on the login page over HTTP, claiming ``forwarded_for`` as the client's address."""
    cookies = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
    opener.open(f"{server.url}/accounts/login/", timeout=30).read()
    token = next(cookie.value for cookie in cookies if cookie.name == "csrftoken")
    form = urllib.parse.urlencode({"username": username, "password": "guess", "csrfmiddlewaretoken": token})
    request = urllib.request.Request(f"{server.url}/accounts/login/", data=form.encode(),
                                     headers={"X-Forwarded-For": forwarded_for})
    try:
        with opener.open(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_the_client_address_is_the_proxys_word_only_when_the_proxy_is_trusted(live_uvicorn):
    # nginx on this machine in front, as in docs/deploy.md
    behind_proxy = live_uvicorn({"PASSWORD_HASHERS": FAST_HASHER}, "127.0.0.1", LOGIN_FAILURE_LIMIT="2")
    assert wrong_login_over_http(behind_proxy, "nobody1", "203.0.113.7") == 200
    assert wrong_login_over_http(behind_proxy, "nobody2", "203.0.113.8") == 200
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.7", "203.0.113.8"}
    behind_proxy.stop()

    AccessAttempt.objects.all().delete()
    direct = live_uvicorn({"PASSWORD_HASHERS": FAST_HASHER}, "10.255.255.1", LOGIN_FAILURE_LIMIT="2")  # clients reach uvicorn directly: their header is ignored
    assert wrong_login_over_http(direct, "nobody3", "203.0.113.9") == 200
    assert wrong_login_over_http(direct, "nobody4", "203.0.113.10") == 429  # the same real address twice
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}
