"""Template filters of the venue's pages: a cumulative score as pages show it."""

from __future__ import annotations

from fractions import Fraction

from django import template

from scoring.events.standings import points_text

register = template.Library()


@register.filter
def points(value: Fraction | int | None) -> str:
    """Exact when whole, else to the hundredth ("14,5" carried from 29 at 50 %)."""
    return "" if value is None else points_text(value)
