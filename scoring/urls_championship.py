"""URLs of the season championships: the organisers' pages and the public page."""

from django.urls import path

from scoring.views import championship as views

urlpatterns = [
    path("championnats/", views.championship_list, name="championship-list"),
    path("championnats/nouveau/", views.championship_create, name="championship-create"),
    path("championnats/<id:pk>/", views.championship_detail, name="championship-detail"),
    path("championnats/<id:pk>/modifier/", views.championship_edit, name="championship-edit"),
    path(
        "championnats/<id:pk>/classement.pdf",
        views.championship_pdf_view,
        name="championship-pdf",
    ),
    path(
        "championnats/<id:pk>/classement.xlsx",
        views.championship_xlsx_view,
        name="championship-xlsx",
    ),
    path(
        "championnats/<id:pk>/joueur/<id:player>/",
        views.championship_player,
        name="championship-player",
    ),
    path(
        "public/championnat/<id:pk>/",
        views.public_championship,
        name="public-championship",
    ),
    path(
        "public/championnat/<id:pk>/joueur/<id:player>/",
        views.public_championship_player,
        name="public-championship-player",
    ),
]
