"""Tokens and sockets on the real server (the live ASGI server, bots' sockets through the `websockets`
client): a token socket ends within seconds when its token is revoked, the account's password changes or
the account is deactivated; a new password revokes the tokens; a token opens no organizer socket and is
never taken from the URL; a password reset through the mailed link and a deactivation saved in the admin
end the sockets through the channel layer, without waiting for each worker's check."""

from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from access_tokens.models import AccessToken
from access_tokens.services import authenticate, create_token
from games.services.lifecycle import start_practice_game
from tests.live_asgi import live_asgi_workers  # noqa: F401 (fixture)
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


class FormFields(HTMLParser):
    """The fields a browser would send for the page's form named `form_id`, as it stands."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside, self.select, self.fields = form_id, False, None, []

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        if tag == "form":
            self.inside = attrs.get("id") == self.form_id
        elif not self.inside:
            return
        elif tag == "input" and attrs.get("name") and attrs.get("type") not in ("submit", "button"):
            if attrs.get("type") not in ("checkbox", "radio") or "checked" in attrs:
                self.fields.append((attrs["name"], attrs.get("value") or ("on" if "checked" in attrs else "")))
        elif tag == "select":
            self.select = attrs.get("name")
        elif tag == "option" and self.select and "selected" in attrs:
            self.fields.append((self.select, attrs.get("value", "")))

    def handle_endtag(self, tag) -> None:
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.inside = False


def test_a_reset_by_mail_and_a_deactivation_in_the_admin_end_token_sockets_at_once(live_asgi_workers):  # noqa: F811
    """Each worker's own check of its token sockets is set to an hour here: only the group message sent
    after the change can close them within seconds."""
    server = live_asgi_workers({"ACCESS_TOKEN_RECHECK_SECONDS": 3600})
    user = make_user("resetter", email="resetter@example.org")
    live = start_practice_game(user, "uno-official", 1, seed=5, turn_seconds=0, with_my_bot=True)
    made = create_token(user, "bot")
    socket = open_socket(server, live.ws_path, token=made.secret)
    next_message(socket, "state")

    # The link of the reset mail, opened by a browser that is not logged in: it leads to the new password form.
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    browser = LoggedInSession(server)
    form_path, _page = browser.get_final(f"/accounts/reset/{uid}/{default_token_generator.make_token(user)}/")
    assert form_path == f"/accounts/reset/{uid}/set-password/"
    new_password = "a-new-long-password-9"
    assert browser.post_form(form_path, {"new_password1": new_password, "new_password2": new_password}) == 200
    assert close_code(socket, 3) == 4401
    assert authenticate(made.secret) is None

    # Deactivated by an administrator saving the user's page in the admin (the form, not `.update()`).
    fresh = create_token(user, "fresh")
    socket = open_socket(server, live.ws_path, token=fresh.secret)
    next_message(socket, "state")
    admin = make_user("root", is_staff=True, is_superuser=True)
    session = LoggedInSession(server, admin)
    change = f"/admin/auth/user/{user.pk}/change/"
    parser = FormFields("user_form")
    parser.feed(session.get(change))
    fields = [(name, value) for name, value in parser.fields if name not in ("is_active", "csrfmiddlewaretoken")]
    assert ("username", "resetter") in fields
    assert session.post_form(change, {**dict(fields), "_save": "Save"}) == 200
    assert not get_user_model().objects.get(pk=user.pk).is_active
    assert close_code(socket, 3) == 4401
