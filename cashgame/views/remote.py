"""Players' phones (WTL-1, WTL-2): join waiting lists without a log-in, then follow a private,
signed status link that shows the position, the estimated wait and, live, the call to a seat.

Public pages: no staff log-in, phone-first (390x844), in the language of the address (`?lang=sk`)
like the room's screens. A refusal is shown on the page with its status code and writes nothing.
"""

from django import forms
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from cardroom.errors import DomainError, NotFound
from cardroom.network import client_address
from cardroom.screen_language import ScreenLanguageMixin
from cashgame.selectors.waiting import joinable_games, waiting_status
from cashgame.services import waiting_remote


class JoinForm(forms.Form):
    # The service reads the nickname (cardroom.names) and its refusal is the page's one alert.
    nickname = forms.CharField(label=_("Nickname"), max_length=30, required=False)
    phone = forms.CharField(label=_("Phone number"), max_length=30, required=False)
    card_number = forms.CharField(label=_("or membership card number"), max_length=30, required=False)


def _lang_query(request) -> str:
    return f"?lang={get_language()}" if request.GET.get("lang") else ""


class JoinView(ScreenLanguageMixin, TemplateView):
    """The public join page: the games offered, a nickname and a phone number or card."""

    template_name = "cashgame/remote_join.html"

    def get_context_data(self, **kwargs):
        kwargs.setdefault("form", JoinForm())
        kwargs.setdefault("chosen", set())
        return super().get_context_data(games=joinable_games(), lang=_lang_query(self.request), **kwargs)

    def post(self, request, *args, **kwargs):
        form = JoinForm(request.POST)
        raw = request.POST.getlist("game")
        chosen = {int(value) for value in raw if value.isdigit()}
        error = None
        if not form.is_valid():
            error = DomainError("invalid_input", str(_("Check the fields below.")), rule="WTL-1")
        elif len(chosen) != len(raw):
            error = NotFound(
                "unknown_game", str(_("That game is not offered. Choose one from the list.")), rule="WTL-1"
            )
        else:
            try:
                _entries, token = waiting_remote.waiting_join_remote(
                    game_ids=sorted(chosen),
                    nickname=form.cleaned_data["nickname"],
                    phone=form.cleaned_data["phone"],
                    card_number=form.cleaned_data["card_number"],
                    address=client_address(request),
                    now=timezone.now(),
                )
            except DomainError as refused:
                error = refused
            else:
                return redirect(reverse("wait:status", args=[token]) + _lang_query(request))
        context = self.get_context_data(form=form, chosen=chosen, error=error)
        return self.render_to_response(context, status=error.status_code)


class StatusView(ScreenLanguageMixin, TemplateView):
    """The player's private page: each list he is on, his position and the estimated wait, and
    the call when it comes (the rows poll every second, see StatusRowsView)."""

    template_name = "cashgame/remote_status.html"

    def get(self, request, *args, **kwargs):
        try:
            ids = waiting_remote.status_entry_ids(kwargs["token"])
        except DomainError as error:
            return self.render_to_response(
                self.get_context_data(error=error, rows=[]), status=error.status_code
            )
        return self.render_to_response(self.get_context_data(rows=waiting_status(entry_ids=ids)))

    def get_context_data(self, **kwargs):
        return super().get_context_data(lang=_lang_query(self.request), **kwargs)


class StatusRowsView(StatusView):
    template_name = "cashgame/_remote_rows.html"

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        response["Cache-Control"] = "no-store"
        return response


class LeaveView(ScreenLanguageMixin, TemplateView):
    """POST: the player takes himself off one list (WTL-1), then sees his page again."""

    http_method_names = ["post"]
    template_name = "cashgame/remote_status.html"

    def post(self, request, token: str, entry: int):
        try:
            waiting_remote.waiting_leave(token=token, entry_id=entry)
        except DomainError as error:
            return self.render_to_response(
                self.get_context_data(error=error, rows=[], lang=_lang_query(request)),
                status=error.status_code,
            )
        return redirect(reverse("wait:status", args=[token]) + _lang_query(request))


class MoreTimeView(LeaveView):
    """POST: the called player asks to hold his seat a little longer (WTL-2), once. From the
    page's script the answer is the rows themselves, so the page (and its call alert) stays."""

    def post(self, request, token: str, entry: int):
        error = None
        try:
            waiting_remote.waiting_more_time(token=token, entry_id=entry)
        except DomainError as refused:
            error = refused
        if request.htmx:
            ids = [] if error and error.code == "link_invalid" else waiting_remote.status_entry_ids(token)
            context = self.get_context_data(error=error, rows=waiting_status(entry_ids=ids))
            return render(
                request, "cashgame/_remote_rows.html", context, status=error.status_code if error else 200
            )
        if error is not None:
            return self.render_to_response(
                self.get_context_data(error=error, rows=[], lang=_lang_query(request)),
                status=error.status_code,
            )
        return redirect(reverse("wait:status", args=[token]) + _lang_query(request))
