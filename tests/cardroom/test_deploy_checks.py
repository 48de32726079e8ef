"""`manage.py check --deploy` refuses a production whose cache is not shared by every worker and
host (cardroom/checks.py): the screens' shared readings and the rate limits count in the cache."""

import os
import subprocess
import sys

from django.conf import settings as django_settings
from django.core.checks import ERROR, run_checks

LOCMEM = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
REDIS = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:6379/0"}


def room_checks() -> list[tuple[str, int]]:
    return [
        (m.id, m.level)
        for m in run_checks(include_deployment_checks=True)
        if m.id.startswith("cardroom.") and m.id != "cardroom.W001"
    ]


def test_production_with_a_per_process_cache_is_an_error(settings):
    settings.DEBUG = False
    settings.CACHES = {"default": LOCMEM}
    assert room_checks() == [("cardroom.E001", ERROR)]
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    assert room_checks() == [("cardroom.E001", ERROR)]
    # Every alias is looked at, not only the default.
    settings.CACHES = {"default": REDIS, "sessions": LOCMEM}
    [message] = run_checks(include_deployment_checks=True, tags=["caches"])
    assert (message.id, "'sessions' cache" in message.msg) == ("cardroom.E001", True)


def test_production_with_redis_passes(settings):
    settings.DEBUG = False
    settings.CACHES = {"default": REDIS}
    assert room_checks() == []


def test_a_development_checkout_keeps_its_own_cache(settings):
    settings.DEBUG = True
    settings.CACHES = {"default": LOCMEM}
    assert room_checks() == []


def run_deploy_check(**environment) -> subprocess.CompletedProcess:
    """`manage.py check --deploy` as CI runs it (.ci/run, step 5), in a fresh process whose
    settings read this environment."""
    # Not the test run's own switches: the browser journeys set DJANGO_ALLOW_ASYNC_UNSAFE in their
    # process (tests/e2e/conftest.py), which a production check rightly refuses (async.E001).
    left_out = ("REDIS_URL", "CELERY_BROKER_URL", "DJANGO_DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in left_out}
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="a-deploy-check-key-of-fifty-characters-or-more-0123456789",
        DJANGO_ALLOWED_HOSTS="cardroom.example.com",
        DJANGO_TRUSTED_PROXIES="127.0.0.1",
        **environment,
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=django_settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_fails_without_redis_and_passes_with_it():
    without = run_deploy_check()
    assert without.returncode == 1
    assert "cardroom.E001" in without.stderr
    with_redis = run_deploy_check(REDIS_URL="redis://127.0.0.1:6379/14")
    assert with_redis.stderr == "", with_redis.stderr  # the whole report, should it ever fail
    assert with_redis.returncode == 0
    assert "System check identified no issues" in with_redis.stdout
