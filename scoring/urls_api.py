"""JSON API URLs."""

from django.urls import path

from . import api

urlpatterns = [
    path("api/feuilles/<int:pk>/", api.sheet_state, name="api-sheet"),
    path("api/feuilles/<int:pk>/donnes/", api.deal_create, name="api-deal-create"),
]
