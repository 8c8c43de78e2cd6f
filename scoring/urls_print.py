"""Printable PDFs of a tournament (arbiters and scorers)."""

from django.urls import path

from . import views_print

urlpatterns = [
    path(
        "tournois/<int:pk>/impressions/positions/<int:number>/feuilles-vierges.pdf",
        views_print.blank_sheets,
        name="print-blank-sheets",
    ),
    path(
        "tournois/<int:pk>/impressions/positions/<int:number>/feuilles.pdf",
        views_print.position_sheets,
        name="print-sheets",
    ),
    path("feuilles/<int:pk>/impression.pdf", views_print.one_sheet, name="print-sheet"),
]
