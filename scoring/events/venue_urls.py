"""URLs of the venue: the desk of every bracket in play, the event's public page and its hall
screen (a bracket's secret hall link opens its event's session). The event's own pages are
scoring.events.urls; its documents scoring.documents.urls."""

from django.urls import path

from scoring.events.venue_views import desk as views_venue
from scoring.events.venue_views import hall as views_hall
from scoring.events.venue_views import public as views_public

urlpatterns = [
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
