"""URLs of online pre-registration (public, for phones) and of the check-in at the door."""

from django.urls import path

from tournament.signup import views

urlpatterns = [
    path("inscription/<id:pk>/", views.signup_page, name="signup"),
    path(
        "inscription/<id:pk>/confirmation/<str:code>/",
        views.signup_confirmation,
        name="signup-confirmation",
    ),
    path(
        "tournois/<id:pk>/inscriptions-en-ligne/",
        views.signup_settings,
        name="signup-settings",
    ),
    path("tournois/<id:pk>/pointage/", views.checkin_page, name="checkin"),
    path(
        "tournois/<id:pk>/pointage/<id:registration>/",
        views.checkin_toggle,
        name="checkin-toggle",
    ),
    path("tournois/<id:pk>/pointage/sur-place/", views.checkin_walkin, name="checkin-walkin"),
]
