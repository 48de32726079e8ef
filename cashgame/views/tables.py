"""The floor's table pages: the tables, one table's seats, seating, moves and seat states."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import FormView, TemplateView

from cardroom.forms import DomainFormMixin
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, RoleRequiredMixin, has_role
from cashgame import forms, selectors
from cashgame.models import STATE_ACTIONS, CashTable, Game, HousePlayers, PlayerSession, SeatState
from cashgame.selectors.drawings import cash_table_drawings
from cashgame.services import sessions, tables
from cashgame.views._common import ActionView


class TableListView(RoleRequiredMixin, TemplateView):
    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/table_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            tables=selectors.table_list(),
            can_manage=has_role(self.request.user, *MANAGER_ROLES),
            games=selectors.game_list(active_only=True),
            house_choices=HousePlayers.choices,
            **kwargs,
        )


class TableCreateView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashgame/form.html"
    form_class = forms.TableForm
    extra_context = {"title": gettext_lazy("New cash table")}

    def perform(self, form):
        return tables.table_create(actor=self.request.user, **form.cleaned_data)

    def get_success_url(self):
        messages.success(self.request, _("%s created.") % self.result)
        return reverse("cashgame:tables")


class TableActionView(ActionView):
    def perform(self, form, pk, action):
        table = get_object_or_404(CashTable, pk=pk)
        if action == "open":
            game_id = self.request.POST.get("game", "")
            game = Game.objects.filter(pk=game_id).first() if game_id.isdigit() else None
            return tables.table_open(actor=self.request.user, table=table, game=game)
        return tables.table_close(actor=self.request.user, table=table)

    def message(self, result, **kwargs):
        return _("%(table)s is %(status)s.") % {
            "table": result,
            "status": result.get_status_display().lower(),
        }

    def back(self, **kwargs):
        return reverse("cashgame:tables")


class TableHousePlayersView(ActionView):
    """The table's house players (staff, proposition players or neither), set from the tables
    page by the floor; the public room page flags the table."""

    form_class = forms.HousePlayersForm

    def perform(self, form, pk):
        return tables.table_house_players_set(
            actor=self.request.user,
            table=get_object_or_404(CashTable, pk=pk),
            house_players=form.cleaned_data["house_players"],
        )

    def message(self, result, **kwargs):
        return _("%(table)s: house players saved (%(what)s).") % {
            "table": result,
            "what": result.get_house_players_display(),
        }

    def back(self, **kwargs):
        return reverse("cashgame:tables")


def table_context(table: CashTable) -> dict:
    return {
        "table": table,
        "seats": selectors.table_seats(table=table),
        "hand": selectors.table_current_hand(table=table),
        "chips_in_play": selectors.table_chips_in_play(table=table),
        "hands": selectors.hand_list(table=table, limit=20),
        "State": SeatState,
        "state_actions": list(STATE_ACTIONS),
    }


def table_drawing(pk: int) -> dict:
    drawings = cash_table_drawings(tables=CashTable.objects.filter(pk=pk))
    if not drawings:
        raise Http404
    return drawings[0]


class TableDetailView(RoleRequiredMixin, TemplateView):
    """The floor's view of one table: the table drawn with its seats (tap a seat to act on it),
    the stakes, the chips in play and the recent hands."""

    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/table_detail.html"

    def get_context_data(self, **kwargs):
        drawing = table_drawing(kwargs["pk"])
        table = drawing["table"]
        return super().get_context_data(
            table=table,
            drawing=drawing,
            next=reverse("cashgame:table", args=[table.pk]),
            chips_in_play=selectors.table_chips_in_play(table=table),
            hands=selectors.hand_list(table=table, limit=20),
            **kwargs,
        )


class TableLiveView(RoleRequiredMixin, TemplateView):
    """The drawn table alone, polled by the table page so it follows the room by itself."""

    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/_table_live.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            drawing=table_drawing(kwargs["pk"]), next=reverse("cashgame:table", args=[kwargs["pk"]]), **kwargs
        )


class SeatPlayerView(ActionView):
    form_class = forms.SeatForm

    def perform(self, form, pk):
        return sessions.session_seat(
            actor=self.request.user, table=get_object_or_404(CashTable, pk=pk), **form.cleaned_data
        )

    def message(self, result, **kwargs):
        return _("%(player)s has seat %(seat)d; the buy-in is at the cage.") % {
            "player": result.player.full_name,
            "seat": result.seat,
        }

    def back(self, pk, **kwargs):
        return reverse("cashgame:table", args=[pk])


class SessionActionView(ActionView):
    """A tap on a seat; goes back to the page it came from (dealer tablet or table page)."""

    def back(self, pk, **kwargs):
        session = PlayerSession.objects.filter(pk=pk).values_list("table_id", flat=True).first()
        page = "cashgame:dealer" if self.request.POST.get("from") == "dealer" else "cashgame:table"
        return reverse(page, args=[session]) if session else reverse("cashgame:tables")


class SeatStateView(SessionActionView):
    def perform(self, form, pk):
        return sessions.session_state_change(
            actor=self.request.user,
            session=get_object_or_404(PlayerSession, pk=pk),
            action=self.request.POST.get("action", ""),
        )

    def message(self, result, **kwargs):
        return _("Seat %(seat)d: %(state)s.") % {"seat": result.seat, "state": result.get_state_display()}


class StackView(SessionActionView):
    form_class = forms.StackForm

    def perform(self, form, pk):
        return sessions.session_stack_report(
            actor=self.request.user,
            session=get_object_or_404(PlayerSession, pk=pk),
            chips_cents=form.cleaned_data["chips"],
        )

    def message(self, result, **kwargs):
        return _("Seat %(seat)d: %(state)s.") % {"seat": result.seat, "state": result.get_state_display()}


class MoveView(SessionActionView):
    form_class = forms.MoveForm

    def perform(self, form, pk):
        return sessions.session_move(
            actor=self.request.user,
            session=get_object_or_404(PlayerSession, pk=pk),
            table=form.cleaned_data["table"],
            seat=form.cleaned_data["seat"],
            chips_cents=form.cleaned_data["chips"],
        )

    def message(self, result, **kwargs):
        return _("%(player)s now sits at %(table)s, seat %(seat)d.") % {
            "player": result.player.full_name,
            "table": result.table,
            "seat": result.seat,
        }
