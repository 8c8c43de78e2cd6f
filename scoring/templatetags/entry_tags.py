"""The desk's entry form: an error that already names its field is not prefixed again."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def names_field(error: object, label: object) -> bool:
    """Whether the message starts with the field's label ("Chiffre du preneur : 317 …")."""
    return str(error).startswith(f"{label} :")
