"""Importing an event's eligibility list from CSV: preview first, then import in one transaction.

The uploaded bytes are re-read on confirm (never trusted from the preview), against the list as it is
then, so two organizers importing at once cannot slip a duplicate in.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from tournament.csv_formats import EligibilityFile, read_eligibility_csv
from tournament.models import EligibilityEntry, Event
from tournament.services import audit


class EligibilityImportError(ValueError):
    """The file cannot be imported as asked; the message says why."""


@dataclass
class ImportResult:
    created: int
    skipped: int


def preview_import(event: Event, content: bytes) -> EligibilityFile:
    """Read the file against the event's current list, saving nothing."""
    existing = EligibilityEntry.objects.filter(event=event).values_list("roll_number", flat=True)
    return read_eligibility_csv(content, existing)


def import_entries(
    event: Event, content: bytes, actor, only_good_rows: bool = False, filename: str = ""
) -> ImportResult:
    """Add the file's rows to the event's list. With errors, nothing is saved unless ``only_good_rows``."""
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)  # one import per event at a time
        checked = preview_import(event, content)
        if checked.file_error:
            raise EligibilityImportError(checked.file_error)
        if checked.errors and not only_good_rows:
            raise EligibilityImportError(
                (f"{len(checked.errors)} rows have errors" if len(checked.errors) != 1 else "1 row has errors")
                + "; "
                "nothing was imported. Fix the file or choose to import only the good rows."
            )
        if not checked.rows:
            raise EligibilityImportError("There are no good rows to import.")
        EligibilityEntry.objects.bulk_create(
            [
                EligibilityEntry(event=event, **{k: v for k, v in row.items() if k != "row"})
                for row in checked.rows
            ]
        )
        audit.record(
            event,
            actor,
            "eligibility.import",
            f"Eligibility list: {len(checked.rows)} added" + (f" from {filename}" if filename else ""),
            changes={
                "added": len(checked.rows),
                "skipped_rows": [{"row": e.row, "reason": e.reason} for e in checked.errors],
            },
        )
    return ImportResult(created=len(checked.rows), skipped=len(checked.errors))
