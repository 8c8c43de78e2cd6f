"""Score entry: the overview, sheets, corrections, history, incidents and penalties."""

from django.urls import path

from .views import deals, incidents, overview, sheets

urlpatterns = [
    path("tournois/<int:pk>/saisie/", overview.entry_overview, name="entry-overview"),
    path(
        "tournois/<int:pk>/saisie/position/<int:number>/",
        overview.entry_overview,
        name="entry-overview",
    ),
    path("tournois/<int:pk>/feuilles/libre/", sheets.sheet_free_create, name="sheet-free-create"),
    path("tables/<int:pk>/feuille/", sheets.sheet_for_table, name="sheet-for-table"),
    path("feuilles/<int:pk>/", sheets.sheet_detail, name="sheet-detail"),
    path("feuilles/<int:pk>/apercu/", sheets.deal_preview, name="deal-preview"),
    path("feuilles/<int:pk>/controle/", sheets.sheet_crosscheck, name="sheet-crosscheck"),
    path("feuilles/<int:pk>/historique/", sheets.sheet_history, name="sheet-history"),
    path("feuilles/<int:pk>/validation/", sheets.sheet_validate, name="sheet-validate"),
    path(
        "feuilles/<int:pk>/donne-supplementaire/",
        sheets.sheet_extra_deal,
        name="sheet-extra-deal",
    ),
    path("donnes/<int:pk>/modifier/", sheets.deal_edit, name="deal-edit"),
    path("donnes/<int:pk>/supprimer/", deals.deal_delete, name="deal-delete"),
    path("donnes/<int:pk>/confirmer/", deals.deal_confirm, name="deal-confirm"),
    path(
        "tournois/<int:pk>/saisie/position/<int:number>/codes/",
        overview.table_links_create,
        name="table-links",
    ),
    path(
        "tables/<int:pk>/nouveau-code/",
        overview.table_link_revoke,
        name="table-link-revoke",
    ),
    path("donnes/<int:pk>/score-arbitral/", deals.deal_adjust, name="deal-adjust"),
    path(
        "donnes/<int:pk>/score-arbitral/retrait/",
        deals.deal_adjust_clear,
        name="deal-adjust-clear",
    ),
    path(
        "donnes/<int:pk>/score-non-marque/",
        deals.deal_score_recorded,
        name="deal-score-recorded",
    ),
    path("tournois/<int:pk>/incidents/", incidents.incident_list, name="incident-list"),
    path("tournois/<int:pk>/incidents/nouveau/", incidents.incident_create, name="incident-create"),
    path("tournois/<int:pk>/penalites/", incidents.penalty_settings, name="penalty-settings"),
]
