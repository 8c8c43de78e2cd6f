"""Root URLs: the arbiter's desk, the public pages, the admin and i18n."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from tournament.tournaments.views.home import home


def _superusers_only(request: HttpRequest) -> bool:
    """The admin edits every tournament, account and counter: superusers only (Django's own
    rule lets any staff account in, and a staff flag must not be a back door)."""
    return bool(request.user.is_active and request.user.is_superuser)


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico on pages naming no icon: a 404 there is a console error."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


admin.site.has_permission = _superusers_only  # type: ignore[method-assign]

urlpatterns = [
    path("", home, name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("connexion/", auth_views.LoginView.as_view(), name="login"),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    # The cockpit, the hall screen and backups read results: they live in scoring, above this app.
    path("", include("scoring.live.urls")),
    path("", include("tournament.tournaments.urls")),
    path("", include("tournament.players.urls")),
    path("", include("tournament.clubs.urls")),
    path("", include("tournament.signup.urls")),
    path("", include("tournament.evening.urls")),
    path("", include("scoring.documents.urls")),
    path("", include("scoring.api.urls")),
    path("", include("scoring.sheets.urls")),
    path("", include("scoring.season.urls")),
    path("", include("scoring.events.urls")),
    path("", include("scoring.upload.urls")),
]
