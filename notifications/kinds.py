"""The kinds of notification a student gets, each of which they can turn off, and one notification as it
is sent (`Notice`): the same text goes out by Web Push and by e-mail."""

from __future__ import annotations

from dataclasses import dataclass

TABLE = "table"  # a round started: your table is ready
STAGE = "stage"  # a later stage of a bracket started: your table in it is ready
PROGRESS = "progress"  # you are through to the next stage or round, or you are out
ANNOUNCEMENT = "announcement"  # an organizer's announcement to the event
PAUSE = "pause"  # your game was paused or resumed
AWAY = "away"  # your turn clock runs while you are away from the table (once per game)

LABELS = {
    TABLE: "Your table is ready",
    STAGE: "Your stage starts",
    PROGRESS: "You are through or out",
    ANNOUNCEMENT: "Announcements",
    PAUSE: "Your game is paused or resumed",
    AWAY: "Your turn clock runs while you are away",
}
KINDS = tuple(LABELS)


@dataclass(frozen=True)
class Notice:
    """One notification to one user. `url` is a path of the site (the notification opens it); `key`, when
    set, makes it once only: a second notice with the same key for the same user is never sent."""

    user_id: int
    event_id: int
    kind: str
    title: str
    body: str
    url: str
    key: str = ""

    def payload(self) -> dict:
        """What the service worker receives and shows (templates/notifications/sw.js, its `push` handler)."""
        return {"kind": self.kind, "title": self.title, "body": self.body, "url": self.url,
                "tag": self.key or f"{self.kind}-{self.event_id}"}
