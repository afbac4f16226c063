"""The site's URLs plus /bench/bare/: the cheapest Django view, the baseline of the web benchmark."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def bare(request: HttpRequest) -> HttpResponse:
    # Goes through the whole middleware stack like every page, but does no work of its own.
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/bare/", bare),
    path("", include("dizzysite.urls")),
]
