"""Notices to an event's open pages over the channel layer, and the groups they go to: its leaderboards
are told that scores changed, its students' "My event" pages that their next step may have
(``notify_my_event_changed``, group ``my-event-<id>``); the groups of the organizers' live round views and
of an event's announcements are named here too.

The services that record hands call ``notify_scores_changed(event)``; every websocket watching the event
(``tournament.consumers.LeaderboardConsumer``, group ``event-<id>``) then recomputes the leaderboard on the
server and sends the fresh public rows to its browser. The message on the channel layer is deliberately
tiny ("scores changed"): the rows are built by each consumer from the database, never carried in it.

It also records the change (``tournament.scores_version.record_change``): the event's scores version
moves, so every process's cached standings and pages are recomputed on their next read.
"""

from __future__ import annotations

from config.group_notices import send_after_commit
from tournament.models import Event
from tournament.scores_version import record_change

SCORES_CHANGED = "scores.changed"  # dispatched to LeaderboardConsumer.scores_changed
MY_EVENT_CHANGED = "my_event.changed"  # dispatched to MyEventConsumer.my_event_changed


def event_group_name(event_id: int) -> str:
    """The channel-layer group of everyone watching one event's leaderboard."""
    return f"event-{event_id}"


def my_event_group_name(event_id: int) -> str:
    """The channel-layer group of every open "My event" page of one event (`tournament.my_event_socket`)."""
    return f"my-event-{event_id}"


def notify_my_event_changed(event_id: int) -> None:
    """Tell the event's "My event" pages to show each student their next step afresh (a round seated,
    started or finished, a stage drawn, a game ended, the event's settings saved), once the current
    transaction commits. Lost messages are logged, never raised; a reload shows the same."""
    send_after_commit([(my_event_group_name(event_id), {"type": MY_EVENT_CHANGED, "event": event_id})],
                      what="a My event change")


def notify_scores_changed(event: Event) -> None:
    """Tell the event's live leaderboards to refresh, once the current transaction has committed.

    Call it from synchronous code (a service, an admin action) after saving hand results. Inside
    ``transaction.atomic`` the message is sent on commit, so watchers never read scores that are about to
    be rolled back; outside a transaction it is sent at once. A channel layer that cannot be reached
    is logged, never raised: the scores are saved and the pages still show them.
    """
    notify_event_scores_changed(event.pk)


def notify_event_scores_changed(event_id: int) -> None:
    """``notify_scores_changed`` for an event known by its id."""
    record_change(event_id)
    send_after_commit([(event_group_name(event_id), {"type": SCORES_CHANGED, "event": event_id})],
                      what="a scores change")


def round_live_group(round_id: int) -> str:
    """The channel-layer group of the organizers' live views of one round (`LiveRoundConsumer`): told by the
    round's live tables (`LiveGame.watch_group`) after each change and presence change."""
    return f"round-{round_id}-live"


def event_announce_group(event_id: int) -> str:
    """The channel-layer group of every socket of an event's pages and tables that shows its announcements
    (`LiveGame.announce_group` for the tables)."""
    return f"event-{event_id}-announce"
