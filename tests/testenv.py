"""Loaded by pytest before Django settings (``-p tests.testenv`` in pyproject.toml).

Tests run with DEBUG on (plain static files storage, no HTTPS redirect) and a throw-away secret
key, unless the environment already says otherwise (CI's production-like check does).
"""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")
os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("AXES_ENABLED", "1")


def _own_redis_database_per_xdist_worker() -> None:
    """Under pytest-xdist each worker has its own test database, so it needs its own Redis database
    too: a Celery worker started by one would otherwise run the other's tasks against the wrong
    rows. Worker gw<n> takes the run's database number minus n."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_URL", "")
    if not worker.startswith("gw") or not url:
        return
    base, _, number = url.rpartition("/")
    if number.isdigit():
        os.environ["REDIS_URL"] = f"{base}/{(int(number) - int(worker[2:])) % 16}"


_own_redis_database_per_xdist_worker()
