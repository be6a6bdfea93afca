"""The server-side SVG chart: valid XML, one series per seat, legend, axes, escaping, distinct styles."""

import xml.etree.ElementTree as ET

from tournament.charts import DASHES, MARKERS, PALETTE, Series, cumulative, cumulative_chart_svg, nice_step

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def four_seats():
    return [
        Series("Asha", cumulative([30, 0, 12]), emphasis=True),
        Series("Ravi", cumulative([0, 40, 0])),
        Series("Meera", cumulative([0, 0, 0])),
        Series("Bot 4", cumulative([0, 0, 5])),
    ]


def test_cumulative_starts_at_zero():
    assert cumulative([10, 0, 5]) == [0, 10, 10, 15]
    assert cumulative([]) == [0]


def test_svg_parses_and_has_one_series_per_seat_with_its_points():
    root = parse(cumulative_chart_svg(four_seats(), title="Table 1 · game 1"))
    assert root.tag == f"{SVG}svg" and root.get("viewBox")
    groups = root.findall(f"{SVG}g")
    assert [g.get("data-label") for g in groups] == ["Asha", "Ravi", "Meera", "Bot 4"]
    for group in groups:
        polyline = group.find(f"{SVG}polyline")
        assert len(polyline.get("points").split()) == 4, "hand 0 plus three hands"


def test_each_series_has_its_own_colour_marker_and_dash():
    svg = cumulative_chart_svg(four_seats(), title="t")
    root = parse(svg)
    colours = [g.find(f"{SVG}polyline").get("stroke") for g in root.findall(f"{SVG}g")]
    dashes = [g.find(f"{SVG}polyline").get("stroke-dasharray") for g in root.findall(f"{SVG}g")]
    assert colours == list(PALETTE[:4]) and len(set(colours)) == 4
    assert len(set(dashes)) == 4
    assert len(set(MARKERS)) == len(MARKERS) and len(set(DASHES)) == len(DASHES)
    shapes = [{child.tag for child in g} - {f"{SVG}polyline", f"{SVG}line", f"{SVG}text"} for g in root.findall(f"{SVG}g")]
    assert shapes[0] == {f"{SVG}circle"} and shapes[1] == {f"{SVG}rect"} and shapes[2] == {f"{SVG}polygon"}


def test_title_axes_labels_and_legend_with_final_totals():
    root = parse(cumulative_chart_svg(four_seats(), title="Table 1", x_label="Hand", y_label="Points won"))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Table 1" in texts and "Hand" in texts and "Points won" in texts
    assert "Asha — 42" in texts and "Ravi — 40" in texts
    assert root.find(f"{SVG}title").text == "Table 1"
    assert "Asha: 42" in root.find(f"{SVG}desc").text
    # y ticks are round numbers covering the highest total.
    ticks = [float(t) for t in texts if t and t.replace(".", "").isdigit()]
    assert max(ticks) >= 42


def test_labels_are_escaped():
    svg = cumulative_chart_svg([Series('<script>"x"&', [0, 1])], title="<b>")
    root = parse(svg)
    assert "<script>" not in svg
    assert root.find(f"{SVG}g").get("data-label") == '<script>"x"&'


def test_no_hands_yet_still_draws_a_valid_chart():
    root = parse(cumulative_chart_svg([Series("Asha", [0]), Series("Ravi", [0])], title="empty"))
    assert any(t.text == "No hands recorded yet" for t in root.iter(f"{SVG}text"))
    assert parse(cumulative_chart_svg([], title="nothing")) is not None


def test_many_hands_thin_out_the_x_ticks():
    root = parse(cumulative_chart_svg([Series("A", cumulative([5] * 60))], title="long"))
    x_ticks = [t for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "middle" and (t.text or "").isdigit()]
    assert 5 <= len(x_ticks) <= 16


def test_nice_step():
    assert nice_step(42) == 10
    assert nice_step(500) == 100
    assert nice_step(7) == 2
    assert nice_step(0) == 1


def test_tick_labels_carry_no_float_noise():
    svg = cumulative_chart_svg([Series("rating", [0.0, -0.61])], "Rating", x_label="Game", y_label="Rating")
    assert "e-1" not in svg and ">0</text>" in svg and ">-0.2</text>" in svg
