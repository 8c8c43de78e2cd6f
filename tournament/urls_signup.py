"""URLs of online pre-registration (public, for phones) and of the check-in at the door."""

from django.urls import path

from .views import signup as views

urlpatterns = [
    path("inscription/<int:pk>/", views.signup_page, name="signup"),
    path(
        "inscription/<int:pk>/confirmation/<str:code>/",
        views.signup_confirmation,
        name="signup-confirmation",
    ),
    path(
        "tournois/<int:pk>/inscriptions-en-ligne/",
        views.signup_settings,
        name="signup-settings",
    ),
    path("tournois/<int:pk>/pointage/", views.checkin_page, name="checkin"),
    path(
        "tournois/<int:pk>/pointage/<int:registration>/",
        views.checkin_toggle,
        name="checkin-toggle",
    ),
    path("tournois/<int:pk>/pointage/sur-place/", views.checkin_walkin, name="checkin-walkin"),
]
