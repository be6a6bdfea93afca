"""What importing an eligibility file would do to an event's list, worked out without touching it.

Rows are matched to the list by roll number (ignoring case): a new roll number is added, a known one
is changed (every differing field with its old and new value) or unchanged, and an entry whose roll
number is not in the file is "missing": kept by default, or removed when the organizer asks and nobody
has registered with it. Rows outside the event's policy are flagged with the reason (they are still
imported; registration refuses them). The plan's fingerprint lets a confirm apply exactly what was
previewed. Pure: the caller reads the list and the registrations.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from tournament.csv_formats import EligibilityFile, RowError
from tournament.eligibility_policy import Policy

COMPARED_FIELDS = ("name", "email", "department", "programme", "year")


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class ChangedEntry:
    pk: int
    row: dict
    changes: tuple[FieldChange, ...]


@dataclass(frozen=True)
class MissingEntry:
    pk: int
    roll_number: str
    name: str
    registered: bool


@dataclass(frozen=True)
class PolicyFlag:
    row: int
    roll_number: str
    name: str
    reason: str


@dataclass
class ImportPlan:
    file: EligibilityFile
    digest: str  # sha256 of the uploaded bytes
    added: list[dict] = field(default_factory=list)
    changed: list[ChangedEntry] = field(default_factory=list)
    unchanged: list[dict] = field(default_factory=list)
    missing: list[MissingEntry] = field(default_factory=list)
    outside_policy: list[PolicyFlag] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def file_error(self) -> str:
        return self.file.file_error

    @property
    def good_rows(self) -> int:
        return len(self.added) + len(self.changed) + len(self.unchanged)

    @property
    def removable(self) -> list[MissingEntry]:
        return [m for m in self.missing if not m.registered]

    @property
    def fingerprint(self) -> str:
        """A hash of everything the confirm would do; another value on confirm means something moved."""
        summary = {
            "digest": self.digest,
            "added": [r["roll_number"] for r in self.added],
            "changed": [[c.pk, [[f.field, f.old, f.new] for f in c.changes]] for c in self.changed],
            "unchanged": [r["pk"] for r in self.unchanged],
            "missing": [[m.pk, m.registered] for m in self.missing],
            "errors": [[e.row, e.reason] for e in self.errors],
            "outside_policy": [[f.row, f.reason] for f in self.outside_policy],
        }
        return hashlib.sha256(json.dumps(summary, sort_keys=True, default=str).encode()).hexdigest()


def file_digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def plan_import(
    file: EligibilityFile, digest: str, existing: list[dict], registered_rolls: set[str], policy: Policy
) -> ImportPlan:
    """The plan for ``file`` against ``existing`` entries (dicts of pk, roll_number, the compared fields
    and extra); ``registered_rolls`` are the roll numbers players registered with, case-folded."""
    plan = ImportPlan(file=file, digest=digest, errors=list(file.errors))
    if file.file_error:
        return plan
    by_roll = {entry["roll_number"].casefold(): entry for entry in existing}
    file_rolls = {row["roll_number"].casefold() for row in file.rows}
    file_rolls.update(e.roll_number.casefold() for e in file.errors if e.roll_number)
    # An e-mail already on the list stays there when its roll number is not in the file: a clash.
    kept_emails = {entry["email"].casefold(): entry for entry in existing
                   if entry["email"] and entry["roll_number"].casefold() not in file_rolls}
    for row in file.rows:
        holder = kept_emails.get(row["email"].casefold()) if row["email"] else None
        if holder is not None:
            plan.errors.append(RowError(
                row["row"], f"e-mail {row['email']} is already on the list for roll number "
                f"{holder['roll_number']} ({holder['name']}), who is not in this file",
                row["roll_number"], row["name"]))
            continue
        if reason := policy.reason({**row["extra"], **{name: row[name] for name in ("roll_number", *COMPARED_FIELDS)}}):
            plan.outside_policy.append(PolicyFlag(row["row"], row["roll_number"], row["name"], reason))
        entry = by_roll.get(row["roll_number"].casefold())
        if entry is None:
            plan.added.append(row)
            continue
        changes = _changes(entry, row)
        if changes:
            plan.changed.append(ChangedEntry(entry["pk"], row, changes))
        else:
            plan.unchanged.append({**row, "pk": entry["pk"]})
    plan.errors.sort(key=lambda error: error.row)
    plan.missing = [
        MissingEntry(entry["pk"], entry["roll_number"], entry["name"],
                     entry["roll_number"].casefold() in registered_rolls)
        for roll, entry in sorted(by_roll.items()) if roll not in file_rolls
    ]
    return plan


def _changes(entry: dict, row: dict) -> tuple[FieldChange, ...]:
    changes = [FieldChange(name, entry[name], row[name]) for name in COMPARED_FIELDS if entry[name] != row[name]]
    old_extra, new_extra = entry.get("extra") or {}, row["extra"]
    for name in list(new_extra) + [name for name in old_extra if name not in new_extra]:
        if old_extra.get(name, "") != new_extra.get(name, ""):
            changes.append(FieldChange(name, old_extra.get(name, ""), new_extra.get(name, "")))
    return tuple(changes)
