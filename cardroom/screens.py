"""The room's screens (the TV clock, the waiting board, the floor's and the players' pages):
their language, and the readings many of them share.

A screen in the room has no log-in and often no language cookie, and its polls are sent without
cookies, so the language travels in the address (`?lang=sk`): the page is rendered in it, and the
page's polls ask for the same language, so a refresh never turns a Slovak screen into English.
"""

import time
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

from cardroom.errors import DomainError

LANGUAGE_PARAMETER = "lang"
T = TypeVar("T")


def screen_language(request) -> str | None:
    """The language the address asks for, or None (the request's own); an unknown one is refused."""
    code = request.GET.get(LANGUAGE_PARAMETER)
    if code is None:
        return None
    known = [language for language, _name in settings.LANGUAGES]
    if code not in known:
        raise DomainError(
            "unknown_language",
            _("The screen's language %(code)r is not offered; use one of: %(known)s.")
            % {"code": code, "known": ", ".join(known)},
        )
    return code


class ScreenLanguageMixin:
    """Renders the view in the language of `?lang=`, and refuses an unknown one with a 400."""

    def dispatch(self, request, *args, **kwargs):
        try:
            code = screen_language(request)
        except DomainError as error:
            return JsonResponse(error.as_dict(), status=error.status_code)
        if code is None:
            return super().dispatch(request, *args, **kwargs)
        with translation.override(code):
            response = super().dispatch(request, *args, **kwargs)
            # A template response renders lazily, after this block: render it in the language now.
            if hasattr(response, "render") and not response.is_rendered:
                response.render()
            return response


def shared_reading(key: str, read: Callable[[], T], *, every: float) -> T:
    """What many screens poll, read once every `every` seconds for all of them (Django's cache).

    The floor's screens, the TVs and the players' phones each poll each second or so; reading
    the room once per screen would cost the room's work times its screens. Here the first
    poll of each period reads (`read()`) while the polls arriving during that reading are
    answered with the last one, at most one period old, instead of reading too: with sync web
    workers, ten screens reading at once would hold every worker and queue the dealers' taps
    behind them. The value must pickle (Django's cache).
    """
    moment = int(time.time() / every)
    last = cache.get(f"{key}:last")
    if last is not None and last[0] == moment:
        return last[1]
    # The first of this period to get the token reads; the others keep the last reading.
    if last is not None and not cache.add(f"{key}:reading:{moment}", 1, timeout=max(5, 2 * every)):
        return last[1]
    value = read()
    cache.set(f"{key}:last", (moment, value), timeout=max(5, 4 * every))
    return value
