"""The dealer tablet's identity and its fence (ROL-2).

A paired tablet carries a long-lived signed cookie holding a random token; the database keeps the
token's keyed hash only. On every request that carries the cookie, the paired device is looked up
(one query) and becomes the request's user, whatever staff member may be logged in on the same
browser: the tablet is a device. It then reaches the tablet's own pages only: any other page
sends it back to the tablet page, any API answers 403. Its user also holds no staff role, so
the role checks refuse it even where this fence would not stand.
"""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from devices.selectors import device_by_token_hash
from devices.services import device_seen, token_hash

COOKIE = "cardroom_tablet"
COOKIE_SALT = "devices.tablet-cookie"
# Browsers keep a cookie at most 400 days; the tablet is paired again after that.
COOKIE_AGE = 400 * 24 * 3600
# The rule book too: a refusal on the tablet links its rule there (it reads, it writes nothing).
OPEN_TO_DEVICE = ("/tablet/", "/i18n/", "/favicon.ico", "/rules/")


def set_device_cookie(response, token: str) -> None:
    response.set_signed_cookie(
        COOKIE,
        token,
        salt=COOKIE_SALT,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


class DeviceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.device = None
        request.device_unpaired = False
        token = request.get_signed_cookie(COOKIE, default=None, salt=COOKIE_SALT)
        if COOKIE in request.COOKIES:
            device = device_by_token_hash(token_hash=token_hash(token)) if token else None
            if device is None:
                # Unpaired by a manager (or a forged cookie): the browser is nobody's tablet.
                request.device_unpaired = True
                response = self.get_response(request)
                response.delete_cookie(COOKIE, samesite="Lax")
                return response
            device_seen(device=device)
            user = device.user
            # A device holds no staff role (cached as cardroom.roles does), and is a device.
            user._cardroom_venue_roles = {}
            user._cardroom_device = True
            request.user = request._cached_user = user
            request.device = device
            if not request.path.startswith((*OPEN_TO_DEVICE, settings.STATIC_URL)):
                return self.refuse(request)
        return self.get_response(request)

    def refuse(self, request):
        if request.path.startswith("/api/"):
            return JsonResponse(
                {
                    "code": "device_confined",
                    "detail": _("A dealer tablet logs its table's hands and nothing else."),
                    "rule": "ROL-2",
                },
                status=403,
            )
        return redirect(reverse("devices:tablet"))
