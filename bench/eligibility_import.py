"""Time an eligibility list import of N rows: the preview, the first import, then a corrected re-import
(a tenth of the rows changed, a tenth dropped and removed), then every row changed, through the service the admin calls.

    python bench/eligibility_import.py --rows 5000

Builds a throwaway event in the database named by DATABASE_URL (the site's), and deletes it afterwards.
Prints seconds per step and the queries each ran.
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HEADER = "roll_number,name,email,department,programme,year,section\n"


def rows(count: int, changed_every: int = 0, dropped_every: int = 0) -> bytes:
    lines = [HEADER]
    for n in range(count):
        if dropped_every and n % dropped_every == 1:
            continue
        section = "Z" if changed_every and n % changed_every == 0 else "ABCD"[n % 4]
        lines.append(f"R{n:06d},Student {n},s{n}@college.example,Chemical Engineering,UG,{n % 4 + 1},{section}\n")
    return "".join(lines).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament.models import Event
    from tournament.services.eligibility import import_entries, preview_import

    print(f"{' '.join(sys.argv)} | {datetime.now(UTC):%Y-%m-%d %H:%M} UTC | Python "
          f"{platform.python_version()} | {connection.vendor}")
    event = Event.objects.create(name="bench eligibility", slug=f"bench-eligibility-{secrets.token_hex(3)}",
                                 eligibility=Event.Eligibility.LIST,
                                 eligibility_policy=[{"column": "section", "one_of": ["A", "B", "C", "D"]}])
    first, corrected = rows(args.rows), rows(args.rows, changed_every=10, dropped_every=10)
    all_changed = rows(args.rows, changed_every=1, dropped_every=10)
    try:
        for label, step in (
            ("preview, empty list", lambda: preview_import(event, first)),
            ("import", lambda: import_entries(event, first, None)),
            ("preview, corrected", lambda: preview_import(event, corrected)),
            ("re-import, corrected", lambda: import_entries(event, corrected, None, remove_missing=True)),
            ("re-import, all changed", lambda: import_entries(event, all_changed, None)),
        ):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                result = step()
                seconds = time.perf_counter() - started
            print(f"{label:22} {args.rows} rows  {seconds:6.3f} s  {len(queries):3d} queries  {_what(result)}")
    finally:
        event.delete()


def _what(result) -> str:
    if hasattr(result, "added"):
        return (f"added {len(result.added)}, changed {len(result.changed)}, unchanged {len(result.unchanged)}, "
                f"not in file {len(result.missing)}, outside policy {len(result.outside_policy)}")
    return f"created {result.created}, updated {result.updated}, removed {result.removed}"


if __name__ == "__main__":
    main()
