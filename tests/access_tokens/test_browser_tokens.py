"""In a real headless Chromium (phone-sized) against the live ASGI server: a student makes an access token
on the account page (both scopes offered and ticked), copies it once, the API takes it; starts a practice
game for their bot, and is told on the page when a second one is past the cap; revokes the token, which
closes the bot's open socket."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import LiveGame
from tests.live_websockets import close_code, next_message, open_socket

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def live_asgi_settings(live_asgi_settings):
    return {**live_asgi_settings, "LIVE_PRACTICE_MAX_RUNNING": 1}


@pytest.fixture
def student(live_asgi):
    user = get_user_model().objects.create_user("ravi", password="a-long-password-1")
    client = Client()
    client.force_login(user)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": live_asgi.url}
    return user, cookie


def my_tables(url: str, secret: str) -> tuple[int, dict]:
    request = urllib.request.Request(url + "/api/my-tables/", headers={"Authorization": f"Bearer {secret}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_student_makes_a_token_seats_their_bot_and_revokes_the_token(live_asgi, student, page):
    user, cookie = student
    page.context.add_cookies([cookie])
    page.goto(live_asgi.url + "/account/tokens/")
    page.get_by_label("Token name").fill("Greedy bot")
    assert page.get_by_label("Read my tables").is_checked() and page.get_by_label("Play at my tables").is_checked()
    page.get_by_role("button", name="Make a token").click()
    secret = page.locator("#new-token-value").inner_text().strip()
    assert secret.startswith("uno_")
    assert page.locator("#tokens").get_by_text("Greedy bot").is_visible()

    page.goto(live_asgi.url + "/play/practice/")
    page.get_by_label("I'll play with my bot").check()
    page.get_by_role("button", name="Start a practice game").click()
    page.locator("#bot-seats").wait_for()
    assert "your bot plays your seat" in page.locator("#bot-seats").inner_text()
    live = LiveGame.objects.get(owner=user)
    assert live.token_moves_only

    status, body = my_tables(live_asgi.url, secret)
    assert status == 200 and [t["game"] for t in body["tables"]] == [live.pk] and body["tables"][0]["bot_seat"]

    # The example bot takes the seat; the page watching it marks its moves in the log.
    bot = subprocess.Popen([sys.executable, str(ROOT / "examples" / "bot.py"), "--server", live_asgi.url],
                           env={**os.environ, "UNO_TOKEN": secret}, cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        page.locator("#log-list li", has_text="🤖").first.wait_for(timeout=60_000)
    finally:
        bot.terminate()
        bot.wait(timeout=10)

    page.goto(live_asgi.url + "/play/practice/")  # a second game while the first runs: past this site's cap
    page.get_by_role("button", name="Start a practice game").click()
    page.get_by_text("You have 1 practice game running (at most 1 at once)").wait_for()
    assert LiveGame.objects.filter(owner=user).count() == 1

    page.goto(live_asgi.url + "/account/tokens/")
    assert secret not in page.content()  # shown once only
    bot_socket = open_socket(live_asgi, live.ws_path, token=secret)
    next_message(bot_socket, "state")
    page.get_by_role("button", name="Revoke").click()
    page.get_by_text("is revoked").wait_for()
    assert close_code(bot_socket, 5) == 4401  # its open socket is closed too
    status, body = my_tables(live_asgi.url, secret)
    assert status == 401 and "revoked" in body["error"]
