"""Score entry: the overview, sheets, corrections, history, incidents and penalties at the desk;
the players' table pages (a secret link per table, no account)."""

from django.urls import path

from scoring.sheets.views import deals, incidents, overview, sheets
from scoring.sheets.views import table as views_table

urlpatterns = [
    path("tournois/<id:pk>/saisie/", overview.entry_overview, name="entry-overview"),
    path(
        "tournois/<id:pk>/saisie/position/<id:number>/",
        overview.entry_overview,
        name="entry-overview",
    ),
    path("tournois/<id:pk>/feuilles/libre/", sheets.sheet_free_create, name="sheet-free-create"),
    path("tables/<id:pk>/feuille/", sheets.sheet_for_table, name="sheet-for-table"),
    path("feuilles/<id:pk>/", sheets.sheet_detail, name="sheet-detail"),
    path("feuilles/<id:pk>/apercu/", sheets.deal_preview, name="deal-preview"),
    path("feuilles/<id:pk>/controle/", sheets.sheet_crosscheck, name="sheet-crosscheck"),
    path("feuilles/<id:pk>/historique/", sheets.sheet_history, name="sheet-history"),
    path("feuilles/<id:pk>/validation/", sheets.sheet_validate, name="sheet-validate"),
    path(
        "feuilles/<id:pk>/donne-supplementaire/",
        sheets.sheet_extra_deal,
        name="sheet-extra-deal",
    ),
    path("donnes/<id:pk>/modifier/", sheets.deal_edit, name="deal-edit"),
    path("donnes/<id:pk>/supprimer/", deals.deal_delete, name="deal-delete"),
    path("donnes/<id:pk>/confirmer/", deals.deal_confirm, name="deal-confirm"),
    path(
        "tournois/<id:pk>/saisie/position/<id:number>/validation/",
        overview.position_validate,
        name="position-validate",
    ),
    path(
        "tournois/<id:pk>/saisie/position/<id:number>/codes/",
        overview.table_links_create,
        name="table-links",
    ),
    path(
        "tables/<id:pk>/nouveau-code/",
        overview.table_link_revoke,
        name="table-link-revoke",
    ),
    path("donnes/<id:pk>/score-arbitral/", deals.deal_adjust, name="deal-adjust"),
    path(
        "donnes/<id:pk>/score-arbitral/retrait/",
        deals.deal_adjust_clear,
        name="deal-adjust-clear",
    ),
    path(
        "donnes/<id:pk>/score-non-marque/",
        deals.deal_score_recorded,
        name="deal-score-recorded",
    ),
    path("tournois/<id:pk>/incidents/", incidents.incident_list, name="incident-list"),
    path("tournois/<id:pk>/incidents/nouveau/", incidents.incident_create, name="incident-create"),
    path("tournois/<id:pk>/penalites/", incidents.penalty_settings, name="penalty-settings"),
    path("table/", views_table.table_code, name="table-code"),
    path("table/sw.js", views_table.service_worker, name="table-sw"),
    path("table/<str:token>/", views_table.table_entry_page, name="table-entry"),
    path("table/<str:token>/feuille/", views_table.table_sheet_partial, name="table-sheet"),
    path("table/<str:token>/apercu/", views_table.table_preview, name="table-preview"),
    path("table/<str:token>/donnes/", views_table.table_deal_create, name="table-deal-create"),
    path(
        "table/<str:token>/donnes/<id:number>/",
        views_table.table_deal_correct,
        name="table-deal-correct",
    ),
    path("table/<str:token>/identifier/", views_table.table_identify, name="table-identify"),
    path("table/<str:token>/oublier/", views_table.table_forget, name="table-forget"),
    path("table/<str:token>/confirmer/", views_table.table_confirm, name="table-confirm"),
    path("table/<str:token>/contester/", views_table.table_contest, name="table-contest"),
    path("table/<str:token>/appel/", views_table.table_call, name="table-call"),
    path("table/<str:token>/terminer/", views_table.table_finish, name="table-finish"),
]
