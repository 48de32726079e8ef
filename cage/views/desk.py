"""The cage's desk: find the player (card, name or nickname), see his seat, session, entries
and what he is owed, and act in one tap. Every action posts the desk's one form, which goes
through the cage's one door (CAG-6)."""

from urllib.parse import urlencode

from django.db.models import QuerySet
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.views.generic import FormView

from cage import services
from cage.forms import TransactionForm
from cage.forms.actions import desk_actions, place_bound_form
from cage.selectors import player_desk_get, receipt_facts_get, receipt_where
from cardroom.forms import DomainFormMixin
from cardroom.roles import CASHIER_ROLES, RoleRequiredMixin
from cashier.api import scoped_transactions
from cashier.receipts import receipt_message
from cashier.selectors import drawer_expected, open_shift_for, shift_transactions
from chips.selectors import cash_chips_in_cage
from loyalty.selectors import balance_of
from players.models import Player
from players.selectors import player_search
from printing.forms import DeskPrinterForm
from printing.selectors import cage_printers_for, jobs_failed


class DeskView(RoleRequiredMixin, DomainFormMixin, FormView):
    """The cashier's one screen: the open shift, the player in front of him with his one-tap
    actions, the full form for anything else, and the shift's transactions."""

    allowed_roles = CASHIER_ROLES
    template_name = "cashier/desk.html"
    form_class = TransactionForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            self.shift = open_shift_for(cashier=request.user)
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        if self.shift is None:
            return redirect("cashier:shift-open")
        matches = self.matches
        if matches is not None and len(matches) == 1 and self.player is None:
            # A card swiped (or a name only one player has): straight to him.
            return redirect(f"{reverse('cashier:desk')}?player={matches[0].pk}")
        return super().get(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        if self.shift is None:
            return redirect("cashier:shift-open")
        return super().post(request, *args, **kwargs)

    @cached_property
    def query(self) -> str:
        return self.request.GET.get("q", "").strip()[:100]

    @cached_property
    def matches(self) -> list[Player] | None:
        return list(player_search(query=self.query, limit=8)) if self.query else None

    @cached_property
    def player(self) -> Player | None:
        wanted = self.request.POST.get("player") or self.request.GET.get("player") or ""
        return Player.objects.filter(pk=int(wanted)).first() if wanted.isdigit() else None

    def get_initial(self):
        return {"player": self.player.pk} if self.player else {}

    def get_context_data(self, **kwargs):
        form = kwargs.pop("form", None) or self.get_form()
        desk = player_desk_get(player=self.player) if self.player else None
        actions = desk_actions(desk) if desk else []
        if form.is_bound and place_bound_form(actions, form, self.request.POST.get("action", "")):
            form = self.get_form_class()(initial=self.get_initial())  # the full form, fresh
        elif not form.is_bound:
            _focus_the_amount(actions)
        transactions: QuerySet = shift_transactions(shift=self.shift)[:50]
        return super().get_context_data(
            shift=self.shift,
            drawer_cents=drawer_expected(shift=self.shift),
            cage_chips_cents=desk.cage_chips_cents if desk else cash_chips_in_cage(),
            transactions=transactions,
            query=self.query,
            matches=self.matches,
            desk=desk,
            chosen_player=self.player,
            # LOY-1: his points and their worth (one query); comps are given on his card.
            loyalty_points=balance_of(player_id=self.player.pk) if self.player else None,
            actions=actions,
            form=form,
            full_form_open=form.is_bound,
            done=self.done_message,
            **self.printing_context(),
            **kwargs,
        )

    def printing_context(self) -> dict:
        """The desk's printer, its prints that did not come out ("print again", CAG-4), and
        the choice of printer where the cage has several."""
        printer, printers = cage_printers_for(shift_id=self.shift.pk)
        choice = None
        if len(printers) > 1:
            choice = DeskPrinterForm(printers=printers, initial={"printer": printer.pk if printer else None})
        return {
            "desk_printer": printer,
            "print_failures": jobs_failed(printer=printer),
            "desk_printer_choice": choice,
        }

    @cached_property
    def done_message(self):
        """The line of the transaction just made (`?done=<id>`), this cashier's own: said once
        however often the page is reached, so a double tap reads as the one sale it was."""
        wanted = self.request.GET.get("done", "")
        if not wanted.isdigit() or len(wanted) > 18:
            return None
        record = scoped_transactions(self.request.user).filter(pk=int(wanted)).first()
        if record is None:
            return None
        return receipt_message(record=record, where=receipt_where(receipt_facts_get(record=record)))

    def perform(self, form):
        data = form.cleaned_data
        return services.transaction_route(
            actor=self.request.user,
            shift=self.shift,
            request=services.DeskRequest(
                kind=data["kind"],
                player_id=data["player"],
                amount_cents=data["amount"],
                method=data["method"],
                table_id=data["table"].pk if data["table"] else None,
                seat=data["seat"],
                chips_on_table_cents=data["chips_on_table"],
                tournament_id=data["tournament"].pk if data["tournament"] else None,
            ),
            idempotency_key=data["idempotency_key"],
        )

    def get_success_url(self):
        # Back to the player, ready for the next thing, with the receipt to print (CAG-4).
        done = {"done": self.result.pk}
        if self.result.player_id is not None:
            done = {"player": self.result.player_id, **done}
        return f"{reverse('cashier:desk')}?{urlencode(done)}"


def _focus_the_amount(actions) -> None:
    """The cashier types only the amount: the player's first action that asks for one has the
    cursor (the floor's table and seat travel hidden)."""
    for action in actions:
        if not action.refused and "amount" in action.fields:
            action.form.fields["amount"].widget.attrs["autofocus"] = True
            return
