"""The statistics' SVG charts: valid XML, bars in proportion, texts escaped, accessible."""

import xml.etree.ElementTree as ET

import pytest

from scoring.core.charts import SVG_NS, Bar, bar_chart, sparkline

NS = {"svg": SVG_NS}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_bar_heights_are_proportional_to_the_values():
    svg = bar_chart(
        [Bar("Prise", 2), Bar("Garde", 8, part=6), Bar("Garde sans", 4), Bar("Garde contre", 0)],
        title="Contrats",
        desc="Prises par contrat",
    )
    root = parse(svg)
    bars = root.findall(".//svg:rect[@class='chart-bar']", NS)
    heights = [float(bar.get("height")) for bar in bars]
    assert heights[1] > 0 and heights[3] == 0
    assert heights[0] / heights[1] == pytest.approx(2 / 8, rel=1e-3)
    assert heights[2] / heights[1] == pytest.approx(4 / 8, rel=1e-3)
    part = root.find(".//svg:rect[@class='chart-part']", NS)
    assert float(part.get("height")) / heights[1] == pytest.approx(6 / 8, rel=1e-3)
    # Every bar stands on the same baseline.
    bottoms = {round(float(b.get("y")) + float(b.get("height")), 3) for b in bars}
    assert len(bottoms) == 1
    assert [t.text for t in root.findall(".//svg:text[@class='chart-label']", NS)] == [
        "Prise",
        "Garde",
        "Garde sans",
        "Garde contre",
    ]


def test_names_are_escaped_and_the_chart_says_what_it_shows():
    hostile = 'DUPONT <script>alert("x")</script> & Cie'
    svg = bar_chart([Bar(hostile, 3, note="75 %")], title=f"Contrats — {hostile}", desc=hostile)
    assert "<script>" not in svg
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.get("aria-label") == f"Contrats — {hostile}"
    title = root.find("svg:title", NS)
    desc = root.find("svg:desc", NS)
    assert title.text == f"Contrats — {hostile}" and desc.text == hostile
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert root.find(".//svg:text[@class='chart-label']", NS).text == hostile
    assert root.find(".//svg:g/svg:title", NS).text == f"{hostile} : 3"


def test_a_chart_without_any_value_is_still_valid():
    assert parse(bar_chart([], title="Vide", desc="Aucune prise")).tag == f"{{{SVG_NS}}}svg"
    assert parse(bar_chart([Bar("Prise", 0)], title="Zéro", desc="Aucune")) is not None
    root = parse(sparkline([], title="Points", desc="Aucune donne"))
    assert root.findall(".//svg:circle", NS) == []


def test_the_sparkline_goes_through_every_value_in_order_with_zero_as_reference():
    values = [120, -40, 0, 300]
    root = parse(
        sparkline(values, labels=["P1", "P2", "P3", "P4 <&>"], title="Points", desc="Par position")
    )
    dots = root.findall(".//svg:circle", NS)
    assert len(dots) == 4
    xs = [float(d.get("cx")) for d in dots]
    ys = [float(d.get("cy")) for d in dots]
    assert xs == sorted(xs)
    zero = float(root.find(".//svg:line[@class='chart-zero']", NS).get("y1"))
    # Higher points are higher up (smaller y); zero sits on the reference line.
    assert ys[3] < ys[0] < zero < ys[1]
    assert ys[2] == zero
    # Vertical distances are proportional to the values.
    assert (zero - ys[3]) / (zero - ys[0]) == pytest.approx(300 / 120, rel=1e-3)
    assert dots[3].find("svg:title", NS).text == "P4 <&> : +300"
    line = root.find(".//svg:polyline", NS)
    assert len(line.get("points").split()) == 4


def test_a_single_value_or_equal_values_draw_without_dividing_by_zero():
    assert len(parse(sparkline([5], title="Un", desc="Un")).findall(".//svg:circle", NS)) == 1
    assert (
        len(parse(sparkline([0, 0], title="Nuls", desc="Nuls")).findall(".//svg:circle", NS)) == 2
    )
