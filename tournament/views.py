"""Tournament pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .models import Tournament
from .roles import is_arbiter, is_scorer


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        tournaments = Tournament.objects.all()
    else:
        tournaments = Tournament.objects.filter(is_public=True)
    context = {
        "tournaments": tournaments,
        # The desk's people open a tournament's desk; everyone else its public standings.
        "desk": is_scorer(request.user),
        "can_edit": is_arbiter(request.user),
    }
    return render(request, "home.html", context)
