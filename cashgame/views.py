"""Cash-game pages: tables and the dealer tablet (floor), the cashier's cash-game desk, games
(managers), drop-box counts, jackpot claims, waiting lists with the public board, rulings and
the floor's calculators. Each POST calls one service; a refused request shows the rule."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from cardroom.errors import DomainError
from cardroom.forms import DomainFormMixin
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, MANAGER_ROLES, Role, RoleRequiredMixin, has_role
from cashgame import calculators, forms, selectors
from cashgame.models import (
    CashTable,
    Game,
    Hand,
    HandStatus,
    JackpotShare,
    PlayerSession,
    SeatState,
    WaitingEntry,
)
from cashgame.rulebook import SITUATIONS
from cashgame.services import dropbox, games, hands, jackpot, rulings, sessions, tables, waiting
from cashgame.services.dropbox import DROP_COUNT_ROLES
from cashgame.services.sessions import STATE_ACTIONS
from cashier.selectors import jackpot_fund_balance, open_shift_for


def form_errors(form) -> str:
    return " ".join(f"{error}" for errors in form.errors.values() for error in errors)


class ActionView(RoleRequiredMixin, View):
    """POST-only: bind `form_class`, call `perform`, flash the outcome, go back."""

    http_method_names = ["post"]
    allowed_roles = FLOOR_ROLES
    form_class = None
    done = ""

    def form(self):
        return self.form_class(self.request.POST) if self.form_class else None

    def perform(self, form, **kwargs):  # pragma: no cover - every view defines it
        raise NotImplementedError

    def back(self, **kwargs) -> str:  # pragma: no cover - every view defines it
        raise NotImplementedError

    def post(self, request, **kwargs):
        form = self.form()
        if form is not None and not form.is_valid():
            messages.error(request, form_errors(form))
            return redirect(self.back(**kwargs))
        try:
            result = self.perform(form, **kwargs)
        except DomainError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, self.message(result, **kwargs))
        return redirect(self.back(**kwargs))

    def message(self, result, **kwargs) -> str:
        return str(self.done)


# Tables (floor) ------------------------------------------------------------------------------


class TableListView(RoleRequiredMixin, TemplateView):
    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/table_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            tables=selectors.table_list(),
            can_manage=has_role(self.request.user, *MANAGER_ROLES),
            games=selectors.game_list(active_only=True),
            **kwargs,
        )


class TableCreateView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashgame/form.html"
    form_class = forms.TableForm
    extra_context = {"title": _("New cash table")}

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


class TableDetailView(RoleRequiredMixin, TemplateView):
    """The floor's view of one table: seats, sessions, moves, recent hands."""

    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/table_detail.html"

    def get_context_data(self, **kwargs):
        table = get_object_or_404(CashTable.objects.select_related("game"), pk=kwargs["pk"])
        return super().get_context_data(
            **table_context(table), seat_form=forms.SeatForm(), move_form=forms.MoveForm(), **kwargs
        )


class SeatPlayerView(ActionView):
    form_class = forms.SeatForm

    def perform(self, form, pk):
        return sessions.session_seat(
            actor=self.request.user, table=get_object_or_404(CashTable, pk=pk), **form.cleaned_data
        )

    def message(self, result, **kwargs):
        return _("%(player)s has seat %(seat)d; he buys in at the cage.") % {
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


# Dealer tablet ------------------------------------------------------------------------------


class DealerView(RoleRequiredMixin, TemplateView):
    """One tap per step: deal, flop, end with the pot, void; and the seat states."""

    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/dealer.html"

    def get_context_data(self, **kwargs):
        table = get_object_or_404(CashTable.objects.select_related("game"), pk=kwargs["pk"])
        context = table_context(table)
        last = Hand.objects.filter(table=table).exclude(status=HandStatus.IN_PROGRESS).order_by("-pk").first()
        context["last_hand"] = last
        context["next_button"] = _next_button(context["seats"], last)
        return super().get_context_data(**context, **kwargs)


def _next_button(seats: list[dict], last: Hand | None) -> int | None:
    """The seat after the last hand's button that is in play: the dealer's suggestion."""
    playing = [row["seat"] for row in seats if row["session"] and row["session"].state == SeatState.PLAYING]
    if not playing:
        return None
    if last is None or last.button_seat is None:
        return playing[0]
    after = [seat for seat in playing if seat > last.button_seat]
    return (after or playing)[0]


class DealerActionView(ActionView):
    def form(self):
        forms_by_action = {"start": forms.HandStartForm, "end": forms.HandEndForm, "void": forms.HandVoidForm}
        form_class = forms_by_action.get(self.kwargs["action"])
        return form_class(self.request.POST) if form_class else None

    def perform(self, form, pk, action):
        actor, now = self.request.user, timezone.now()
        if action == "start":
            return hands.hand_start(
                actor=actor,
                table=CashTable(pk=pk),
                seats=form.cleaned_data["seats"],
                button_seat=form.cleaned_data["button_seat"],
                now=now,
            )
        hand = Hand.objects.filter(table_id=pk, status=HandStatus.IN_PROGRESS).first()
        if hand is None:
            raise DomainError("no_hand", _("No hand is in progress at this table."), status_code=409)
        if action == "flop":
            return hands.hand_flop(actor=actor, hand=hand, now=now)
        if action == "end":
            return hands.hand_end(actor=actor, hand=hand, pot_cents=form.cleaned_data["pot"], now=now)
        return hands.hand_void(actor=actor, hand=hand, reason=form.cleaned_data["reason"], now=now)

    def message(self, result, **kwargs):
        if result.status == HandStatus.ENDED:
            return _("Hand %(n)d ended: rake %(rake)s, jackpot drop %(drop)s.") % {
                "n": result.number,
                "rake": f"{result.rake_cents / 100:.2f}",
                "drop": f"{result.jackpot_drop_cents / 100:.2f}",
            }
        if result.status == HandStatus.VOIDED:
            return _("Hand %d is void: no rake.") % result.number
        if result.saw_flop:
            return _("Hand %d: flop dealt.") % result.number
        return _("Hand %d dealt.") % result.number

    def back(self, pk, **kwargs):
        return reverse("cashgame:dealer", args=[pk])


# Games (managers) ---------------------------------------------------------------------------


class GameListView(RoleRequiredMixin, TemplateView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashgame/game_list.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(games=selectors.game_list(), **kwargs)


class GameCreateView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = MANAGER_ROLES
    template_name = "cashgame/form.html"
    form_class = forms.GameForm
    extra_context = {"title": _("New game")}

    def perform(self, form):
        return games.game_create(actor=self.request.user, **form.service_values())

    def get_success_url(self):
        messages.success(self.request, _("%s created.") % self.result)
        return reverse("cashgame:games")


class GameEditView(GameCreateView):
    extra_context = {"title": _("Edit game")}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "game": get_object_or_404(Game, pk=self.kwargs["pk"])}

    def perform(self, form):
        return games.game_update(
            actor=self.request.user,
            game=get_object_or_404(Game, pk=self.kwargs["pk"]),
            **form.service_values(),
        )

    def get_success_url(self):
        messages.success(self.request, _("%s saved.") % self.result)
        return reverse("cashgame:games")


# Cashier desk -------------------------------------------------------------------------------


class CashierDeskView(RoleRequiredMixin, TemplateView):
    allowed_roles = CASHIER_ROLES
    template_name = "cashgame/cashier.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            shift=open_shift_for(cashier=self.request.user),
            buy_in_form=forms.BuyInForm(),
            top_up_form=forms.TopUpForm(),
            cash_out_form=forms.CashOutForm(),
            shares=selectors.jackpot_unpaid_shares(),
            **kwargs,
        )


def _shift_of(user):
    shift = open_shift_for(cashier=user)
    if shift is None:
        raise DomainError("no_open_shift", _("Open your shift at the cashier desk first."), rule="CAG-3")
    return shift


class CashierActionView(ActionView):
    allowed_roles = CASHIER_ROLES

    def form(self):
        form_class = {"buy-in": forms.BuyInForm, "top-up": forms.TopUpForm, "cash-out": forms.CashOutForm}
        return form_class[self.kwargs["action"]](self.request.POST)

    def perform(self, form, action):
        data, actor = form.cleaned_data, self.request.user
        common = {"actor": actor, "shift": _shift_of(actor), "idempotency_key": data["idempotency_key"]}
        if action == "buy-in":
            return sessions.session_buy_in(
                **common,
                table=data["table"],
                player=data["player"],
                seat=data["seat"],
                amount_cents=data["amount"],
                method=data["method"],
            )
        if action == "top-up":
            return sessions.session_top_up(
                **common,
                session=data["session"],
                amount_cents=data["amount"],
                chips_on_table_cents=data["chips_on_table"],
                method=data["method"],
            )
        return sessions.session_cash_out(**common, session=data["session"], amount_cents=data["amount"])

    def message(self, result, action):
        texts = {
            "buy-in": _("%(player)s bought in at %(table)s, seat %(seat)d."),
            "top-up": _("%(player)s topped up at %(table)s, seat %(seat)d."),
            "cash-out": _("%(player)s cashed out and left %(table)s, seat %(seat)d."),
        }
        return texts[action] % {"player": result.player.full_name, "table": result.table, "seat": result.seat}

    def back(self, **kwargs):
        return reverse("cashgame:cashier")


class SharePayView(ActionView):
    allowed_roles = CASHIER_ROLES

    def perform(self, form, pk):
        return jackpot.jackpot_share_pay(
            actor=self.request.user,
            shift=_shift_of(self.request.user),
            share=get_object_or_404(JackpotShare, pk=pk),
            idempotency_key=self.request.POST.get("idempotency_key", ""),
        )

    def message(self, result, **kwargs):
        return _("Jackpot share paid to %s.") % result.player.full_name

    def back(self, **kwargs):
        return reverse("cashgame:cashier")


# Drop-box counts, jackpot, rulings ------------------------------------------------------------


class DropCountView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = DROP_COUNT_ROLES
    template_name = "cashgame/drop_counts.html"
    form_class = forms.DropCountForm

    def get_context_data(self, **kwargs):
        return super().get_context_data(counts=selectors.dropbox_count_list()[:100], **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        return dropbox.dropbox_count_record(
            actor=self.request.user,
            table=data["table"],
            period_start=data["period_start"],
            period_end=data["period_end"],
            counted_cents=data["counted"],
            note=data["note"],
        )

    def get_success_url(self):
        messages.success(self.request, _("Drop box of %s recorded.") % self.result.table)
        return reverse("cashgame:drop-counts")


class JackpotView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/jackpot.html"
    form_class = forms.ClaimForm

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            claims=selectors.jackpot_claim_list()[:50], fund=jackpot_fund_balance(), **kwargs
        )

    def perform(self, form):
        data = form.cleaned_data
        hand = Hand.objects.filter(table=data["table"], number=data["hand_number"]).first()
        if hand is None:
            raise DomainError("unknown_hand", _("No such hand at that table."), rule="JKP-1")
        return jackpot.jackpot_claim_create(
            actor=self.request.user,
            hand=hand,
            loser_seat=data["loser_seat"],
            winner_seat=data["winner_seat"],
            loser_cards=data["loser_cards"],
            winner_cards=data["winner_cards"],
            board=data["board"],
        )

    def get_success_url(self):
        messages.success(self.request, _("Bad-beat jackpot awarded: the cashier pays the shares."))
        return reverse("cashgame:jackpot")


class RulingsView(RoleRequiredMixin, DomainFormMixin, FormView):
    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/rulings.html"
    form_class = forms.RulingForm

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            situations=SITUATIONS, rulings=selectors.ruling_list()[:100], **kwargs
        )

    def perform(self, form):
        data = form.cleaned_data
        hand = None
        if data["hand_number"]:
            hand = Hand.objects.filter(table=data["table"], number=data["hand_number"]).first()
            if hand is None:
                raise DomainError("unknown_hand", _("No such hand at that table."), rule="FLR-5")
        return rulings.ruling_record(
            actor=self.request.user,
            table=data["table"],
            hand=hand,
            situation=data["situation"],
            decision=data["decision"],
        )

    def get_success_url(self):
        messages.success(self.request, _("Ruling logged."))
        return reverse("cashgame:rulings")


# Waiting lists and the public board -----------------------------------------------------------


class WaitingView(RoleRequiredMixin, TemplateView):
    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/waiting.html"

    def get_context_data(self, **kwargs):
        board = selectors.waiting_board()
        open_tables = list(forms.open_tables())
        for block in board:
            block["tables"] = [table for table in open_tables if table.game_id == block["game"].pk]
        return super().get_context_data(board=board, add_form=forms.WaitingAddForm(), **kwargs)


class WaitingActionView(ActionView):
    def form(self):
        return {"add": forms.WaitingAddForm, "call-next": forms.CallNextForm}[self.kwargs["action"]](
            self.request.POST
        )

    def perform(self, form, action):
        if action == "add":
            return waiting.waiting_add(actor=self.request.user, **form.cleaned_data)
        return waiting.waiting_call_next(actor=self.request.user, **form.cleaned_data)

    def message(self, result, action):
        if action == "add":
            return _("%s is on the list.") % result.player.full_name
        return _("%(player)s is called to %(table)s.") % {
            "player": result.player.full_name,
            "table": result.table,
        }

    def back(self, **kwargs):
        return reverse("cashgame:waiting")


class WaitingEntryActionView(ActionView):
    def form(self):
        return forms.WaitingSeatForm(self.request.POST) if self.kwargs["action"] == "seat" else None

    def perform(self, form, pk, action):
        entry = get_object_or_404(WaitingEntry, pk=pk)
        if action == "seat":
            return waiting.waiting_seat(actor=self.request.user, entry=entry, **form.cleaned_data)
        return waiting.waiting_remove(actor=self.request.user, entry=entry)

    def message(self, result, pk, action):
        if action == "seat":
            return _("%(player)s has seat %(seat)d at %(table)s; he buys in at the cage.") % {
                "player": result.player.full_name,
                "seat": result.seat,
                "table": result.table,
            }
        return _("%s is off the list.") % result.player.full_name

    def back(self, **kwargs):
        return reverse("cashgame:waiting")


class BoardView(TemplateView):
    """The room's screens: public and read-only (CSH-7); refreshes its rows every 5 seconds."""

    template_name = "cashgame/board.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(board=selectors.waiting_board(), **kwargs)


class BoardRowsView(BoardView):
    template_name = "cashgame/_board_rows.html"

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        response["Cache-Control"] = "no-store"
        return response


# Calculators --------------------------------------------------------------------------------

CALCULATORS = {
    "pots": (forms.SidePotForm, lambda data: calculators.side_pots(**data)),
    "showdown": (forms.ShowdownForm, lambda data: {"order": calculators.showdown(**data)}),
    "hand": (forms.BestHandForm, lambda data: calculators.best_hand(**data)),
    "raise": (forms.RaiseForm, lambda data: calculators.raise_limits(**data)),
}


class CalculatorsView(RoleRequiredMixin, TemplateView):
    """Side pots (POT-1, POT-2), showdown order (POT-3), best hand (HND-1), raises (BET-2..4).
    Computing writes nothing, so it is a GET with the calculator's name in `calc`."""

    allowed_roles = (*FLOOR_ROLES, Role.CASHIER)
    template_name = "cashgame/calculators.html"

    def get_context_data(self, **kwargs):
        chosen = self.request.GET.get("calc", "")
        context = {}
        for name, (form_class, compute) in CALCULATORS.items():
            form = form_class(self.request.GET) if name == chosen else form_class()
            result = error = None
            if name == chosen and form.is_valid():
                try:
                    result = compute(form.cleaned_data)
                except DomainError as refused:
                    error = str(refused)
            context[name] = {"form": form, "result": result, "error": error}
        return super().get_context_data(calc=context, chosen=chosen, **kwargs)
