"""The arbiter's desk: score entry, corrections, history, incidents and penalties."""

from django.urls import path

from .views import sheets as views

urlpatterns = [
    path("tournois/<int:pk>/saisie/", views.desk_overview, name="desk-overview"),
    path(
        "tournois/<int:pk>/saisie/position/<int:number>/",
        views.desk_overview,
        name="desk-overview",
    ),
    path("tournois/<int:pk>/feuilles/libre/", views.sheet_free_create, name="sheet-free-create"),
    path("tables/<int:pk>/feuille/", views.sheet_for_table, name="sheet-for-table"),
    path("feuilles/<int:pk>/", views.sheet_detail, name="sheet-detail"),
    path("feuilles/<int:pk>/apercu/", views.deal_preview, name="deal-preview"),
    path("feuilles/<int:pk>/controle/", views.sheet_crosscheck, name="sheet-crosscheck"),
    path("feuilles/<int:pk>/historique/", views.sheet_history, name="sheet-history"),
    path("feuilles/<int:pk>/validation/", views.sheet_validate, name="sheet-validate"),
    path(
        "feuilles/<int:pk>/donne-supplementaire/",
        views.sheet_extra_deal,
        name="sheet-extra-deal",
    ),
    path("donnes/<int:pk>/modifier/", views.deal_edit, name="deal-edit"),
    path("donnes/<int:pk>/supprimer/", views.deal_delete, name="deal-delete"),
    path("donnes/<int:pk>/confirmer/", views.deal_confirm, name="deal-confirm"),
    path(
        "tournois/<int:pk>/saisie/position/<int:number>/codes/",
        views.table_links_create,
        name="desk-table-links",
    ),
    path("tables/<int:pk>/nouveau-code/", views.table_link_revoke, name="desk-table-link-revoke"),
    path("donnes/<int:pk>/score-arbitral/", views.deal_adjust, name="deal-adjust"),
    path("tournois/<int:pk>/incidents/", views.incident_list, name="incident-list"),
    path("tournois/<int:pk>/incidents/nouveau/", views.incident_create, name="incident-create"),
    path("tournois/<int:pk>/penalites/", views.penalty_settings, name="penalty-settings"),
]
