"""Server-side SVG charts: a pure function from score series to an inline SVG string.

No JavaScript, no external service: the page embeds the returned markup. Colours come from the
Okabe–Ito palette (distinguishable with the common colour-vision deficiencies) and every series also
has its own marker shape and dash pattern, so the chart still reads in grey-scale. The drawing is
sized in a small view box (about a phone's width) so that its text stays legible when scaled down.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

# Okabe & Ito (2008), without the yellow, which is too light on white.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 2 1 2", "12 2")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "triangle-down", "plus", "star")

WIDTH = 400
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP = 48, 12, 28
PLOT_HEIGHT = 200
LEGEND_ROW = 20
FONT = 12


@dataclass(frozen=True)
class Series:
    """One line of the chart: a label and its values at x = 0, 1, 2, …"""

    label: str
    values: Sequence[float]
    emphasis: bool = False  # drawn thicker: the player the page is about


def nice_step(span: float, ticks: int = 5) -> float:
    """A round tick step (1, 2, 2.5 or 5 times a power of ten) giving about ``ticks`` intervals."""
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power  # pragma: no cover - the loop always returns


def _number(value: float) -> str:
    """A tick or value label: float noise from adding tick steps (-0.8 + 4 x 0.2) is rounded away."""
    return f"{round(value, 9) or 0.0:g}"


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    r = 3.5
    fill = f'fill="{colour}" stroke="{colour}"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" {fill}/>'
    if shape == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" {fill}/>'
    if shape in ("triangle", "triangle-down"):
        d = 1 if shape == "triangle" else -1
        points = f"{x:.1f},{y - d * r * 1.2:.1f} {x - r * 1.1:.1f},{y + d * r:.1f} {x + r * 1.1:.1f},{y + d * r:.1f}"
        return f'<polygon points="{points}" {fill}/>'
    if shape == "diamond":
        points = f"{x:.1f},{y - r * 1.3:.1f} {x + r:.1f},{y:.1f} {x:.1f},{y + r * 1.3:.1f} {x - r:.1f},{y:.1f}"
        return f'<polygon points="{points}" {fill}/>'
    if shape == "cross":
        return (
            f'<path d="M{x - r:.1f},{y - r:.1f}L{x + r:.1f},{y + r:.1f}M{x - r:.1f},{y + r:.1f}L{x + r:.1f},{y - r:.1f}"'
            f' stroke="{colour}" stroke-width="2" fill="none"/>'
        )
    if shape == "plus":
        return (
            f'<path d="M{x - r:.1f},{y:.1f}H{x + r:.1f}M{x:.1f},{y - r:.1f}V{y + r:.1f}" stroke="{colour}"'
            ' stroke-width="2" fill="none"/>'
        )
    # star: a five-pointed star
    points = []
    for i in range(10):
        radius = r * 1.4 if i % 2 == 0 else r * 0.6
        angle = math.pi / 2 + i * math.pi / 5
        points.append(f"{x + radius * math.cos(angle):.1f},{y - radius * math.sin(angle):.1f}")
    return f'<polygon points="{" ".join(points)}" {fill}/>'


def cumulative_chart_svg(
    series: Sequence[Series],
    title: str,
    x_label: str = "Hand",
    y_label: str = "Points (cumulative)",
    chart_id: str = "chart",
) -> str:
    """An SVG line chart of ``series`` (one per seat), with axes, tick labels, a title and a legend.

    ``chart_id`` must be unique on the page (it names the title and description for screen readers).
    """
    legend_top = PLOT_TOP + PLOT_HEIGHT + 40
    height = legend_top + LEGEND_ROW * max(len(series), 1) + 4
    plot_width = WIDTH - PLOT_LEFT - PLOT_RIGHT
    plot_bottom = PLOT_TOP + PLOT_HEIGHT
    points_count = max((len(s.values) for s in series), default=0)
    ident = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in chart_id)

    summary = "; ".join(
        f"{s.label}: {_number(s.values[-1]) if len(s.values) else 'no points'}" for s in series
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" class="score-chart" '
        f'role="img" aria-labelledby="{ident}-title {ident}-desc" font-family="system-ui, sans-serif" '
        f'font-size="{FONT}">',
        f'<title id="{ident}-title">{escape(title)}</title>',
        f'<desc id="{ident}-desc">{escape(f"{y_label} after each {x_label.lower()}. Final: {summary}.")}</desc>',
        f'<text x="{WIDTH / 2}" y="16" text-anchor="middle" font-weight="bold">{escape(title)}</text>',
    ]

    all_values = [v for s in series for v in s.values]
    if points_count < 2 or not all_values:
        parts.append(
            f'<text x="{WIDTH / 2}" y="{PLOT_TOP + PLOT_HEIGHT / 2}" text-anchor="middle" fill="#555">'
            "No hands recorded yet</text>"
        )
    low = min(0.0, *all_values) if all_values else 0.0
    high = max(all_values) if all_values else 0.0
    step = nice_step(high - low if high > low else 10)
    low = math.floor(low / step) * step
    top = max(math.ceil(high / step) * step, low + step)
    last_x = max(points_count - 1, 1)

    def sx(index: int) -> float:
        return PLOT_LEFT + plot_width * index / last_x

    def sy(value: float) -> float:
        return plot_bottom - PLOT_HEIGHT * (value - low) / (top - low)

    # Grid and y ticks.
    tick = low
    while tick <= top + step / 1000:
        y = sy(tick)
        parts.append(f'<line x1="{PLOT_LEFT}" y1="{y:.1f}" x2="{WIDTH - PLOT_RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{PLOT_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{_number(tick)}</text>')
        tick += step
    # X ticks: every hand when few, otherwise a round step.
    x_step = max(1, int(nice_step(last_x, 8))) if last_x > 10 else 1
    for index in range(0, last_x + 1, x_step):
        x = sx(index)
        parts.append(f'<line x1="{x:.1f}" y1="{plot_bottom}" x2="{x:.1f}" y2="{plot_bottom + 4}" stroke="#333"/>')
        parts.append(f'<text x="{x:.1f}" y="{plot_bottom + 16}" text-anchor="middle">{index}</text>')
    # Axes and their labels.
    parts.append(
        f'<path d="M{PLOT_LEFT},{PLOT_TOP}V{plot_bottom}H{WIDTH - PLOT_RIGHT}" stroke="#333" fill="none"/>'
    )
    parts.append(
        f'<text x="{PLOT_LEFT + plot_width / 2}" y="{plot_bottom + 32}" text-anchor="middle">{escape(x_label)}</text>'
    )
    parts.append(
        f'<text x="12" y="{PLOT_TOP + PLOT_HEIGHT / 2}" text-anchor="middle" '
        f'transform="rotate(-90 12 {PLOT_TOP + PLOT_HEIGHT / 2})">{escape(y_label)}</text>'
    )

    # One group per series: line, markers, and its legend entry.
    for index, line in enumerate(series):
        colour = PALETTE[index % len(PALETTE)]
        dash = DASHES[index % len(DASHES)]
        marker = MARKERS[index % len(MARKERS)]
        width = 3.5 if line.emphasis else 2
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<g class="series" data-label={quoteattr(line.label)}>')
        coords = [(sx(i), sy(v)) for i, v in enumerate(line.values)]
        if len(coords) >= 2:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{width}"{dash_attr} '
                'stroke-linejoin="round"/>'
            )
        parts.extend(_marker(marker, x, y, colour) for x, y in coords)
        ly = legend_top + LEGEND_ROW * index
        parts.append(
            f'<line x1="{PLOT_LEFT}" y1="{ly:.1f}" x2="{PLOT_LEFT + 32}" y2="{ly:.1f}" stroke="{colour}" '
            f'stroke-width="{width}"{dash_attr}/>'
        )
        parts.append(_marker(marker, PLOT_LEFT + 16, ly, colour))
        final = f" — {_number(line.values[-1])}" if len(line.values) else ""
        weight = ' font-weight="bold"' if line.emphasis else ""
        parts.append(f'<text x="{PLOT_LEFT + 40}" y="{ly + 4:.1f}"{weight}>{escape(line.label + final)}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def cumulative(values: Sequence[float]) -> list[float]:
    """Running totals starting from 0 before the first hand: [10, 0, 5] -> [0, 10, 10, 15]."""
    totals = [0]
    for value in values:
        totals.append(totals[-1] + value)
    return totals
