"""Score entry: the overview, sheets, corrections, history, incidents and penalties at the desk;
the players' table pages (a secret link per table, no account)."""

from django.urls import path

from scoring.sheets.views import deals, incidents, overview, sheets, waiting
from scoring.sheets.views.table import calls as table_calls
from scoring.sheets.views.table import deals as table_deals
from scoring.sheets.views.table import identity as table_identity
from scoring.sheets.views.table import page as table_page

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
    path("tournois/<id:pk>/donnes-en-attente/", waiting.deals_waiting, name="deals-waiting"),
    path(
        "donnes-tardives/<id:pk>/<str:decision>/",
        waiting.late_deal_decide,
        name="late-deal-decide",
    ),
    path(
        "telephones/<id:pk>/donnes-non-envoyees/",
        waiting.phone_queue_acknowledge,
        name="phone-queue-acknowledge",
    ),
    path("tournois/<id:pk>/incidents/", incidents.incident_list, name="incident-list"),
    path("tournois/<id:pk>/incidents/nouveau/", incidents.incident_create, name="incident-create"),
    path("tournois/<id:pk>/penalites/", incidents.penalty_settings, name="penalty-settings"),
    path("table/", table_page.table_code, name="table-code"),
    path("table/sw.js", table_page.service_worker, name="table-sw"),
    path("table/<str:token>/apercu/", table_deals.table_preview, name="table-preview"),
    path("table/<str:token>/donnes/", table_deals.table_deal_create, name="table-deal-create"),
    path(
        "table/<str:token>/donnes/<id:number>/",
        table_deals.table_deal_correct,
        name="table-deal-correct",
    ),
    path("table/<str:token>/identifier/", table_identity.table_identify, name="table-identify"),
    path("table/<str:token>/oublier/", table_identity.table_forget, name="table-forget"),
    path("table/<str:token>/confirmer/", table_deals.table_confirm, name="table-confirm"),
    path("table/<str:token>/contester/", table_deals.table_contest, name="table-contest"),
    path("table/<str:token>/appel/", table_calls.table_call, name="table-call"),
    path("table/<str:token>/terminer/", table_deals.table_finish, name="table-finish"),
]
