"""The kernel's middleware: the proxy's headers, the request's venue and its time zone, the input
guard and the failure net."""

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import get_script_prefix, set_script_prefix
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
from cardroom.venues import (
    SESSION_VENUE,
    venue_activate,
    venue_by_host,
    venue_by_pk,
    venue_by_slug,
    venue_default,
)

API_PREFIX = "/api/"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


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


# A venue's pages can be reached at /v/<slug>/... (VEN-1): the room page, the board, the TV and
# the waiting-list join for the public, any page for staff.
VENUE_PATH_PREFIX = "/v/"
# Where an API client that holds roles in several venues names the one it works for.
VENUE_HEADER = "HTTP_X_VENUE"


class VenuePathMiddleware:
    """/v/<slug>/room/ is the room page of the venue `slug`. The prefix moves from the path to the
    script prefix, as a site mounted under a sub-path would, so the URLconf sees /room/ and every
    link the page draws (reverse, {% url %}) keeps the prefix: a phone that came in at one venue's
    address stays at that venue. An unknown slug is a 404."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.venue_from_address = None
        if not request.path_info.startswith(VENUE_PATH_PREFIX):
            return self.get_response(request)
        slug, _slash, rest = request.path_info[len(VENUE_PATH_PREFIX) :].partition("/")
        venue = venue_by_slug(slug)
        if venue is None:
            raise Http404(_("No venue has this address."))
        request.venue_from_address = venue
        request.path_info = "/" + rest
        previous = get_script_prefix()
        set_script_prefix(f"{previous.rstrip('/')}{VENUE_PATH_PREFIX}{slug}/")
        try:
            return self.get_response(request)
        finally:
            set_script_prefix(previous)


def request_venue(request):
    """The venue a request works for (VEN-1): its address (/v/<slug>/ or a host name of the
    venue), a paired dealer tablet's venue, the venue an API client names in X-Venue, the one
    the staff member picked for his session, else the installation's default venue."""
    venue = getattr(request, "venue_from_address", None)
    if venue is None and getattr(request, "device", None) is not None:
        venue = venue_by_pk(request.device.venue_id)
    if venue is None:
        venue = venue_by_host(request.get_host().partition(":")[0])
        if venue is not None:
            request.venue_from_address = venue
    if venue is None and request.META.get(VENUE_HEADER):
        venue = venue_by_slug(request.META[VENUE_HEADER])
        if venue is None:
            raise Http404(_("No venue has this address."))
        request.venue_from_address = venue
    if venue is None and hasattr(request, "session"):
        picked = request.session.get(SESSION_VENUE)
        venue = venue_by_pk(picked) if picked else None
    return venue or venue_default()


class VenueMiddleware:
    """Work for the request's venue: its rows only (cardroom.venues), its settings, and every
    time shown in its time zone (SPEC: stored in UTC, shown in the venue's zone)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        venue = request.venue = request_venue(request)
        with venue_activate(venue):
            timezone.activate(venue.time_zone)
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
