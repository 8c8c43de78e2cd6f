"""URLs of the evening's structure: the positions, who sits where, generating, publishing,
swapping two seats."""

from django.urls import path

from tournament.evening import views as positions

urlpatterns = [
    path("tournois/<id:pk>/positions/", positions.position_list, name="position-list"),
    path(
        "tournois/<id:pk>/positions/<id:number>/",
        positions.position_detail,
        name="position-detail",
    ),
    path(
        "tournois/<id:pk>/positions/<id:number>/qui-est-ou/",
        positions.position_who_sits_where,
        name="position-who-sits-where",
    ),
    path(
        "tournois/<id:pk>/positions/generer/",
        positions.position_generate,
        name="position-generate",
    ),
    path(
        "tournois/<id:pk>/positions/<id:number>/regenerer/",
        positions.position_regenerate,
        name="position-regenerate",
    ),
    path(
        "tournois/<id:pk>/positions/<id:number>/publier/",
        positions.position_publish,
        name="position-publish",
    ),
    path(
        "tournois/<id:pk>/positions/<id:number>/echanger/",
        positions.seat_swap,
        name="seat-swap",
    ),
]
