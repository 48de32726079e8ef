"""What every test leaves as it found it: the active language, the active time zone and the
caches (tests/conftest.py wraps each test in `restored`).

A page requested through Django's test client runs in the test's own thread, and LocaleMiddleware
leaves the request's language active after it: a test that read a Slovak page left Slovak on for
whichever test ran next in the process, and a report test that expected `10.00 EUR` read
`10,00 EUR` when it ran after the page tests. The same holds for a time zone activated by hand.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import caches
from django.utils import timezone, translation

from cardroom.venues import venue_cache_clear
from cashier.services.ledger import account_cache_clear
from chips.selectors import cash_chips_cache_clear


def caches_clear(*, shared: bool = True) -> None:
    """The per-process caches of rows (venue, accounts, the cash-game chips) and, unless `shared`
    is off, Django's caches (the floor's room, the TV's state): on SQLite a rolled-back test's ids
    come back in the next test. A test with a real Celery worker keeps the shared cache: on Redis
    its database is also the worker's broker."""
    venue_cache_clear()
    account_cache_clear()
    cash_chips_cache_clear()
    if shared:
        for cache in caches.all():
            cache.clear()


@contextmanager
def restored(*, shared_cache: bool = True) -> Iterator[None]:
    """Run the body, then put back the language and time zone that were active before it (none
    active, the default, is put back as none) and empty the caches."""
    language = translation.get_language()
    zone = timezone.get_current_timezone()
    caches_clear(shared=shared_cache)
    try:
        yield
    finally:
        if language == settings.LANGUAGE_CODE:
            translation.deactivate()
        else:
            translation.activate(language)
        if zone == timezone.get_default_timezone():
            timezone.deactivate()
        else:
            timezone.activate(zone)
        caches_clear(shared=shared_cache)
