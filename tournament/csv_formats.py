"""CSV files organizers exchange with the site: eligibility lists in, eligibility lists and standings out.

Reading an eligibility list never raises on bad content: it returns the good rows and, for every bad
row, its row number (as a spreadsheet shows it: the header is row 1) and the reason, so the organizer
sees everything wrong at once. Problems with the file as a whole (not UTF-8, empty, missing columns)
come back as ``file_error``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

ELIGIBILITY_COLUMNS = ("roll_number", "name", "email", "department", "programme", "year")
REQUIRED_COLUMNS = ("roll_number", "name", "email", "department", "programme")  # year may be left out
# Cells that may not be empty. An empty e-mail: whoever registers with the roll number makes a claim an
# organizer confirms; an empty year: not known.
REQUIRED_FIELDS = ("roll_number", "name", "department", "programme")
MAX_EXTRA_COLUMNS = 30
MAX_EXTRA_CELL = 200
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
MAX_YEAR = 10

# Programme spellings accepted (compared lower-case without dots, spaces or hyphens).
PROGRAMME_SPELLINGS = {
    "UG": ("ug", "undergraduate", "undergrad", "btech", "be", "bsc", "bs", "ba", "barch", "bpharm"),
    "PG": ("pg", "postgraduate", "postgrad", "mtech", "me", "msc", "ms", "ma", "mba", "mca", "mphil"),
    "PhD": ("phd", "doctoral", "doctorate", "dphil"),
}
_PROGRAMME_LOOKUP = {spelling: code for code, spellings in PROGRAMME_SPELLINGS.items() for spelling in spellings}


def normalize_programme(value: str) -> str | None:
    """``UG``, ``PG`` or ``PhD`` for a spelling such as "ug", "B.Tech", "M.E." or "Ph.D.", else ``None``."""
    return _PROGRAMME_LOOKUP.get(re.sub(r"[\s.\-]", "", value).lower())


@dataclass(frozen=True)
class RowError:
    row: int
    reason: str
    roll_number: str = ""
    name: str = ""


@dataclass
class EligibilityFile:
    """What was read from an uploaded eligibility list."""

    rows: list[dict] = field(default_factory=list)  # good rows, cleaned, each with its "row" number
    errors: list[RowError] = field(default_factory=list)
    file_error: str = ""
    delimiter: str = ","
    extra_columns: list[str] = field(default_factory=list)  # the file's other columns, in file order

    @property
    def ok(self) -> bool:
        return not self.file_error and not self.errors

    @property
    def importable(self) -> bool:
        return not self.file_error and bool(self.rows)


def read_eligibility_csv(content: bytes) -> EligibilityFile:
    """Read and check an eligibility list on its own (the service compares it with the event's list)."""
    result = EligibilityFile()
    if len(content) > MAX_UPLOAD_BYTES:
        result.file_error = f"The file is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB."
        return result
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        result.file_error = (
            f"The file is not UTF-8 text (undecodable byte at position {error.start}). "
            "Save it from your spreadsheet as \"CSV UTF-8\" and upload it again."
        )
        return result
    if not text.strip():
        result.file_error = "The file is empty."
        return result
    if "\x00" in text:
        result.file_error = ("The file contains NUL characters, so it is not CSV text (is it an .xlsx or "
                             "a UTF-16 file?). Save it from your spreadsheet as \"CSV UTF-8\".")
        return result
    header_line = text.lstrip("\r\n").splitlines()[0]
    result.delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=result.delimiter)
    try:
        lines = list(reader)
    except csv.Error as error:
        result.file_error = f"The file is not readable as CSV: {error}."
        return result
    header_index = next((i for i, line in enumerate(lines) if any(cell.strip() for cell in line)), None)
    if header_index is None:
        result.file_error = "The file has no header line naming its columns."
        return result
    position = _header_positions(lines[header_index], result)
    if result.file_error:
        return result
    seen_rolls: dict[str, int] = {}
    seen_emails: dict[str, tuple[int, str]] = {}
    for offset, line in enumerate(lines[header_index + 1 :]):
        row_number = header_index + 2 + offset
        if not any(cell.strip() for cell in line):
            continue  # blank lines are skipped silently (spreadsheets often add them)
        values = {c: (" ".join(line[i].split()) if i < len(line) else "") for c, i in position.items()}
        reasons = _row_problems(values, result.extra_columns)
        roll, email = values["roll_number"], values["email"].casefold()
        if roll:
            if roll.casefold() in seen_rolls:
                reasons.append(f"roll number {roll} appears twice in the file (also row {seen_rolls[roll.casefold()]})")
            else:
                seen_rolls[roll.casefold()] = row_number
        if email:
            if email in seen_emails:
                other_row, other_roll = seen_emails[email]
                reasons.append(f"e-mail {values['email']} appears twice in the file "
                               f"(also row {other_row}, roll number {other_roll or '(none)'})")
            else:
                seen_emails[email] = (row_number, roll)
        if reasons:
            result.errors.append(RowError(row_number, "; ".join(reasons), roll, values["name"]))
        else:
            result.rows.append(_cleaned(values, row_number, result.extra_columns))
    if not result.rows and not result.errors:
        result.file_error = "The file has a header but no rows."
    return result


def _header_positions(cells: list[str], result: EligibilityFile) -> dict[str, int]:
    """Column name → position; sets ``result.file_error`` for a missing or repeated column."""
    header = [" ".join(cell.split()).lower() for cell in cells]
    missing = [column for column in REQUIRED_COLUMNS if column not in header]
    if missing:
        result.file_error = (
            f"Missing column{'s' if len(missing) > 1 else ''}: {', '.join(missing)}. "
            f"The first line must name the columns: {','.join(ELIGIBILITY_COLUMNS)} "
            "(year may be left out; other columns are kept with each entry)."
        )
        return {}
    named = [name for name in header if name]
    repeated = sorted({name for name in named if named.count(name) > 1})
    if repeated:
        result.file_error = f"Column{'s' if len(repeated) > 1 else ''} named twice in the first line: {', '.join(repeated)}."
        return {}
    result.extra_columns = [name for name in header if name and name not in ELIGIBILITY_COLUMNS]
    if len(result.extra_columns) > MAX_EXTRA_COLUMNS:
        result.file_error = f"The file has {len(result.extra_columns)} other columns; at most {MAX_EXTRA_COLUMNS} are kept."
        return {}
    columns = [c for c in ELIGIBILITY_COLUMNS if c in header] + result.extra_columns
    position = {column: header.index(column) for column in columns}
    position.setdefault("year", len(cells) + 1)  # no year column: every year is empty
    return position


def _row_problems(values: dict[str, str], extra_columns: list[str]) -> list[str]:
    reasons = [f"{name} is missing" for name in REQUIRED_FIELDS if not values[name]]
    if values["email"]:
        try:
            validate_email(values["email"])
        except ValidationError:
            reasons.append(f"e-mail {values['email']!r} is not a valid address")
    if values["programme"] and normalize_programme(values["programme"]) is None:
        reasons.append(f"programme {values['programme']!r} is unknown (use UG, PG or PhD)")
    if values["year"]:
        if not values["year"].isdigit() or not 1 <= int(values["year"]) <= MAX_YEAR:
            reasons.append(f"year {values['year']!r} is not a whole number from 1 to {MAX_YEAR}")
    for name, limit in (("roll_number", 40), ("name", 200), ("department", 200), ("email", 254)):
        if len(values[name]) > limit:
            reasons.append(f"{name} is longer than {limit} characters")
    reasons.extend(f"{name} is longer than {MAX_EXTRA_CELL} characters"
                   for name in extra_columns if len(values[name]) > MAX_EXTRA_CELL)
    return reasons


def _cleaned(values: dict[str, str], row_number: int, extra_columns: list[str]) -> dict:
    return {
        "row": row_number,
        "roll_number": values["roll_number"],
        "name": values["name"],
        "email": values["email"].lower(),
        "department": values["department"],
        "programme": normalize_programme(values["programme"]),
        "year": int(values["year"]) if values["year"] else None,
        "extra": {name: values[name] for name in extra_columns},
    }


def _cell(value) -> str:
    """Text a spreadsheet will not run as a formula (a name starting with "=" stays a name)."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def write_eligibility_csv(entries: Iterable) -> str:
    """The eligibility entries as a CSV in the upload format, their other columns after the fixed ones
    (so an export can be edited and re-imported)."""
    entries = list(entries)
    extra_columns = list(dict.fromkeys(name for entry in entries for name in (getattr(entry, "extra", None) or {})))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow((*ELIGIBILITY_COLUMNS, *extra_columns))
    for entry in entries:
        extra = getattr(entry, "extra", None) or {}
        writer.writerow([_cell(entry.roll_number), _cell(entry.name), _cell(entry.email),
                         _cell(entry.department), entry.programme, _cell(entry.year),
                         *(_cell(extra.get(name, "")) for name in extra_columns)])
    return out.getvalue()


STANDINGS_COLUMNS = ("rank", "place", "player", "points_won", "games_won", "hands_won", "points_left", "status")


def write_standings_csv(rows: Iterable) -> str:
    """Leaderboard rows (``tournament.standings.StandingRow``) as CSV, in rank order; ``place`` is the place
    as the leaderboard shows it (shared places read "5-6")."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(STANDINGS_COLUMNS)
    for row in rows:
        writer.writerow([row.rank, row.place_label, _cell(row.display_name), row.points_won, row.games_won, row.hands_won,
                         row.points_left, row.status])
    return out.getvalue()
