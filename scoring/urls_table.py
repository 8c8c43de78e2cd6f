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
    path("table/<str:token>/confirmer/", views_table.table_confirm, name="table-confirm"),
    path("table/<str:token>/terminer/", views_table.table_finish, name="table-finish"),
]
