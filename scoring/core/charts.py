"""Small server-rendered SVG charts (bars, sparkline) for the statistics pages. Pure Python.

Each chart is one inline <svg> with role="img", an aria-label, a <title> and a <desc> that says
in words what it shows, so a screen reader gets the figures a sighted reader sees. Every text
that comes from outside (players' names, labels) is escaped here; the caller passes labels
already translated. No script, no stylesheet, nothing fetched: colours come from the page's CSS
classes (`chart-bar`, `chart-part`, …) with plain fallbacks in the attributes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

SVG_NS = "http://www.w3.org/2000/svg"


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    part: float | None = None  # drawn inside the bar from the bottom (e.g. contracts made)
    note: str = ""  # a second line under the label (e.g. "75 %")
    title: str = ""  # what the bar says in words (tooltip and screen readers)


def _ident(title: str, desc: str) -> str:
    return "chart-" + hashlib.sha1(f"{title}\n{desc}".encode()).hexdigest()[:10]


def _open(
    width: int, height: int, title: str, desc: str, ident: str | None, css: str
) -> tuple[str, str]:
    ident = ident or _ident(title, desc)
    head = (
        f'<svg xmlns="{SVG_NS}" class="chart {escape(css)}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" '
        f'aria-labelledby="{ident}-title {ident}-desc">'
        f'<title id="{ident}-title">{escape(title)}</title>'
        f'<desc id="{ident}-desc">{escape(desc)}</desc>'
    )
    return head, "</svg>"


def _fmt(number: float) -> str:
    return f"{number:.2f}".rstrip("0").rstrip(".")


def bar_chart(
    bars: Sequence[Bar],
    *,
    title: str,
    desc: str,
    width: int = 320,
    height: int = 170,
    ident: str | None = None,
) -> str:
    """Vertical bars whose heights are proportional to their values (the tallest fills the
    plot); a bar's `part` is drawn inside it in a darker shade."""
    head, tail = _open(width, height, title, desc, ident, "bars")
    top, bottom = 18, 34  # room for the value above and the two label lines below
    plot = height - top - bottom
    largest = max((bar.value for bar in bars), default=0) or 1
    slot = width / max(len(bars), 1)
    bar_width = min(slot * 0.6, 48)
    parts = [head]
    baseline = top + plot
    parts.append(
        f'<line class="chart-axis" x1="0" y1="{baseline}" x2="{width}" y2="{baseline}" '
        'stroke="#888" stroke-width="1"/>'
    )
    for index, bar in enumerate(bars):
        x = slot * index + (slot - bar_width) / 2
        centre = slot * index + slot / 2
        bar_height = plot * max(bar.value, 0) / largest
        said = escape(bar.title or f"{bar.label} : {_fmt(bar.value)}")
        parts.append(f'<g class="chart-item"><title>{said}</title>')
        parts.append(
            f'<rect class="chart-bar" x="{_fmt(x)}" y="{_fmt(baseline - bar_height)}" '
            f'width="{_fmt(bar_width)}" height="{_fmt(bar_height)}" fill="#9ab8d8"/>'
        )
        if bar.part is not None:
            part_height = plot * max(min(bar.part, bar.value), 0) / largest
            parts.append(
                f'<rect class="chart-part" x="{_fmt(x)}" y="{_fmt(baseline - part_height)}" '
                f'width="{_fmt(bar_width)}" height="{_fmt(part_height)}" fill="#2f6aa3"/>'
            )
        parts.append(
            f'<text class="chart-value" x="{_fmt(centre)}" y="{_fmt(baseline - bar_height - 4)}" '
            f'text-anchor="middle" font-size="11">{escape(_fmt(bar.value))}</text>'
            f'<text class="chart-label" x="{_fmt(centre)}" y="{baseline + 14}" '
            f'text-anchor="middle" font-size="11">{escape(bar.label)}</text>'
        )
        if bar.note:
            parts.append(
                f'<text class="chart-note" x="{_fmt(centre)}" y="{baseline + 28}" '
                f'text-anchor="middle" font-size="10">{escape(bar.note)}</text>'
            )
        parts.append("</g>")
    parts.append(tail)
    return "".join(parts)


def sparkline(
    values: Sequence[float],
    *,
    title: str,
    desc: str,
    labels: Sequence[str] = (),
    width: int = 240,
    height: int = 56,
    ident: str | None = None,
) -> str:
    """A line through the values, left to right, with the zero line and a dot per value
    (its label and value as a tooltip)."""
    head, tail = _open(width, height, title, desc, ident, "sparkline")
    pad = 5
    low = min(min(values, default=0), 0)
    high = max(max(values, default=0), 0)
    span = (high - low) or 1
    step = (width - 2 * pad) / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return pad + (high - value) * (height - 2 * pad) / span

    parts = [head]
    parts.append(
        f'<line class="chart-zero" x1="0" y1="{_fmt(y(0))}" x2="{width}" y2="{_fmt(y(0))}" '
        'stroke="#bbb" stroke-width="1" stroke-dasharray="3 3"/>'
    )
    points = [(pad + step * index, y(value)) for index, value in enumerate(values)]
    if len(points) > 1:
        path = " ".join(f"{_fmt(px)},{_fmt(py)}" for px, py in points)
        parts.append(
            f'<polyline class="chart-line" points="{path}" fill="none" stroke="#2f6aa3" '
            'stroke-width="2"/>'
        )
    for index, ((px, py), value) in enumerate(zip(points, values, strict=True)):
        label = labels[index] if index < len(labels) else str(index + 1)
        sign = "+" if value > 0 else ""
        parts.append(
            f'<circle class="chart-dot{" minus" if value < 0 else ""}" cx="{_fmt(px)}" '
            f'cy="{_fmt(py)}" r="3" fill="{"#b33" if value < 0 else "#2f6aa3"}">'
            f"<title>{escape(label)} : {sign}{_fmt(value)}</title></circle>"
        )
    parts.append(tail)
    return "".join(parts)
