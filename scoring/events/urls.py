"""URLs of big events: the desk's list, creating one, its page, a bracket's cut and the
replacement of a withdrawal after a cut; the venue's desk of every bracket in play, the event's
public page and its hall screen (a bracket's secret hall link opens its event's session). Its
documents are scoring.documents.urls'."""

from django.urls import path

from scoring.events.views import event as views
from scoring.events.views import hall as views_hall
from scoring.events.views import public as views_public
from scoring.events.views import venue as views_venue

urlpatterns = [
    path("epreuves/", views.event_list, name="event-list"),
    path("epreuves/nouvelle/", views.event_create, name="event-create"),
    path("epreuves/<id:pk>/", views.event_detail, name="event-detail"),
    path("tournois/<id:pk>/coupe/", views.cut_form, name="event-cut"),
    path("tournois/<id:pk>/repechage/", views.cut_replace, name="event-replace"),
    path("epreuves/<id:pk>/salle/", views_venue.venue_desk_page, name="event-venue"),
    path("epreuves/<id:pk>/salle/direct/", views_venue.venue_desk_live, name="event-venue-live"),
    path(
        "epreuves/<id:pk>/salle/ecran/lien/",
        views_venue.venue_hall_link,
        name="event-venue-hall-link",
    ),
    path("public/epreuves/<id:pk>/", views_public.public_event, name="public-event"),
    path("salle/epreuve/<str:token>/", views_hall.event_hall, name="event-hall"),
    path(
        "salle/epreuve/<str:token>/diapos/",
        views_hall.event_hall_slides,
        name="event-hall-slides",
    ),
]
