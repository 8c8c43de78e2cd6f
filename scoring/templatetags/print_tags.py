"""Template filters for the printed documents."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def css_string(value: object) -> SafeString:
    """Quote a value as a CSS string, e.g. for @page margin boxes inside a <style> element."""
    text = " ".join(str(value).split())
    for char, escape in (("\\", "\\\\"), ('"', '\\"'), ("<", "\\3C "), (">", "\\3E ")):
        text = text.replace(char, escape)
    return mark_safe(f'"{text}"')


@register.filter
def signed(value: int | None) -> str:
    """A bilan as the sheet prints it: +1346, −446, 0."""
    if value is None:
        return ""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\N{MINUS SIGN}{-value}"
    return "0"
