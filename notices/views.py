"""The player's "Tell me on this phone" block (NOT-1), on his private page and on a phone
joiner's waiting-list page: consent with an optional SMS number, this phone's Web Push
subscription (posted by static/js/notices.js), withdrawal, and the service worker.

No log-in: the signed token of the page's link is the key, as on the pages themselves."""

import json

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views import View

from cardroom.errors import DomainError
from cardroom.screen_language import ScreenLanguageMixin, screen_language
from notices import services

# The tag the block shows its own messages by (the phone pages show no others).
MESSAGE_TAG = "notices"


def _back(request, where: str, token: str):
    try:
        path = services.link_owner(where=where, token=token).page_path
    except DomainError:
        raise Http404 from None
    lang = screen_language(request)
    return redirect(f"{path}{'?lang=' + lang if lang else ''}#notices")


class _LinkView(ScreenLanguageMixin, View):
    http_method_names = ["post"]

    def setup(self, request, *args, **kwargs):
        super().setup(request, *args, **kwargs)
        if kwargs["where"] not in (services.PLAYER_PAGE, services.WAITING_PAGE):
            raise Http404


class ConsentView(_LinkView):
    """POST: agree to the notices (with an SMS number or none), or change the number."""

    def post(self, request, where: str, token: str):
        try:
            services.consent_give(
                where=where,
                token=token,
                consent=request.POST.get("consent") == "on",
                sms_number=request.POST.get("sms_number", "")[:40],
            )
        except DomainError as error:
            messages.error(request, error.message, extra_tags=MESSAGE_TAG)
        return _back(request, where, token)


class WithdrawView(_LinkView):
    """POST: no more notices; the page says so."""

    def post(self, request, where: str, token: str):
        try:
            services.consent_withdraw(where=where, token=token)
        except DomainError as error:
            messages.error(request, error.message, extra_tags=MESSAGE_TAG)
        return _back(request, where, token)


class SubscriptionView(_LinkView):
    """POST (JSON, as PushSubscription.toJSON() gives it): keep this phone's subscription.
    The body is read before the link is looked at, so a malformed body gets its own 400."""

    def post(self, request, where: str, token: str):
        try:
            body = json.loads(request.body or b"null")
            endpoint, keys = body["endpoint"], body["keys"]
            p256dh, auth = keys["p256dh"], keys["auth"]
            if not all(isinstance(value, str) for value in (endpoint, p256dh, auth)):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            error = DomainError("invalid_subscription", _bad_body(), rule="NOT-1")
            return JsonResponse(error.as_dict(), status=400)
        try:
            services.subscription_add(where=where, token=token, endpoint=endpoint, p256dh=p256dh, auth=auth)
        except DomainError as error:
            return JsonResponse(error.as_dict(), status=error.status_code)
        return JsonResponse({"subscribed": True}, status=201)


def _bad_body() -> str:
    return _("Send the phone's push subscription: its endpoint and its p256dh and auth keys.")


def service_worker(request):
    """The service worker, from a path whose scope may cover every page of the site: it shows a
    notice that arrives with the page closed, and opens the player's page on a tap."""
    response = HttpResponse(
        render_to_string("notices/sw.js", request=request), content_type="application/javascript"
    )
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
