"""The kernel's middleware: the proxy's headers, the venue's time zone, the input guard and the
failure net."""

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.failures import (
    FAILURE_ATTRIBUTE,
    close_broken_connections,
    is_transient,
    unavailable_page,
    unavailable_response,
)
from cardroom.network import from_trusted_proxy
from cardroom.parsers import nul_refused
from cardroom.selectors import venue_get

API_PREFIX = "/api/"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def is_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


class ProxyHeadersMiddleware:
    """The proxy's word that the device's connection was HTTPS (X-Forwarded-Proto, Django's
    SECURE_PROXY_SSL_HEADER) is believed only from a proxy named in DJANGO_TRUSTED_PROXIES, as
    X-Forwarded-For is (cardroom/network.py). Anyone else's is dropped before Django reads it, so
    a device talking plain HTTP to the server cannot pass for a secure connection. First in the
    middleware, before SecurityMiddleware's HTTPS redirect."""

    def __init__(self, get_response):
        self.get_response = get_response
        header = settings.SECURE_PROXY_SSL_HEADER
        self.header = header[0] if header else None

    def __call__(self, request):
        if self.header and self.header in request.META and not from_trusted_proxy(request):
            del request.META[self.header]
        return self.get_response(request)


class VenueTimezoneMiddleware:
    """Show every time in the venue's zone (SPEC: stored in UTC, shown in Europe/Bratislava)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.activate(venue_get().time_zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def holds_nul(request) -> str:
    """Where a NUL character is: "headers" (cookies too), "request" (the address, a query
    parameter, a form field or a file's name), or "" for nowhere. JSON bodies are checked by
    their parser (cardroom.parsers)."""
    if any(
        name.startswith("HTTP_") and isinstance(value, str) and "\x00" in value
        for name, value in request.META.items()
    ):
        return "headers"
    if "\x00" in request.path:
        return "request"
    if any("\x00" in key or any("\x00" in value for value in values) for key, values in request.GET.lists()):
        return "request"
    if request.method == "POST" and request.content_type in FORM_TYPES:
        for key, values in request.POST.lists():
            if "\x00" in key or any("\x00" in value for value in values):
                return "request"
        if any("\x00" in (upload.name or "") for upload in request.FILES.values()):
            return "request"
    return ""


class InputGuardMiddleware:
    """No NUL character reaches a view: PostgreSQL cannot store one (a search for it was a 500),
    and no name, note or search needs it. The request is refused with a 400 that says so: the
    API's error shape, or a page. Placed after the session and the user are attached (lazily)
    and before anything reads them, whose look-ups would carry a cookie's NUL to the database."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        where = holds_nul(request)
        if not where:
            return self.get_response(request)
        message = nul_refused().message
        if is_api(request):
            return JsonResponse({"code": "nul_character", "detail": message, "rule": ""}, status=400)
        if where == "headers":
            # The session cookie may be what holds it: the page is drawn for nobody.
            request.user = AnonymousUser()
        return render(request, "400.html", {"message": message}, status=400)


# The API's answer when Django itself refused or failed a request before or after DRF's views
# (a body too large to read, a failure in a middleware), by status.
GENERIC_API_ERRORS = {
    400: ("bad_request", lambda: _("The request could not be read: check its format and its size.")),
    403: ("forbidden", lambda: _("This request is not allowed.")),
    # Debug's own page for an address that matches nothing (cardroom.views.page_not_found's words).
    404: ("not_found", lambda: _("No such address.")),
    500: (
        "server_error",
        lambda: _(
            "The server failed to carry out this request. Send it again: a money request sent again "
            "with the same request key is never carried out twice."
        ),
    ),
}


class FailureMiddleware:
    """The outermost middleware. An API answer is never an HTML error page: a failure for a
    cause outside the request (the database lost in the middle, Redis or the broker out of reach)
    is a 503 with Retry-After that says sending it again is safe; any other error that Django,
    not DRF, answered gets the API's one error shape. A page whose database went away says so in
    plain words instead of the server's error page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code >= 500 and is_transient(getattr(request, FAILURE_ATTRIBUTE, None)):
            close_broken_connections()
            return unavailable_response() if is_api(request) else unavailable_page(request)
        if is_api(request) and response.status_code >= 400 and not _api_shaped(response):
            status = response.status_code
            code, message = GENERIC_API_ERRORS.get(status if status < 500 else 500, (None, None))
            if code is None:
                code, message = "error", lambda: response.reason_phrase
            return JsonResponse({"code": code, "detail": str(message()), "rule": ""}, status=status)
        return response


def _api_shaped(response) -> bool:
    """DRF's own answers (rendered as the client asked, its browsable pages included) and JSON."""
    return hasattr(response, "accepted_renderer") or response.get("Content-Type", "").startswith(
        "application/json"
    )
