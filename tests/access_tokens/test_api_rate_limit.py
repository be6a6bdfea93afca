"""`/api/my-tables/` is rate-limited per user (all their tokens together): a burst past the limit is
answered 429 with a JSON error and Retry-After; other users are not held back."""

import pytest
from django.core.cache import cache
from django.test import Client

from access_tokens.services import create_token
from tests.tournament.organizer_factories import make_user

pytestmark = pytest.mark.django_db
URL = "/api/my-tables/"


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


def get(secret):
    return Client().get(URL, HTTP_AUTHORIZATION=f"Bearer {secret}")


def test_a_burst_past_the_limit_is_answered_429_with_retry_after(settings):
    settings.API_RATE_LIMIT = "20/60s"
    user = make_user("bursty")
    first, second = create_token(user, "bot one").secret, create_token(user, "bot two").secret
    answers = [get(first if n % 2 else second) for n in range(100)]
    assert [a.status_code for a in answers] == [200] * 20 + [429] * 80  # both tokens count for the user
    refused = answers[-1]
    assert refused["Content-Type"] == "application/json"
    assert "too many requests: at most 20 per 60s" in refused.json()["error"]
    assert 1 <= int(refused["Retry-After"]) <= 60 and refused.json()["retry_after"] == int(refused["Retry-After"])
    assert get(create_token(make_user("calm"), "bot").secret).status_code == 200  # another user


def test_the_default_limit_lets_a_bot_poll_every_second(settings):
    assert settings.API_RATE_LIMIT == "20/10s"
    secret = create_token(make_user("poller"), "bot").secret
    assert all(get(secret).status_code == 200 for _ in range(10))  # the example bot's pace, 10 s of it
    assert [get(secret).status_code for _ in range(40)].count(429) >= 10  # even across a window's end
