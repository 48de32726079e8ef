"""Deployment checks of the room's own settings (`manage.py check --deploy`)."""

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register


@register(Tags.security, deploy=True)
def trusted_proxies_check(app_configs, **kwargs):
    """In production the site sits behind its HTTPS proxy (README.md, Production); without the
    proxy named, every request counts as the proxy's address and its X-Forwarded-Proto is not
    believed (cardroom/network.py)."""
    if settings.TRUSTED_PROXIES:
        return []
    return [
        Warning(
            "DJANGO_TRUSTED_PROXIES is empty: behind the HTTPS proxy every request counts as the "
            "proxy's address, so one device's failed log-ins, pairing codes or waiting-list joins "
            "would hold back every other device; and the proxy's X-Forwarded-Proto is not believed, "
            "so the site takes the devices' HTTPS requests for plain HTTP.",
            hint="Set DJANGO_TRUSTED_PROXIES to the proxy's address, e.g. 127.0.0.1.",
            id="cardroom.W001",
        )
    ]


# Cache backends that hold their keys in one process (or hold none): every worker and every host
# would make its own screens' readings and count its own tablet pairing guesses and phones'
# joins, so a limit of 5 becomes 5 per worker.
UNSHARED_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache": "each process's own memory",
    "django.core.cache.backends.dummy.DummyCache": "no cache at all",
}


@register(Tags.caches, deploy=True)
def shared_cache_check(app_configs, **kwargs):
    """In production every cache is shared by all the web's workers and hosts (Redis, from
    REDIS_URL): the screens' shared readings (cardroom/screens.py) are read once for every screen,
    and the rate limits (tablet pairing, phones' joins) hold across workers only if they count in
    one place. A development checkout (DEBUG on, no REDIS_URL) keeps its per-process cache."""
    if settings.DEBUG:
        return []
    return [
        Error(
            f"The {alias!r} cache is {UNSHARED_CACHES[config['BACKEND']]} ({config['BACKEND']}): the "
            "screens' shared readings and the rate limits need one cache for every worker and host.",
            hint="Set REDIS_URL (e.g. redis://127.0.0.1:6379/0), which makes the cache Redis.",
            id="cardroom.E001",
        )
        for alias, config in settings.CACHES.items()
        if config.get("BACKEND") in UNSHARED_CACHES
    ]
