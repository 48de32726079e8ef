"""The language of a screen with no log-in (the TV clock, the waiting board, the players' pages
and phones).

A screen in the room has no log-in and often no language cookie, and its polls are sent without
cookies, so the language travels in the address (`?lang=sk`): the page is rendered in it, and the
page's polls ask for the same language, so a refresh never turns a Slovak screen into English.
The kernel keeps it because the screens app and the cash game's phone pages both use it.
"""

from django.conf import settings
from django.http import JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

from cardroom.errors import DomainError

LANGUAGE_PARAMETER = "lang"


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
