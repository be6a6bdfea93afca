"""Importing an event's eligibility list from CSV: preview the difference first, then apply it in one
transaction; and the event's policy applied to one entry.

The uploaded bytes are re-read on confirm (never trusted from the preview) against the list as it is
then, with the event row locked; the confirm carries the file's hash and the previewed plan's
fingerprint, so a different file or a list changed by someone else in between is refused, never
applied unseen. Writes are set-based: batched inserts, batched UPDATE ... FROM (VALUES ...), one delete.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.db import connection, transaction

from tournament.csv_formats import read_eligibility_csv
from tournament.eligibility_import import COMPARED_FIELDS, ImportPlan, file_digest, plan_import
from tournament.eligibility_policy import Policy, PolicyError
from tournament.models import EligibilityEntry, Event, Player
from tournament.services import audit

BATCH = 500


class EligibilityImportError(ValueError):
    """The file cannot be imported as asked; the message says why."""


class PreviewOutdated(EligibilityImportError):
    """The file or the list changed between the preview and the confirm."""


@dataclass
class ImportResult:
    created: int
    skipped: int
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    kept: int = 0


def event_policy(event: Event) -> Policy:
    """The event's policy; an unreadable one (only possible outside the admin) counts as none."""
    try:
        return event.policy()
    except PolicyError:
        return Policy()


def outside_policy(event: Event, entry: EligibilityEntry) -> str:
    """Why the event's policy leaves ``entry`` out (e.g. "programme is PG (must be UG)"), or ""."""
    return event_policy(event).reason(entry.column_values())


def record_policy_change(event: Event, actor, old) -> None:
    """Audit a change of the event's policy (the event form saves it; call inside its transaction)."""
    audit.record(event, actor, "eligibility.policy", f"Eligibility policy: {event_policy(event).describe()}",
                 changes={"policy": [old, event.eligibility_policy]})


def preview_import(event: Event, content: bytes) -> ImportPlan:
    """What importing ``content`` would do to the event's list, saving nothing."""
    existing = list(EligibilityEntry.objects.filter(event=event).values("pk", "roll_number", "extra",
                                                                        *COMPARED_FIELDS))
    registered = {roll.casefold() for roll in Player.objects.filter(event=event).exclude(roll_number="")
                  .values_list("roll_number", flat=True)}
    return plan_import(read_eligibility_csv(content), file_digest(content), existing, registered,
                       event_policy(event))


def import_entries(
    event: Event,
    content: bytes,
    actor,
    only_good_rows: bool = False,
    filename: str = "",
    remove_missing: bool = False,
    digest: str | None = None,
    fingerprint: str | None = None,
) -> ImportResult:
    """Apply the file to the event's list: add new roll numbers, update changed ones and, with
    ``remove_missing``, remove entries not in the file that nobody registered with. With bad rows
    nothing is saved unless ``only_good_rows``. ``digest`` / ``fingerprint`` (the admin's confirm
    always passes them) must match the file and the plan that were previewed."""
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)  # one import per event at a time
        plan = preview_import(event, content)
        if digest is not None and digest != plan.digest:
            raise PreviewOutdated("The file is not the one previewed; nothing was imported. Upload it again.")
        if plan.file_error:
            raise EligibilityImportError(plan.file_error)
        if fingerprint is not None and fingerprint != plan.fingerprint:
            raise PreviewOutdated(
                "The eligibility list changed since your preview (someone else edited or imported it); "
                "nothing was imported. Check the new preview below and confirm again."
            )
        if plan.errors and not only_good_rows:
            count = len(plan.errors)
            raise EligibilityImportError(
                (f"{count} rows have errors" if count != 1 else "1 row has errors")
                + "; nothing was imported. Fix the file or choose to import only the good rows."
            )
        if not plan.good_rows:
            raise EligibilityImportError("There are no good rows to import.")
        removed = plan.removable if remove_missing else []
        _apply(event, plan, removed)
        audit.record(event, actor, "eligibility.import", _summary(plan, removed, filename),
                     changes=_audit_changes(plan, removed, remove_missing))
    return ImportResult(created=len(plan.added), skipped=len(plan.errors), updated=len(plan.changed),
                        unchanged=len(plan.unchanged), removed=len(removed),
                        kept=len(plan.missing) - len(removed))


def _apply(event: Event, plan: ImportPlan, removed) -> None:
    fields = ("name", "email", "department", "programme", "year", "extra")
    EligibilityEntry.objects.bulk_create(
        [EligibilityEntry(event=event, roll_number=row["roll_number"], **{f: row[f] for f in fields})
         for row in plan.added],
        batch_size=BATCH,
    )
    _update_entries([(c.pk, *(c.row[f] for f in fields)) for c in plan.changed], fields)
    if removed:
        EligibilityEntry.objects.filter(event=event, pk__in=[m.pk for m in removed]).delete()


def _update_entries(rows: list[tuple], fields: tuple[str, ...]) -> None:
    """Set ``fields`` of entries from ``(pk, *values)`` rows: one UPDATE ... FROM (VALUES ...) per batch.

    Django's ``bulk_update`` builds a CASE per row and field in Python: about 20 s for 5,000 changed rows.
    Written for the two databases the project runs on (PostgreSQL, and SQLite 3.33 or later).
    """
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(EligibilityEntry._meta.db_table)
    casts = {"year": "CAST(%s AS integer)", "extra": "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"}
    one_row = "(CAST(%s AS bigint), " + ", ".join(casts.get(f, "%s") for f in fields) + ")"
    names = ", ".join(quote(f) for f in ("id", *fields))
    assignments = ", ".join(f"{quote(f)} = v.{quote(f)}" for f in fields)
    size = min(BATCH, (connection.features.max_query_params or 999) // (len(fields) + 1))
    with connection.cursor() as cursor:
        for start in range(0, len(rows), size):
            batch = rows[start : start + size]
            params = [json.dumps(v) if f == "extra" else v
                      for row in batch for f, v in zip(("id", *fields), row, strict=True)]
            cursor.execute(f"WITH v({names}) AS (VALUES {', '.join([one_row] * len(batch))}) "
                           f"UPDATE {table} SET {assignments} FROM v WHERE {table}.{quote('id')} = v.{quote('id')}",
                           params)


def _summary(plan: ImportPlan, removed, filename: str) -> str:
    parts = [f"{len(plan.added)} added", f"{len(plan.changed)} changed", f"{len(plan.unchanged)} unchanged"]
    if plan.missing:
        parts.append(f"{len(removed)} removed, {len(plan.missing) - len(removed)} kept")
    return "Eligibility list: " + ", ".join(parts) + (f" from {filename}" if filename else "")


def _audit_changes(plan: ImportPlan, removed, remove_missing: bool) -> dict:
    return {
        "added": len(plan.added),
        "added_roll_numbers": [row["roll_number"] for row in plan.added],
        "changed": {c.row["roll_number"]: {f.field: [f.old, f.new] for f in c.changes} for c in plan.changed},
        "unchanged": len(plan.unchanged),
        "removed": [m.roll_number for m in removed],
        "kept_not_in_file": [m.roll_number for m in plan.missing if m.pk not in {r.pk for r in removed}],
        "remove_missing": remove_missing,
        "outside_policy": [{"roll_number": f.roll_number, "reason": f.reason} for f in plan.outside_policy],
        "skipped_rows": [{"row": e.row, "roll_number": e.roll_number, "name": e.name, "reason": e.reason}
                         for e in plan.errors],
        "file_sha256": plan.digest,
    }
