"""The players' table pages: a secret link per table, no account."""

from django.urls import path

from scoring.views import table as views_table

urlpatterns = [
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
