"""URLs of a club: its members (administrators only); an account's invitations."""

from django.urls import path

from tournament.clubs import views

urlpatterns = [
    path("clubs/invitations/", views.club_invitations, name="club-invitations"),
    path(
        "clubs/invitations/<id:pk>/repondre/",
        views.club_invitation_answer,
        name="club-invitation-answer",
    ),
    path("clubs/<id:pk>/membres/", views.club_members, name="club-members"),
    path("clubs/<id:pk>/identite/", views.club_identity, name="club-identity"),
    path(
        "clubs/<id:pk>/membres/<id:member>/retirer/",
        views.club_member_remove,
        name="club-member-remove",
    ),
]
