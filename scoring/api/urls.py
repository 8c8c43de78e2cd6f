"""JSON API URLs."""

from django.urls import path

from scoring.api import views as api

urlpatterns = [
    path("api/feuilles/<id:pk>/", api.sheet_state, name="api-sheet"),
    path("api/feuilles/<id:pk>/donnes/", api.deal_create, name="api-deal-create"),
]
