"""Certificates and the results sheet of an event as one PDF, drawn with reportlab from plain values (no
database: ``tournament.services.results_sheet`` gathers them).

One landscape A4 page per certificate (name, event, date, place or "Participant"), then the results
sheet on portrait pages: every place, then the bracket stage by stage, table by table. Everything is real
text (a reader can search and copy it, and the tests read it back), in the Vera font reportlab ships,
embedded as a subset: it has the Latin letters of Western European languages; a letter outside it
prints as an empty box. A name too long for a certificate's line is set in smaller type.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONT, BOLD = "Vera", "VeraBd"
PARTICIPANT = "Participant"


@dataclass(frozen=True)
class Certificate:
    name: str
    place: str  # "3", "5-6", or "" for a participant without a place


@dataclass(frozen=True)
class PlaceLine:
    place: str
    name: str
    points: int
    mark: str = ""  # "no-show", "not seated", "withdrawn"...


@dataclass(frozen=True)
class TableLines:
    title: str  # "Table 2"
    players: list[tuple[str, int, bool]]  # (name, points, went on), in seat order


@dataclass(frozen=True)
class StageLines:
    title: str  # "Stage 1", "Final"
    tables: list[TableLines]


@dataclass
class ResultsDocument:
    event: str
    date: str  # as printed: "23 November 2026"
    certificates: list[Certificate] = field(default_factory=list)
    places: list[PlaceLine] = field(default_factory=list)  # the results sheet; empty: no sheet
    stages: list[StageLines] = field(default_factory=list)


def _fonts() -> None:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, "Vera.ttf"))
        pdfmetrics.registerFont(TTFont(BOLD, "VeraBd.ttf"))


def place_words(place: str) -> str:
    """How a certificate says the place: "1st place", "5th-6th place (shared)", or "Participant"."""
    if not place:
        return PARTICIPANT
    parts = place.split("-")
    words = "-".join(_ordinal(int(p)) for p in parts)
    return f"{words} place" + (" (shared)" if len(parts) > 1 else "")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _centred(canvas: Canvas, text: str, font: str, size: float, x: float, y: float, room: float) -> None:
    """``text`` centred on ``x`` at ``y``, its type made smaller until it fits in ``room`` (a long name)."""
    while size > 8 and pdfmetrics.stringWidth(text, font, size) > room:
        size -= 1
    canvas.setFont(font, size)
    canvas.drawCentredString(x, y, text)


def _certificate(canvas: Canvas, document: ResultsDocument, certificate: Certificate) -> None:
    width, height = landscape(A4)
    canvas.setPageSize((width, height))
    canvas.setLineWidth(3)
    canvas.rect(12 * mm, 12 * mm, width - 24 * mm, height - 24 * mm)
    canvas.setLineWidth(1)
    canvas.rect(16 * mm, 16 * mm, width - 32 * mm, height - 32 * mm)
    middle = width / 2
    canvas.setFont(BOLD, 34)
    canvas.drawCentredString(middle, height - 55 * mm, "Certificate")
    canvas.setFont(FONT, 16)
    canvas.drawCentredString(middle, height - 75 * mm, "This certifies that")
    room = width - 50 * mm
    _centred(canvas, certificate.name, BOLD, 30, middle, height - 95 * mm, room)
    canvas.setFont(FONT, 16)
    canvas.drawCentredString(middle, height - 112 * mm, "took part in")
    _centred(canvas, document.event, BOLD, 22, middle, height - 127 * mm, room)
    canvas.setFont(BOLD, 26)
    canvas.drawCentredString(middle, height - 150 * mm, place_words(certificate.place))
    canvas.setFont(FONT, 14)
    canvas.drawCentredString(middle, 30 * mm, document.date)
    canvas.showPage()


class _Sheet:
    """Portrait pages of lines, a new page when one is full."""

    def __init__(self, canvas: Canvas, title: str) -> None:
        self.canvas, self.title = canvas, title
        self.width, self.height = A4
        self.y = 0.0

    def _page(self) -> None:
        if self.y:
            self.canvas.showPage()
        self.canvas.setPageSize(A4)
        self.canvas.setFont(BOLD, 14)
        self.canvas.drawString(18 * mm, self.height - 18 * mm, self.title)
        self.y = self.height - 28 * mm

    def line(self, text: str, size: int = 10, bold: bool = False, indent: float = 0) -> None:
        if self.y < 18 * mm + size or not self.y:
            self._page()
        self.canvas.setFont(BOLD if bold else FONT, size)
        self.canvas.drawString(18 * mm + indent, self.y, text)
        self.y -= size * 1.5

    def columns(self, cells: list[tuple[float, str]], size: int = 10, bold: bool = False) -> None:
        if self.y < 18 * mm + size or not self.y:
            self._page()
        self.canvas.setFont(BOLD if bold else FONT, size)
        for x, text in cells:
            self.canvas.drawString(18 * mm + x, self.y, text)
        self.y -= size * 1.5

    def end(self) -> None:
        if self.y:
            self.canvas.showPage()


def _results_sheet(canvas: Canvas, document: ResultsDocument) -> None:
    sheet = _Sheet(canvas, f"{document.event}: results ({document.date})")
    sheet.line("Places", 12, bold=True)
    sheet.columns([(0, "Place"), (25 * mm, "Player"), (120 * mm, "Points won")], bold=True)
    for line in document.places:
        name = f"{line.name} ({line.mark})" if line.mark else line.name
        sheet.columns([(0, line.place), (25 * mm, name), (120 * mm, str(line.points))])
    for stage in document.stages:
        sheet.line("")
        sheet.line(stage.title, 12, bold=True)
        for table in stage.tables:
            sheet.line(table.title, bold=True, indent=4 * mm)
            for name, points, went_on in table.players:
                sheet.columns([(8 * mm, name), (90 * mm, f"{points} points"),
                               (120 * mm, "went on" if went_on else "")])
    sheet.end()


def results_pdf(document: ResultsDocument) -> bytes:
    """The certificates, then the results sheet when the document has places."""
    _fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=landscape(A4), pageCompression=1)
    canvas.setTitle(f"{document.event}: certificates and results")
    for certificate in document.certificates:
        _certificate(canvas, document, certificate)
    if document.places:
        _results_sheet(canvas, document)
    canvas.save()
    return out.getvalue()
