"""URLs of a club: its members (administrators only)."""

from django.urls import path

from tournament.clubs import views

urlpatterns = [
    path("clubs/<id:pk>/membres/", views.club_members, name="club-members"),
    path(
        "clubs/<id:pk>/membres/<id:member>/retirer/",
        views.club_member_remove,
        name="club-member-remove",
    ),
]
