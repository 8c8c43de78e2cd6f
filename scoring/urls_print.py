"""Printable PDFs of a tournament (arbiters and scorers)."""

from django.urls import path

from scoring.views import print as views_print

urlpatterns = [
    path("tournois/<id:pk>/impressions/", views_print.print_index, name="print-index"),
    path(
        "tournois/<id:pk>/impressions/positions/<id:number>/feuilles-vierges.pdf",
        views_print.blank_sheets,
        name="print-blank-sheets",
    ),
    path(
        "tournois/<id:pk>/impressions/positions/<id:number>/feuilles.pdf",
        views_print.position_sheets,
        name="print-sheets",
    ),
    path("feuilles/<id:pk>/impression.pdf", views_print.one_sheet, name="print-sheet"),
    # Without a position number: every drawn position, each on its own page.
    path(
        "tournois/<id:pk>/impressions/plan-des-tables.pdf",
        views_print.table_plan,
        name="print-table-plan",
    ),
    path(
        "tournois/<id:pk>/impressions/positions/<id:number>/plan-des-tables.pdf",
        views_print.table_plan,
        name="print-table-plan",
    ),
    path(
        "tournois/<id:pk>/impressions/qui-est-ou.pdf",
        views_print.who_sits_where,
        name="print-who-sits-where",
    ),
    path(
        "tournois/<id:pk>/impressions/positions/<id:number>/qui-est-ou.pdf",
        views_print.who_sits_where,
        name="print-who-sits-where",
    ),
    path(
        "tournois/<id:pk>/impressions/itineraires.pdf",
        views_print.itineraries,
        name="print-itineraries",
    ),
    path("tournois/<id:pk>/impressions/classement.pdf", views_print.ranking, name="print-ranking"),
]
