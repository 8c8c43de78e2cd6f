"""URLs of a tournament's documents: printable PDFs, exports and backups (download one, restore one
as a new tournament)."""

from django.urls import path

from scoring.documents.views import backup as views_backup
from scoring.documents.views import championship as views_championship
from scoring.documents.views import events as views_events
from scoring.documents.views import exports as views_exports
from scoring.documents.views import print as views_print
from scoring.documents.views import report as views_report

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
    # The arbiter's report (issue 40): the PDF to sign, and its figures as CSV.
    path(
        "tournois/<id:pk>/impressions/rapport-arbitre.pdf",
        views_report.report_pdf,
        name="print-arbiter-report",
    ),
    path(
        "tournois/<id:pk>/impressions/rapport-arbitre.csv",
        views_report.report_csv,
        name="print-arbiter-report-csv",
    ),
    path(
        "tournois/<id:pk>/sauvegarde/",
        views_backup.backup_download,
        name="tournament-backup",
    ),
    path("tournois/restaurer/", views_backup.backup_restore, name="tournament-restore"),
    path(
        "tournois/<id:pk>/export/classement.xlsx",
        views_exports.export_ranking_xlsx,
        name="export-ranking-xlsx",
    ),
    path(
        "tournois/<id:pk>/export/classement.csv",
        views_exports.export_ranking_csv,
        name="export-ranking-csv",
    ),
    path(
        "tournois/<id:pk>/export/donnes.xlsx",
        views_exports.export_deals_xlsx,
        name="export-deals-xlsx",
    ),
    path(
        "tournois/<id:pk>/export/donnes.csv",
        views_exports.export_deals_csv,
        name="export-deals-csv",
    ),
    path(
        "championnats/<id:pk>/classement.pdf",
        views_championship.championship_pdf_view,
        name="championship-pdf",
    ),
    path(
        "championnats/<id:pk>/classement.xlsx",
        views_championship.championship_xlsx_view,
        name="championship-xlsx",
    ),
    # An event's rankings (issue 26): a session's brackets, or one bracket; seance or cumul.
    path(
        "epreuves/<id:pk>/seances/<id:session>/classement-<slug:kind>.<slug:fmt>",
        views_events.event_session_document,
        name="event-session-document",
    ),
    path(
        "epreuves/<id:pk>/tableaux/<id:bracket>/classement-<slug:kind>.<slug:fmt>",
        views_events.event_bracket_document,
        name="event-bracket-document",
    ),
]
