"""URLs of the season championships: the organisers' pages and the public page."""

from django.urls import path

from scoring.views import championship as views

urlpatterns = [
    path("championnats/", views.championship_list, name="championship-list"),
    path("championnats/nouveau/", views.championship_create, name="championship-create"),
    path("championnats/<int:pk>/", views.championship_detail, name="championship-detail"),
    path("championnats/<int:pk>/modifier/", views.championship_edit, name="championship-edit"),
    path(
        "championnats/<int:pk>/classement.pdf",
        views.championship_pdf_view,
        name="championship-pdf",
    ),
    path(
        "championnats/<int:pk>/classement.xlsx",
        views.championship_xlsx_view,
        name="championship-xlsx",
    ),
    path(
        "championnats/<int:pk>/joueur/<int:player>/",
        views.championship_player,
        name="championship-player",
    ),
    path(
        "public/championnat/<int:pk>/",
        views.public_championship,
        name="public-championship",
    ),
    path(
        "public/championnat/<int:pk>/joueur/<int:player>/",
        views.public_championship_player,
        name="public-championship-player",
    ),
]
