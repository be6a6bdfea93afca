"""Telling students never rides on the change itself: notices are sent only once the change committed (a
change rolled back sends no push and no mail), and outside the request that made it (the organizer's page
answers while the push service is still holding the site's post)."""

from __future__ import annotations

import threading

import pytest
from django.core import mail
from django.db import transaction
from django.test import Client
from django.urls import reverse

from config.environment import new_vapid_keys
from notifications import background
from notifications.models import PushSubscription, SentNotice
from tests.games.factories import make_tournament_game
from tests.notifications.push_service import BrowserKeys, PushService
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_verified_user
from tournament.models import Event, Game, Player
from tournament.services import game_status
from tournament.services.email_verification import mark_verified
from tournament.services.live_tables import start_live_games

pytestmark = pytest.mark.django_db(transaction=True)


class RolledBack(Exception):
    pass


@pytest.fixture(autouse=True)
def push_on(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_vapid_keys()
    settings.NOTIFICATION_MAIL_INTERVAL = 0


@pytest.fixture
def student():
    """(event, organizer, a student with a verified address, the student's browser keys)."""
    event = make_event(name="Ocho night", status=Event.Status.RUNNING)
    organizer = make_organizer_of(event)
    user = make_verified_user()
    Player.objects.create(event=event, user=user, display_name="Asha", status=Player.Status.CHECKED_IN)
    mail.outbox.clear()
    return event, organizer, user, BrowserKeys()


def subscribe(user, keys: BrowserKeys, push: PushService) -> None:
    info = keys.subscription(f"{push.url}/push/{user.pk}")
    PushSubscription.objects.create(user=user, endpoint=info["endpoint"], p256dh=info["keys"]["p256dh"],
                                    auth=info["keys"]["auth"])


def test_a_change_rolled_back_sends_no_push_and_no_mail():
    """A pause's notice is built from rows committed before it (the game and its seats), so a notice queued
    before the commit would go out even though the pause is rolled back."""
    keys = BrowserKeys()
    game, users = make_tournament_game(3)
    for other in users:
        other.email = f"{other.username}@students.example"
        other.save(update_fields=["email"])
        mark_verified(other)
    start_live_games(game.table.round)
    with PushService() as push:
        subscribe(users[0], keys, push)
        with pytest.raises(RolledBack), transaction.atomic():
            game_status.change_game_status(game, "pause", None)
            raise RolledBack
        background.flush()
        assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
        assert push.received.empty() and mail.outbox == [] and not SentNotice.objects.exists()

        game_status.change_game_status(game, "pause", None)  # the same change committed is told
        background.flush()
        assert push.next(timeout=0).path == f"/push/{users[0].pk}"
        assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in users[1:]), "no push: mail"


def test_the_request_answers_while_the_push_service_is_still_holding_the_push(student):
    event, organizer, user, keys = student
    hold = threading.Event()
    with PushService(hold=hold) as push:
        subscribe(user, keys, push)
        client = Client()
        client.force_login(organizer)
        answer = client.post(reverse("admin:tournament_event_announce", args=[event.pk]), {"text": "Room 204"})
        assert answer.status_code == 302
        # The organizer has the answer; the site's post is still waiting for the push service's.
        assert push.next().path == f"/push/{user.pk}"
        assert push.answered == 0 and mail.outbox == []
        hold.set()
        background.flush()
    assert push.answered == 1
    assert SentNotice.objects.get(user=user).channel == SentNotice.Channel.PUSH
    assert mail.outbox == [], "pushed: no mail"
