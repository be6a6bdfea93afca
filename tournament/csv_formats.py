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
REQUIRED_FIELDS = ("roll_number", "name", "department", "programme")  # no e-mail: a claim an organizer confirms
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


@dataclass
class EligibilityFile:
    """What was read from an uploaded eligibility list."""

    rows: list[dict] = field(default_factory=list)  # good rows, cleaned, each with its "row" number
    errors: list[RowError] = field(default_factory=list)
    file_error: str = ""
    delimiter: str = ","

    @property
    def ok(self) -> bool:
        return not self.file_error and not self.errors

    @property
    def importable(self) -> bool:
        return not self.file_error and bool(self.rows)


def read_eligibility_csv(content: bytes, existing_roll_numbers: Iterable[str] = ()) -> EligibilityFile:
    """Read and check an eligibility list; ``existing_roll_numbers`` are already on the event's list."""
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
    header_line = text.lstrip("\r\n").splitlines()[0]
    result.delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=result.delimiter)
    try:
        lines = list(reader)
    except csv.Error as error:
        result.file_error = f"The file is not readable as CSV: {error}."
        return result
    header_index = next(i for i, line in enumerate(lines) if any(cell.strip() for cell in line))
    header = [cell.strip().lower() for cell in lines[header_index]]
    missing = [column for column in ELIGIBILITY_COLUMNS if column not in header]
    if missing:
        result.file_error = (
            f"Missing column{'s' if len(missing) > 1 else ''}: {', '.join(missing)}. "
            f"The first line must name the columns: {','.join(ELIGIBILITY_COLUMNS)}."
        )
        return result
    position = {column: header.index(column) for column in ELIGIBILITY_COLUMNS}
    known = {roll.casefold() for roll in existing_roll_numbers}
    seen_in_file: dict[str, int] = {}
    data_lines = lines[header_index + 1 :]
    for offset, line in enumerate(data_lines):
        row_number = header_index + 2 + offset
        if not any(cell.strip() for cell in line):
            continue  # blank lines are skipped silently (spreadsheets often add them)
        values = {c: (line[i].strip() if i < len(line) else "") for c, i in position.items()}
        reasons = _row_problems(values)
        roll = values["roll_number"]
        if roll:
            if roll.casefold() in known:
                reasons.append(f"roll number {roll} is already on the list")
            elif roll.casefold() in seen_in_file:
                reasons.append(f"roll number {roll} appears twice in the file (also row {seen_in_file[roll.casefold()]})")
            else:
                seen_in_file[roll.casefold()] = row_number
        if reasons:
            result.errors.append(RowError(row_number, "; ".join(reasons)))
        else:
            result.rows.append(_cleaned(values, row_number))
    if not result.rows and not result.errors:
        result.file_error = "The file has a header but no rows."
    return result


def _row_problems(values: dict[str, str]) -> list[str]:
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
    return reasons


def _cleaned(values: dict[str, str], row_number: int) -> dict:
    return {
        "row": row_number,
        "roll_number": values["roll_number"],
        "name": values["name"],
        "email": values["email"].lower(),
        "department": values["department"],
        "programme": normalize_programme(values["programme"]),
        "year": int(values["year"]) if values["year"] else None,
    }


def _cell(value) -> str:
    """Text a spreadsheet will not run as a formula (a name starting with "=" stays a name)."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def write_eligibility_csv(entries: Iterable) -> str:
    """The eligibility entries as a CSV in the upload format (so an export can be edited and re-imported)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(ELIGIBILITY_COLUMNS)
    for entry in entries:
        writer.writerow([_cell(entry.roll_number), _cell(entry.name), _cell(entry.email),
                         _cell(entry.department), entry.programme, _cell(entry.year)])
    return out.getvalue()


STANDINGS_COLUMNS = ("rank", "player", "points_won", "games_won", "hands_won", "points_left", "status")


def write_standings_csv(rows: Iterable) -> str:
    """Leaderboard rows (``tournament.standings.StandingRow``) as CSV, in rank order."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(STANDINGS_COLUMNS)
    for row in rows:
        writer.writerow([row.rank, _cell(row.display_name), row.points_won, row.games_won, row.hands_won,
                         row.points_left, row.status])
    return out.getvalue()
