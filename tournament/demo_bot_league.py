"""The demo's bot league: "Chematoodlon Bot League", an event whose entrants are students' bots, running
with check-in open and two bots entered (Asha's and Ravi's, registered, not yet checked in). Each entrant
gets a fresh access token for the demo's printout, so a newcomer can start `examples/bot.py --event ...`
with it at once: the bot hears on the bots' stream that check-in is open and checks itself in, and once
the organizer starts round 1 from the control room it is told its table and plays it.

Idempotent: running the demo again keeps the event and its entries and replaces the demo tokens (only a
token's hash is stored, so a secret can be printed only when it is made).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model

from access_tokens.models import AccessToken
from access_tokens.services import create_token
from tournament.models import Event, Player
from tournament.services.organizers import make_organizer

LEAGUE_SLUG = "chematoodlon-bot-league"
LEAGUE_NAME = "Chematoodlon Bot League"
ENTRIES = [("asha", "Greedy Asha"), ("ravi", "Ravi's Randombot")]  # (login, the bot's name)
TOKEN_NAME = "demo bot"


@dataclass
class LeagueEntry:
    login: str
    bot: str
    token: str


def load_bot_league(organizer) -> tuple[Event, list[LeagueEntry]]:
    league, _ = Event.objects.get_or_create(slug=LEAGUE_SLUG, defaults={
        "name": LEAGUE_NAME, "rules_preset": "uno-official", "entrants": Event.Entrants.BOTS,
        "status": Event.Status.RUNNING, "checkin_open": True, "min_table_size": 2, "max_table_size": 4,
        "turn_seconds": 20, "target_score": 100, "arrival_grace_seconds": 120,
        "description": "Students' bots play UNO (official rules) to 100 points. Enter yours: write "
                       "act(view), try it in the arena, then run it with your access token.",
    })
    make_organizer(organizer, league)
    users = {u.username: u for u in get_user_model().objects.filter(username__in=[login for login, _ in ENTRIES])}
    entries = []
    for login, bot in ENTRIES:
        user = users[login]
        Player.objects.get_or_create(event=league, user=user, defaults={"display_name": bot})
        AccessToken.objects.filter(user=user, name=TOKEN_NAME).delete()
        entries.append(LeagueEntry(login, bot, create_token(user, TOKEN_NAME).secret))
    return league, entries
