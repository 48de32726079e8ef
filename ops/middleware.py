"""The operator's endpoints and the request-latency histogram (OPS-2), first in MIDDLEWARE.

`/health/` and `/metrics` are answered here, before the rest of the middleware: before the
HTTPS redirect and the host check, so a load balancer or Prometheus may ask gunicorn itself on
its loopback address over plain HTTP; before the session, the log-in and the venue's time zone,
so neither needs the database or the cache to answer (/health/ must answer when they are down)
and /health/ costs no statement but its own two. Neither sets a cookie or reads one.

A scrape that is not allowed (ops/metrics.py) goes on through the middleware like any other
request and gets the site's own 404 page: nothing tells it that /metrics exists."""

import json
import time

from django.http import HttpResponse
from django.utils import timezone

from ops import health, metrics

HEALTH_PATH = "/health/"
METRICS_PATH = "/metrics"


def _plain(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    response["X-Content-Type-Options"] = "nosniff"
    # A 503 is the answer, not an error of the site: Django logs it at ERROR level otherwise, on
    # every poll of an outage, and the error tracker would get each one.
    response._has_been_logged = True
    return response


class OpsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if path == HEALTH_PATH and request.method in ("GET", "HEAD"):
            status, body = health.health_report(now=timezone.now())
            return _plain(HttpResponse(json.dumps(body), status=status, content_type="application/json"))
        if path == METRICS_PATH and request.method == "GET" and metrics.allowed(request):
            text = metrics.exposition(now=timezone.now())
            return _plain(HttpResponse(text, content_type=metrics.CONTENT_TYPE))
        started = time.perf_counter()
        response = self.get_response(request)
        metrics.observe(request, time.perf_counter() - started)
        return response
