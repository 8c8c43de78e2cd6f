"""Score entry: the overview, sheets, corrections, history, incidents and penalties."""

from django.urls import path

from scoring.views import deals, incidents, overview, sheets

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
]
