"""`/metrics` (OPS-2): Prometheus text, for the addresses or the token the operator configures.

Two kinds of figures:

- Request latency by route, a histogram each web process keeps as it serves. gunicorn runs
  several processes, so with `PROMETHEUS_MULTIPROC_DIR` set (deploy/systemd/cardroom-web.service
  sets it) each keeps its figures in a file there and a scrape adds up every process's file
  (prometheus-client's multiprocess mode); without it (`make run`, one process) they are kept in
  memory.
- Everything else is read from the database at the scrape (ops/selectors.py): work due and late
  by job (level rises, dealers' pushes, seat holds), how late the last hour's level rises and
  pushes were carried out, task failures, the heartbeats' ages, the ledger's postings of the
  gaming day and the last books check. A restart loses none of it, and every web server of an
  installation reports the same figures.
"""

import hmac
import ipaddress
import os
from datetime import datetime
from functools import cache

from django.conf import settings
from django.db import DatabaseError, connection
from prometheus_client import REGISTRY, CollectorRegistry, Histogram, generate_latest, multiprocess
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from cardroom.network import client_address
from ops import selectors

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

REQUEST_SECONDS = Histogram(
    "cardroom_http_request_duration_seconds",
    "Time from a request's arrival to its response, by method and route (the URL pattern).",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)


def route_of(request) -> str:
    """The URL pattern that served the request ("/tournaments/<number:pk>/"), so the label has a
    few hundred values at most, whatever ids the paths carry."""
    match = getattr(request, "resolver_match", None)
    if match is not None and match.route is not None:
        return "/" + match.route
    if request.path_info.startswith("/" + settings.STATIC_URL.lstrip("/")):
        return "/" + settings.STATIC_URL.lstrip("/")
    return "(unmatched)"


def observe(request, seconds: float) -> None:
    method = request.method if request.method in METHODS else "other"
    REQUEST_SECONDS.labels(method=method, route=route_of(request)).observe(seconds)


@cache
def _networks(allowed: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(item, strict=False) for item in allowed)


def allowed(request) -> bool:
    """The scrape comes from an address of METRICS_ALLOWED_ADDRESSES (the device's, behind the
    trusted proxies: cardroom/network.py) or carries `Authorization: Bearer <METRICS_TOKEN>`."""
    token = settings.METRICS_TOKEN
    scheme, _, given = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if token and scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
        return True
    networks = _networks(tuple(settings.METRICS_ALLOWED_ADDRESSES))
    if not networks:
        return False
    try:
        address = ipaddress.ip_address(client_address(request))
    except ValueError:
        return False
    return any(address in network for network in networks)


def _gauge(name: str, documentation: str, labels: list[str] | None = None) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, labels=labels)


class RoomCollector:
    """The figures read from the database at the scrape (ops/selectors.py)."""

    def __init__(self, now: datetime):
        self.now = now

    def collect(self):
        up = _gauge("cardroom_database_up", "1 when this scrape could read the database, else 0.")
        try:
            families = list(self._families())
        except DatabaseError:
            if not connection.in_atomic_block:
                connection.close_if_unusable_or_obsolete()
            families = []
        up.add_metric([], 1 if families else 0)
        yield up
        yield from families

    def _families(self):
        now = self.now
        yield from self._overdue(selectors.overdue_work(now=now))
        yield from self._done(selectors.recent_done(now=now))
        failures = CounterMetricFamily(
            "cardroom_celery_task_failures",
            "Times each Celery task failed, since installation.",
            labels=["task"],
        )
        for row in selectors.task_failures():
            failures.add_metric([row.task], row.failures)
        yield failures
        ages = _gauge(
            "cardroom_heartbeat_age_seconds", "Seconds since the process last stamped.", ["process"]
        )
        for name, at in sorted(selectors.heartbeats().items()):
            ages.add_metric([name], max((now - at).total_seconds(), 0.0))
        yield ages
        postings = _gauge(
            "cardroom_ledger_postings_gaming_day",
            "Ledger postings since the gaming day began, by cashier transaction kind.",
            ["kind"],
        )
        for kind, count in selectors.postings_this_gaming_day(now=now).items():
            postings.add_metric([kind], count)
        yield postings
        yield from self._books(selectors.books_check_last())

    def _overdue(self, rows):
        due = _gauge("cardroom_tasks_due", "Work whose time has come and that is not done yet.", ["job"])
        late = _gauge("cardroom_tasks_late", "Work due for more than 5 seconds and not done yet.", ["job"])
        oldest = _gauge(
            "cardroom_tasks_oldest_overdue_seconds", "How long the oldest work not done is overdue.", ["job"]
        )
        for row in rows:
            due.add_metric([row.job], row.due)
            late.add_metric([row.job], row.late)
            age = 0.0 if row.oldest is None else max((self.now - row.oldest).total_seconds(), 0.0)
            oldest.add_metric([row.job], age)
        return [due, late, oldest]

    def _done(self, rows):
        count = _gauge("cardroom_tasks_done_last_hour", "Work carried out in the last hour.", ["job"])
        late = _gauge(
            "cardroom_tasks_done_late_last_hour",
            "Work carried out in the last hour more than 5 seconds after its time.",
            ["job"],
        )
        worst = _gauge(
            "cardroom_tasks_lateness_last_hour_max_seconds",
            "The largest lateness of the work carried out in the last hour (level rises: TRN-8).",
            ["job"],
        )
        last = _gauge("cardroom_tasks_last_lateness_seconds", "Lateness of the latest work done.", ["job"])
        for row in rows:
            count.add_metric([row.job], row.count)
            late.add_metric([row.job], row.late)
            worst.add_metric([row.job], row.max_lateness)
            last.add_metric([row.job], row.last_lateness)
        return [count, late, worst, last]

    def _books(self, run):
        at = _gauge(
            "cardroom_books_check_last_run_timestamp_seconds", "When the last books check ran (0: never)."
        )
        checks = _gauge("cardroom_books_check_last_checks", "Reconciliations the last books check made.")
        differences = _gauge(
            "cardroom_books_check_last_differences", "Of those, how many found a difference."
        )
        agreed = _gauge(
            "cardroom_books_check_last_ok", "1 when the last books check agreed, 0 otherwise or never."
        )
        at.add_metric([], run.at.timestamp() if run else 0)
        checks.add_metric([], run.checks if run else 0)
        differences.add_metric([], run.differences if run else 0)
        agreed.add_metric([], 1 if run and run.differences == 0 else 0)
        return [at, checks, differences, agreed]


class _ThisProcess:
    """prometheus-client's own registry (the latency histogram, the process's figures) when no
    multiprocess folder is set."""

    def collect(self):
        yield from REGISTRY.collect()


def exposition(*, now: datetime) -> bytes:
    """The Prometheus text of a scrape at `now`."""
    registry = CollectorRegistry(auto_describe=False)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    registry.register(RoomCollector(now))
    return generate_latest(registry)
