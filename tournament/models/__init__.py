"""The tournament's data: events and who may play, rounds and tables, games with their hands and scores.

Scores are stored once, per hand and seat (`HandScore`); every total — a seat's cumulative score, a
player's standing — is derived from those rows, so a corrected hand corrects everything after it.
"""

from tournament.models.accounts import VerifiedEmail
from tournament.models.announcements import Announcement
from tournament.models.audit import AuditEntry
from tournament.models.brackets import BracketEntry, BracketStage, OpenPlaceDecision, TiebreakDraw
from tournament.models.drafts import RoundDraft
from tournament.models.events import EligibilityEntry, Event, Player
from tournament.models.play import Attendance, Game, Hand, HandScore, Round, Seat, Table
from tournament.models.standings import StandingsChange

__all__ = [
    "Announcement",
    "Attendance",
    "AuditEntry",
    "BracketEntry",
    "BracketStage",
    "EligibilityEntry",
    "Event",
    "Game",
    "Hand",
    "HandScore",
    "OpenPlaceDecision",
    "Player",
    "Round",
    "RoundDraft",
    "Seat",
    "StandingsChange",
    "Table",
    "TiebreakDraw",
    "VerifiedEmail",
]
