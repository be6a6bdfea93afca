"""The mail that stands in for push: a student without a push subscription gets the same notice by mail
once the change commits, at most one of a kind per event within NOTIFICATION_MAIL_INTERVAL, and every mail
carries a signed link (and a List-Unsubscribe header) that stops them without logging in."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from notifications import background
from notifications.models import NotificationChoice, SentNotice
from notifications.subscriptions import save_choices
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_verified_user
from tournament.models import Event, Player
from tournament.services import rounds
from tournament.services.announcements import announce

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def seated(settings):
    settings.NOTIFICATION_MAIL_INTERVAL = 300
    settings.SITE_URL = "https://ocho.example.org"
    event = make_event(name="Ocho night", status=Event.Status.RUNNING, min_table_size=4, max_table_size=4)
    organizer = make_organizer_of(event)
    users = [make_verified_user() for _ in range(4)]
    for n, user in enumerate(users):
        Player.objects.create(event=event, user=user, display_name=f"Student {n}", status=Player.Status.CHECKED_IN)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1, source=rounds.CHECKED_IN),
                                       organizer)
    mail.outbox.clear()
    return event, organizer, round_, users


def mails_to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


def test_the_table_is_ready_mail_says_where_and_links_to_the_table(seated):
    event, organizer, round_, users = seated
    rounds.start_round(round_, organizer)
    background.flush()
    [sent] = mails_to(users[0])
    seat = users[0].players.get().seats.select_related("table").get()
    assert sent.subject == "Your table is ready"
    assert f"Ocho night, round 1: table {seat.table.number}, seat {seat.number + 1}." in sent.body
    game = seat.table.games.get()
    assert f"https://ocho.example.org/play/games/{game.pk}/" in sent.body
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert len(mail.outbox) == 4, "each of the four students, once"


def test_at_most_one_mail_of_a_kind_per_event_within_the_interval(seated):
    event, organizer, round_, users = seated
    announce(event, "Round 1 starts in 5 minutes", organizer)
    announce(event, "Room 204, not 202", organizer)
    background.flush()
    assert [m.body.splitlines()[2] for m in mails_to(users[1])] == ["Round 1 starts in 5 minutes"]
    assert SentNotice.objects.filter(user=users[1], kind="announcement").count() == 2, "the second was held back"

    rounds.start_round(round_, organizer)  # another kind goes out at once
    background.flush()
    assert [m.subject for m in mails_to(users[1])][1:] == ["Your table is ready"]

    SentNotice.objects.filter(channel="mail").update(sent_at=timezone.now() - timedelta(seconds=301))
    announce(event, "Lunch at one", organizer)
    background.flush()
    assert "Lunch at one" in mails_to(users[1])[-1].body, "once the interval has passed, mail again"


def test_the_link_in_the_mail_stops_them_without_a_login(seated):
    event, organizer, round_, users = seated
    announce(event, "Welcome", organizer)
    background.flush()
    [sent] = mails_to(users[2])
    link = re.search(r"Stop these mails \(one click, no login needed\): (\S+)", sent.body).group(1)
    assert sent.extra_headers["List-Unsubscribe"] == f"<{link}>"
    path = link.removeprefix("https://ocho.example.org")

    anonymous = Client()
    assert anonymous.get(path[:-3] + "xyz/").status_code == 400, "a changed link stops nothing"
    assert not NotificationChoice.objects.filter(user=users[2], mail_off=True).exists()
    page = anonymous.get(path)
    assert page.status_code == 200 and "No more notification mails" in page.content.decode()
    assert NotificationChoice.objects.get(user=users[2]).mail_off

    one_click = Client(enforce_csrf_checks=True)  # RFC 8058: the mail client POSTs the header's link
    assert one_click.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200

    mail.outbox.clear()
    SentNotice.objects.update(sent_at=timezone.now() - timedelta(hours=1))
    rounds.start_round(round_, organizer)
    background.flush()
    assert mails_to(users[2]) == [], "stopped"
    assert len(mails_to(users[3])) == 1, "the others still get theirs"


def test_a_kind_turned_off_is_not_sent(seated):
    event, organizer, round_, users = seated
    save_choices(users[0], ["table"], mail_on=True)
    announce(event, "Welcome", organizer)
    rounds.start_round(round_, organizer)
    background.flush()
    assert [m.subject for m in mails_to(users[0])] == ["Your table is ready"]


def test_the_demo_tells_its_made_up_students_nothing():
    call_command("demo", stdout=io.StringIO())
    background.flush()
    assert mail.outbox == [] and not SentNotice.objects.exists()


def test_a_notice_queued_while_the_process_exits_is_sent_in_the_queuing_thread():
    """A short-lived process (a command that started a round) exits while the builder thread hands
    students' notices on: its senders refuse new work then, so the notice is sent at once instead of lost."""
    from concurrent.futures import ThreadPoolExecutor

    from notifications import background

    done = []
    closed = ThreadPoolExecutor(max_workers=1)
    closed.shutdown()
    future = background._queue(closed, done.append, ("sent",))
    assert done == ["sent"] and future.done()
