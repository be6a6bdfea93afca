"""What the page sends is never trusted: the subscription endpoints answer bad input with a clear error (never
a 500), store nothing for it, need a login, and a stored subscription is the student's own."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from notifications.models import NotificationChoice, PushSubscription
from tests.notifications.push_service import BrowserKeys
from tests.tournament.organizer_factories import make_user

pytestmark = pytest.mark.django_db

URL = "/notifications/subscription/"


@pytest.fixture
def student_client():
    client = Client()
    user = make_user()
    client.force_login(user)
    return client, user


def post(client, body, url=URL):
    return client.post(url, body if isinstance(body, str | bytes) else json.dumps(body),
                       content_type="application/json")


GOOD = BrowserKeys().subscription("https://push.example.net/send/abc")
BAD = [
    "not json", b"\xff\xfe", "[]", "{}", {"endpoint": "https://push.example.net/x"},
    {**GOOD, "endpoint": "http://push.example.net/x"},  # push services are https
    {**GOOD, "endpoint": "file:///etc/passwd"}, {**GOOD, "endpoint": 5}, {**GOOD, "endpoint": "https://" + "a" * 1000},
    {**GOOD, "keys": {"p256dh": "!!!", "auth": GOOD["keys"]["auth"]}},
    {**GOOD, "keys": {"p256dh": GOOD["keys"]["auth"], "auth": GOOD["keys"]["auth"]}},
    {**GOOD, "keys": {"p256dh": GOOD["keys"]["p256dh"], "auth": GOOD["keys"]["p256dh"]}},
    {**GOOD, "keys": {"p256dh": None, "auth": []}}, {**GOOD, "keys": "x"}, "x" * 5000,
]


@pytest.mark.parametrize("body", BAD)
def test_a_bad_subscription_is_refused_with_a_reason(student_client, body):
    client, _ = student_client
    answer = post(client, body)
    assert answer.status_code == 400 and answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_a_subscription_is_stored_for_its_student_and_removed(student_client):
    client, user = student_client
    assert post(Client(), GOOD).status_code == 403, "a login first"
    assert post(client, GOOD).status_code == 201
    assert post(client, GOOD).status_code == 201, "sent again: still one"
    sub = PushSubscription.objects.get()
    assert (sub.user, sub.info()) == (user, {"endpoint": GOOD["endpoint"], "keys": GOOD["keys"]})
    assert client.get(URL).status_code == 405
    other = Client()
    other.force_login(make_user())
    assert post(other, {"endpoint": GOOD["endpoint"]}, URL + "remove/").json()["removed"] == 0, "not theirs"
    assert post(client, "nonsense", URL + "remove/").status_code == 400
    assert post(client, {"endpoint": GOOD["endpoint"]}, URL + "remove/").json() == {"ok": True, "removed": 1}
    assert not PushSubscription.objects.exists()


def test_choices_keep_known_kinds_and_go_back_to_the_page(student_client):
    client, user = student_client
    answer = client.post("/notifications/choices/", {"kinds": ["table", "bogus"], "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == "/"
    choice = NotificationChoice.objects.get(user=user)
    assert "table" not in choice.kinds_off and "announcement" in choice.kinds_off and choice.mail_off
    answer = client.post("/notifications/choices/", {"kinds": ["away"], "mail": "on", "next": "/events/x/me/"})
    assert answer["Location"] == "/events/x/me/"
    choice.refresh_from_db()
    assert "away" not in choice.kinds_off and not choice.mail_off
