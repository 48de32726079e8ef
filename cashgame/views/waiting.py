"""Waiting lists (CSH-7) and the public board on the room's screens."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin
from cashgame import forms, selectors
from cashgame.models import WaitingEntry
from cashgame.selectors.seating import waiting_page_offers
from cashgame.selectors.waiting import interest_ready, queue_history
from cashgame.services import waiting, waiting_check_in, waiting_floor
from cashgame.views._common import ActionView


class WaitingView(RoleRequiredMixin, TemplateView):
    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/waiting.html"

    def get_context_data(self, **kwargs):
        board = selectors.waiting_board_tables(selectors.waiting_board())
        waiting_page_offers(board)
        return super().get_context_data(
            board=board, add_form=forms.WaitingAddForm(), interest=interest_ready(), **kwargs
        )


class WaitingHistoryView(RoleRequiredMixin, TemplateView):
    """ "Was I skipped?" (WTL-2): one entry's queue log, and who sat down ahead of him and why,
    for the floor to show the player."""

    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/waiting_history.html"

    def get_context_data(self, **kwargs):
        entry = get_object_or_404(WaitingEntry.objects.select_related("game", "player"), pk=self.kwargs["pk"])
        return super().get_context_data(entry=entry, **queue_history(entry=entry), **kwargs)


class WaitingActionView(ActionView):
    def form(self):
        forms_by_action = {
            "add": forms.WaitingAddForm,
            "call-next": forms.CallNextForm,
            "open-table": forms.OpenTableForm,
        }
        return forms_by_action[self.kwargs["action"]](self.request.POST)

    def perform(self, form, action):
        if action == "add":
            return waiting.waiting_add(actor=self.request.user, **form.cleaned_data)
        if action == "open-table":
            return waiting_floor.waiting_open_table(actor=self.request.user, **form.cleaned_data)
        return waiting.waiting_call_next(actor=self.request.user, **form.cleaned_data)

    def message(self, result, action):
        if action == "add":
            return _("%s is on the list.") % result.display_name
        if action == "open-table":
            return _("The table is open; %d players are called to it.") % len(result)
        return _("%(player)s is called to %(table)s.") % {
            "player": result.display_name,
            "table": result.table,
        }

    def back(self, **kwargs):
        return reverse("cashgame:waiting")


class WaitingEntryActionView(ActionView):
    def form(self):
        action = self.kwargs["action"]
        if action == "seat":
            return forms.WaitingSeatForm(self.request.POST)
        return forms.CheckInForm(self.request.POST) if action == "check-in" else None

    def perform(self, form, pk, action):
        entry = get_object_or_404(WaitingEntry, pk=pk)
        if action == "seat":
            return waiting.waiting_seat(actor=self.request.user, entry=entry, **form.cleaned_data)
        if action == "check-in":
            return waiting_check_in.waiting_check_in(
                actor=self.request.user, entry=entry, **form.cleaned_data
            )
        return waiting.waiting_remove(actor=self.request.user, entry=entry)

    def message(self, result, pk, action):
        if action == "check-in":
            return _("%s is checked in.") % result.display_name
        if action == "seat":
            return _("%(player)s has seat %(seat)d at %(table)s; the buy-in is at the cage.") % {
                "player": result.player.full_name,
                "seat": result.seat,
                "table": result.table,
            }
        return _("%s is off the list.") % result.display_name

    def back(self, **kwargs):
        return reverse("cashgame:waiting")
