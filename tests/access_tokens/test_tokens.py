"""Personal access tokens: made on the account page and shown once, stored as a hash only, revoked."""

import hashlib

import pytest
from django.test import Client
from django.urls import reverse

from access_tokens.models import AccessToken
from access_tokens.services import MAX_ACTIVE_TOKENS, TokenError, authenticate, create_token, revoke_token
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_user
from tournament.models import Event

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_as_its_sha256_only():
    user = make_user("tok1")
    made = create_token(user, "my bot")
    assert made.secret.startswith("uno_") and len(made.secret) > 40
    row = AccessToken.objects.get(pk=made.token.pk)
    assert row.token_hash == hashlib.sha256(made.secret.encode()).hexdigest()
    stored = [str(v) for v in AccessToken.objects.values_list().get(pk=row.pk)]
    assert not any(made.secret in value for value in stored)  # the secret itself is nowhere in the row
    assert row.prefix == made.secret[:8] and row.name == "my bot"


def test_authenticate_finds_the_user_and_records_use_until_revoked():
    user = make_user("tok2")
    made = create_token(user, "bot")
    assert AccessToken.objects.get().last_used_at is None
    assert authenticate(made.secret).user == user
    assert AccessToken.objects.get().last_used_at is not None
    assert authenticate(made.secret + "x") is None
    assert authenticate("") is None and authenticate("é" * 10) is None and authenticate("a" * 5000) is None
    revoke_token(user, made.token.pk)
    assert authenticate(made.secret) is None
    user.is_active = False
    user.save()
    assert authenticate(create_token(user, "again").secret) is None  # an inactive account's tokens do not work


def test_only_the_owner_revokes_and_a_name_is_needed_and_active_tokens_are_limited():
    alice, bob = make_user("tok3"), make_user("tok4")
    made = create_token(alice, "bot")
    with pytest.raises(TokenError):
        revoke_token(bob, made.token.pk)
    assert authenticate(made.secret) is not None
    with pytest.raises(TokenError):
        create_token(alice, "   ")
    for n in range(MAX_ACTIVE_TOKENS - 1):
        create_token(alice, f"bot {n}")
    with pytest.raises(TokenError, match="revoke one"):
        create_token(alice, "one too many")


def test_the_account_page_makes_a_token_shows_it_once_and_revokes_it():
    user = make_user("tok5")
    client = Client()
    assert client.get("/account/tokens/").status_code == 302  # log in first
    client.force_login(user)
    unscoped = client.post("/account/tokens/", {"name": "Ocho crusher"})
    assert unscoped.status_code == 400 and "Choose what the token may do" in unscoped.content.decode()
    page = client.post("/account/tokens/", {"name": "Ocho crusher", "scopes": ["tables:read", "tables:play"]})
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    token = AccessToken.objects.get(user=user)
    assert token.scope_list == ["tables:read", "tables:play"]
    secret = page.context["secret"]
    assert hashlib.sha256(secret.encode()).hexdigest() == token.token_hash
    assert secret in page.content.decode()
    again = client.get("/account/tokens/").content.decode()
    assert secret not in again and "Ocho crusher" in again and token.prefix in again  # never shown again
    assert client.post("/account/tokens/", {"name": ""}).status_code == 400
    assert client.get(f"/account/tokens/{token.pk}/revoke/").status_code == 405
    client.post(f"/account/tokens/{token.pk}/revoke/")
    token.refresh_from_db()
    assert token.revoked_at is not None and authenticate(secret) is None
    other = Client()
    other.force_login(make_user("tok6"))
    reader = client.post("/account/tokens/", {"name": "watcher", "scopes": ["tables:read"]})
    assert AccessToken.objects.get(name="watcher").scope_list == ["tables:read"]
    assert "Read my tables" in reader.content.decode()
    mine = create_token(user, "second")
    response = other.post(f"/account/tokens/{mine.token.pk}/revoke/", follow=True)
    assert "no such token" in response.content.decode()
    assert authenticate(mine.secret) is not None


def test_a_new_password_revokes_every_token_and_a_deactivation_only_suspends_them():
    from django.contrib.auth.forms import SetPasswordForm

    user = make_user("tok7")
    first, second = create_token(user, "one"), create_token(user, "two")
    user.last_login = user.date_joined
    user.save(update_fields=["last_login"])  # a login: nothing to do with tokens
    assert authenticate(first.secret) is not None
    user.is_active = False
    user.save()
    assert authenticate(first.secret) is None  # while the account is inactive
    user.is_active = True
    user.save()
    assert authenticate(first.secret) is not None
    form = SetPasswordForm(user, {"new_password1": "a-brand-new-pass-9", "new_password2": "a-brand-new-pass-9"})
    assert form.is_valid()
    form.save()  # the reset-by-mail form
    assert authenticate(first.secret) is None and authenticate(second.secret) is None
    assert not AccessToken.objects.filter(user=user, revoked_at__isnull=True).exists()


def test_a_bearer_token_opens_no_organizer_or_admin_page():
    """An organizer's (and a superuser's) valid token, sent as a bot sends it, is no login: every admin page
    answers as to a stranger (the login page), the same page opens with the session, and a POST changes
    nothing."""
    event = make_event()
    organizer = make_organizer_of(event)
    root = make_user("root", is_staff=True, is_superuser=True)
    pages = ["/admin/", reverse("admin:tournament_event_changelist"),
             reverse("admin:tournament_event_change", args=[event.pk]),
             reverse("admin:tournament_event_live", args=[event.pk]), "/account/tokens/"]
    for user in (organizer, root):
        bearer = {"HTTP_AUTHORIZATION": f"Bearer {create_token(user, 'script').secret}"}
        for page in pages:
            answer = Client().get(page, **bearer)
            assert answer.status_code == 302 and "/login/" in answer["Location"], (user, page, answer.status_code)
        changed = Client().post(reverse("admin:tournament_event_change", args=[event.pk]),
                                {"name": "Taken over"}, **bearer)
        assert changed.status_code in (302, 403)
        assert Event.objects.get(pk=event.pk).name != "Taken over"
    signed_in = Client()
    signed_in.force_login(organizer)
    assert signed_in.get(reverse("admin:tournament_event_change", args=[event.pk])).status_code == 200
