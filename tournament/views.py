"""Tournament pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .models import Tournament


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        tournaments = Tournament.objects.all()
    else:
        tournaments = Tournament.objects.filter(is_public=True)
    return render(request, "home.html", {"tournaments": tournaments})
