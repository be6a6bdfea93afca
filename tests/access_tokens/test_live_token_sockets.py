"""Tokens and sockets on the real server (the live ASGI server, bots' sockets through the `websockets`
client): a token socket ends within seconds when its token is revoked, the account's password changes or
the account is deactivated; a new password revokes the tokens; a token opens no organizer socket and is
never taken from the URL."""

import pytest
from django.contrib.auth import get_user_model

from access_tokens.models import AccessToken
from access_tokens.services import authenticate, create_token
from games.services.lifecycle import start_practice_game
from tests.live_websockets import LoggedInSession, close_code, next_message, open_socket
from tests.tournament.organizer_factories import PASSWORD, make_user
from tests.tournament.test_live_round import start_round

pytestmark = [pytest.mark.django_db(transaction=True)]


def alive(socket) -> bool:
    socket.send('{"type": "ping", "echo": 1}')
    return next_message(socket, "pong", timeout=10)["echo"] == 1


def test_a_token_socket_ends_on_revocation_new_password_and_deactivation(live_asgi):
    user = make_user("botowner")
    live = start_practice_game(user, "uno-official", 1, seed=5, turn_seconds=0, with_my_bot=True)
    revoked, changed, kept = (create_token(user, name) for name in ("revoked", "changed", "kept"))
    sockets = {name: open_socket(live_asgi, live.ws_path, token=made.secret)
               for name, made in (("revoked", revoked), ("changed", changed), ("kept", kept))}
    for socket in sockets.values():
        assert next_message(socket, "state")["seat"] == 0
    session = LoggedInSession(live_asgi, user)

    # Revoked on the token page: that token's socket is closed at once, the others play on.
    assert session.post_form(f"/account/tokens/{revoked.token.pk}/revoke/", {}, form_page="/account/tokens/") == 200
    assert close_code(sockets["revoked"], 5) == 4401
    assert alive(sockets["changed"]) and alive(sockets["kept"])

    # A new password (the account page's form) revokes every token and closes their sockets.
    new_password = "another-long-password-7"
    status = session.post_form("/accounts/password_change/", {
        "old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password})
    assert status == 200
    for name in ("changed", "kept"):
        assert close_code(sockets[name], 5) == 4401, name
    assert authenticate(changed.secret) is None and authenticate(kept.secret) is None
    assert AccessToken.objects.filter(user=user, revoked_at__isnull=True).count() == 0

    # Deactivated where no channel layer reaches the server (here, the test's own process): each worker's
    # check of its token sockets closes it within seconds all the same.
    fresh = create_token(user, "fresh")
    socket = open_socket(live_asgi, live.ws_path, token=fresh.secret)
    next_message(socket, "state")
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert close_code(socket, 10) == 4401


def test_a_token_opens_no_organizer_socket_and_is_never_taken_from_the_url(live_asgi):
    event, organizer, round_, _ = start_round()
    organizer_token = create_token(organizer, "organizer's script")
    socket = open_socket(live_asgi, f"/ws/organizer/rounds/{round_.pk}/", token=organizer_token.secret)
    assert close_code(socket, 10) == 4403  # (its reason: tests/games/test_bot_sockets.py)
    # the same organizer with their session still has the view
    browser = open_socket(live_asgi, f"/ws/organizer/rounds/{round_.pk}/", user=organizer)
    assert next_message(browser, "round")["round"] == round_.pk
    browser.close()

    student = make_user("student")
    live = start_practice_game(student, "uno-official", 1, seed=5, turn_seconds=0, with_my_bot=True)
    made = create_token(student, "bot")
    in_url = open_socket(live_asgi, f"{live.ws_path}?token={made.secret}", origin=False)
    assert close_code(in_url, 10) == 4401
    in_header = open_socket(live_asgi, live.ws_path, token=made.secret)
    assert next_message(in_header, "state")["seat"] == 0
    in_header.close()
