"""URLs of big events: the desk's list, creating one, its page, a bracket's cut and the
replacement of a withdrawal after a cut."""

from django.urls import path

from scoring.events import views

urlpatterns = [
    path("epreuves/", views.event_list, name="event-list"),
    path("epreuves/nouvelle/", views.event_create, name="event-create"),
    path("epreuves/<id:pk>/", views.event_detail, name="event-detail"),
    path("tournois/<id:pk>/coupe/", views.cut_form, name="event-cut"),
    path("tournois/<id:pk>/repechage/", views.cut_replace, name="event-replace"),
]
