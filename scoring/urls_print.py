"""Printable PDFs of a tournament (arbiters and scorers)."""

from django.urls import path

from . import views_print

urlpatterns = [
    path(
        "tournois/<int:pk>/impressions/positions/<int:number>/feuilles-vierges.pdf",
        views_print.blank_sheets,
        name="print-blank-sheets",
    ),
]
