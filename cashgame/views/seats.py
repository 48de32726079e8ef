"""A tap on a drawn seat (the floor view and the table page): a small panel with only the actions
the seat's state allows, and those actions, each one call of a cash-game service (which checks
the house rules again and writes the audit record).

Answered to htmx with the panel again (the outcome on top) and an `HX-Trigger: room-changed`
header, so the drawn tables redraw at once; without JavaScript, with a redirect back to the page
the tap came from."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.money import parse_cents
from cardroom.refusals import refuse
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, RoleRequiredMixin, has_role
from cashgame import forms, selectors
from cashgame.models import CashTable, PlayerSession, WaitingEntry
from cashgame.selectors import seating
from cashgame.selectors.dealing import FIRST_HAND_STATES, table_game_is_new
from cashgame.services import sessions, waiting, waiting_check_in, waiting_floor
from players.models import Player

SEAT_ACTIONS = ("seat-next", "seat-entry", "check-in", "seat-card", "must-move", "state", "move", "release")


def _table(pk: int) -> CashTable:
    return get_object_or_404(CashTable.objects.select_related("game"), pk=pk)


def _session_at(table: CashTable, seat: int) -> PlayerSession | None:
    return (
        PlayerSession.objects.filter(table=table, seat=seat, ended_at__isnull=True)
        .select_related("player")
        .first()
    )


def _back(request, table: CashTable) -> str:
    """Where a tap without JavaScript goes back to: the page it came from, on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return reverse("cashgame:table", args=[table.pk])


def _number(value: str | None) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isdigit() and len(value) < 10 else None


def seat_panel_context(request, table: CashTable, seat: int, *, person_form=None) -> dict:
    """The panel's offer, each action checked against the rules first (cashgame.selectors.seating).
    `entry` (and `q`) in the request open the check-in of that phone joiner (and find persons)."""
    if not 1 <= seat <= table.seats:
        raise Http404
    session = _session_at(table, seat)
    hand = selectors.table_current_hand(table=table) if table.hand_in_progress else None
    dealt = hand is not None and seat in hand.dealt_seats
    actions = selectors.seat_actions(session, table=table, dealt=dealt)
    # Whether the game is new matters only to a player the first hand deals in without a post
    # (CSH-6): asked for him alone, not at every tap on a seat.
    first_hand = session is not None and session.state in FIRST_HAND_STATES and table_game_is_new(table=table)
    data = request.POST if request.method == "POST" else request.GET
    offer = None
    if "seat" in actions:
        offer = seating.empty_seat_offer(
            table=table, seat=seat, entry_id=_number(data.get("entry")), query=data.get("q", "")
        )
        if offer["check_in"] is not None and person_form is None:
            person_form = forms.CheckInPersonForm(initial={"nickname": offer["check_in"]["entry"].nickname})
    return {
        "table": table,
        "seat": seat,
        "session": session,
        "dealt": dealt,
        "actions": actions,
        "state_taps": seating.state_taps(session, table=table, new_game=first_hand) if session else [],
        "offer": offer,
        "person_form": person_form,
        "panel_url": reverse("cashgame:seat-panel", args=[table.pk, seat]),
        "targets": selectors.move_targets(session=session) if "move" in actions else [],
        "can_cash_out": has_role(request.user, *CASHIER_ROLES),
        "next": _back(request, table),
    }


class SeatPanelView(RoleRequiredMixin, TemplateView):
    """The panel of one seat; a full page when opened without JavaScript."""

    allowed_roles = FLOOR_ROLES

    def get_template_names(self):
        return ["cashgame/_seat_panel.html" if self.request.htmx else "cashgame/seat_panel.html"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(seat_panel_context(self.request, _table(kwargs["pk"]), kwargs["seat"]))
        return context


class SeatActionView(RoleRequiredMixin, View):
    """One tap in the panel: one service call."""

    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: str, seat: str, action: str):
        table, seat = _table(int(pk)), int(seat)
        self.person_form = None
        try:
            done = self.perform(request, table, seat, action)
        except DomainError as error:
            if not request.htmx:
                refuse(request, error)
                return redirect(_back(request, table))
            outcome = ("error", error.message, error.rule)
        else:
            self.person_form = None
            if not request.htmx:
                messages.success(request, done)
                return redirect(_back(request, table))
            outcome = ("success", done, "")
        context = seat_panel_context(request, table, seat, person_form=self.person_form)
        context["outcome"] = outcome
        response = render(request, "cashgame/_seat_panel.html", context)
        response["HX-Trigger"] = "room-changed"
        return response

    def _seated(self, request, table: CashTable, seat: int) -> PlayerSession:
        """The player the panel was opened for; refused if the seat changed since."""
        session = _session_at(table, seat)
        if session is None or str(session.pk) != request.POST.get("session", ""):
            raise DomainError(
                "seat_changed", _("Seat %d changed meanwhile: look at it again.") % seat, status_code=409
            )
        return session

    def perform(self, request, table: CashTable, seat: int, action: str) -> str:
        actor, post = request.user, request.POST
        if action == "seat-next":
            session = waiting.waiting_seat_next(actor=actor, table=table, seat=seat)
        elif action == "seat-entry":
            entry_id = post.get("entry", "")
            entry = WaitingEntry.objects.filter(pk=entry_id).first() if entry_id.isdigit() else None
            if entry is None:
                raise DomainError("unknown_entry", _("Choose a player from the waiting list."))
            session = waiting.waiting_seat(
                actor=actor, entry=entry, seat=seat, table=table, reason=post.get("reason", "")
            )
        elif action == "must-move":
            chips = post.get("chips", "").strip()
            session = waiting_floor.waiting_must_move(
                actor=actor,
                table=table,
                seat=seat,
                chips_cents=parse_cents(chips, field=_("Chips taken along")) if chips else None,
            )
        elif action == "check-in":
            return self.check_in(request, table, seat)
        elif action == "seat-card":
            card = post.get("card", "").strip()
            player = selectors.player_by_card(card_number=card)
            if player is None:
                raise DomainError("unknown_card", _("No player has the card number “%s”.") % card)
            session = sessions.session_seat(actor=actor, table=table, player=player, seat=seat)
        else:
            return self.perform_seated(request, table, seat, action)
        return _("%(player)s takes seat %(seat)d at %(table)s and buys in at the cage.") % {
            "player": session.player.full_name,
            "seat": session.seat,
            "table": table,
        }

    def check_in(self, request, table: CashTable, seat: int) -> str:
        """A phone joiner without a card (WTL-1): the person found (`player`), or registered from
        the panel's form, is checked in and takes the seat, in one service call."""
        post = request.POST
        entry = WaitingEntry.objects.filter(pk=_number(post.get("entry"))).first()
        if entry is None:
            raise DomainError("unknown_entry", _("Choose a player from the waiting list."))
        if post.get("player"):
            player = Player.objects.filter(pk=_number(post.get("player"))).first()
            if player is None:
                raise DomainError("unknown_player", _("Choose one of the persons found."))
            session = waiting_check_in.waiting_check_in_seat(
                actor=request.user, entry=entry, table=table, seat=seat, player=player
            )
            return _("%(player)s takes seat %(seat)d at %(table)s and buys in at the cage.") % {
                "player": session.player.full_name,
                "seat": session.seat,
                "table": table,
            }
        self.person_form = form = forms.CheckInPersonForm(post)
        if not form.is_valid():
            raise DomainError("invalid_person", _("Check the new player's details marked below."))
        session = waiting_check_in.waiting_check_in_seat(
            actor=request.user, entry=entry, table=table, seat=seat, person=form.cleaned_data
        )
        return _(
            "New player card %(card)s for %(player)s, who takes seat %(seat)d at %(table)s and buys in "
            "at the cage."
        ) % {
            "card": session.player.card_number,
            "player": session.player.full_name,
            "seat": seat,
            "table": table,
        }

    def perform_seated(self, request, table: CashTable, seat: int, action: str) -> str:
        actor, post = request.user, request.POST
        session = self._seated(request, table, seat)
        who = session.player.full_name
        if action == "state":
            session = sessions.session_state_change(actor=actor, session=session, action=post.get("do", ""))
            return _("%(player)s, seat %(seat)d: %(state)s.") % {
                "player": who,
                "seat": seat,
                "state": session.get_state_display(),
            }
        if action == "release":
            sessions.session_release(actor=actor, session=session)
            return _("Seat %(seat)d at %(table)s is free again.") % {"seat": seat, "table": table}
        target_table, target_seat = self._target(post.get("to", ""))
        chips = post.get("chips", "").strip()
        session = sessions.session_move(
            actor=actor,
            session=session,
            table=target_table,
            seat=target_seat,
            chips_cents=parse_cents(chips, field=_("Chips taken along")) if chips else None,
        )
        return _("%(player)s now sits at %(table)s, seat %(seat)d.") % {
            "player": who,
            "table": session.table,
            "seat": session.seat,
        }

    @staticmethod
    def _target(value: str) -> tuple[CashTable, int]:
        table_id, _sep, seat = value.partition(":")
        target = CashTable.objects.filter(pk=table_id).first() if table_id.isdigit() else None
        if target is None or not seat.isdigit():
            raise DomainError("target_required", _("Choose the table and the free seat to move to."))
        return target, int(seat)
