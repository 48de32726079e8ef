"""The one-tap actions the desk offers for the player in front of the cashier.

Each action is a small form of the desk's one TransactionForm (so every one goes through the
cage's one door, CAG-6, with its own hidden key, CAG-2): what the player's state already
says (the kind, his table, the tournament, the amount owed) travels hidden, and only what the
cashier must type (an amount, the chips counted) is shown. After a refused request the form
the cashier sent comes back in its own place, with what was typed and the error."""

from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _

from cage.forms import TransactionForm
from cage.selectors import PlayerDesk, entry_buys_open, session_needs_buy_in
from cardroom.money import format_eur
from cashier.models import PaymentMethod, TransactionKind


@dataclass
class Action:
    slug: str  # unique on the page: the posted `action` names the form to show again
    title: str
    button: str
    form: TransactionForm
    fields: list[str] = field(default_factory=list)  # the visible fields, in order
    hidden: dict = field(default_factory=dict)  # what the player's state says
    primary: bool = True
    detail: str = ""
    # Why the rules refuse it now, in plain words: the button shows disabled with this, and no
    # field to type into (never a button that will be refused).
    refused: str = ""


def _form(slug: str, player_id: int) -> TransactionForm:
    return TransactionForm(auto_id=f"id_{slug}_%s", initial={"player": player_id})


def _pay_hidden(kind: str, cents: int, **more) -> dict:
    # The amount shown on the button travels with it, confirmed: the game pays what is owed
    # and refuses a request whose amount no longer matches (cage/services.py).
    return {
        "kind": kind,
        "method": PaymentMethod.CASH,  # the cage pays out in cash
        "amount": format_eur(cents, with_currency=False),
        "confirm_amount": str(cents),
        **{k: v for k, v in more.items() if v is not None},
    }


def _excluded(desk: PlayerDesk) -> str:
    """PLY-1: the exclusion list is the operator's, so a player excluded in any of its venues
    buys no chips here (the service refuses it too, and logs the try)."""
    if not desk.player.is_excluded_on(timezone.localdate()):
        return ""
    return _("%(player)s is on the exclusion list and cannot buy in.") % {"player": desk.player.full_name}


def _no_chips(desk: PlayerDesk) -> str:
    if desk.cage_chips_cents > 0:
        return ""
    return _("The cage holds no cash-game chips: bring chips from the vault to the cage first.")


def _cage_holds(desk: PlayerDesk) -> str:
    return _("The cage holds %(chips)s in chips.") % {"chips": format_eur(desk.cage_chips_cents)}


def desk_actions(desk: PlayerDesk) -> list[Action]:
    player_id = desk.player.pk
    actions: list[Action] = []
    session = desk.session
    if session is None:
        actions.append(
            Action(
                slug="buy-in",
                title=_("Buy-in at a cash table"),
                button=_("Sell chips"),
                form=_form("buy-in", player_id),
                fields=["table", "seat", "amount", "method"],
                hidden={"kind": TransactionKind.CASH_BUY_IN},
                detail=_cage_holds(desk),
                refused=_excluded(desk) or _no_chips(desk),
            )
        )
    elif session_needs_buy_in(session):
        actions.append(
            Action(
                slug="buy-in",
                title=_("Buy-in at %(table)s, seat %(seat)d")
                % {"table": session.table, "seat": session.seat},
                button=_("Sell chips"),
                form=_form("buy-in", player_id),
                fields=["amount", "method"],
                hidden={"kind": TransactionKind.CASH_BUY_IN, "table": session.table_id},
                detail=_cage_holds(desk),
                refused=_excluded(desk) or _no_chips(desk),
            )
        )
    else:
        actions.append(
            Action(
                slug="top-up",
                title=_("Top-up at %(table)s") % {"table": session.table},
                button=_("Top up"),
                form=_form("top-up", player_id),
                fields=["chips_on_table", "amount", "method"],
                hidden={"kind": TransactionKind.TOP_UP, "table": session.table_id},
                detail=_("Only between hands.") + " " + _cage_holds(desk),
                refused=_excluded(desk)
                or (
                    _("A hand is in progress at %(table)s: top up when it ends.") % {"table": session.table}
                    if session.table.hand_in_progress
                    else _no_chips(desk)
                ),
            )
        )
        actions.append(
            Action(
                slug="cash-out",
                title=_("Cash-out: leaves %(table)s") % {"table": session.table},
                button=_("Cash out"),
                form=_form("cash-out", player_id),
                fields=["amount"],
                hidden={"kind": TransactionKind.CASH_OUT, "table": session.table_id},
                refused=_cash_out_refused(desk),
            )
        )
    for index, owed in enumerate(desk.owed):
        slug = f"pay-{index}"
        actions.append(
            Action(
                slug=slug,
                title=owed.label,
                button=_("Pay %(amount)s") % {"amount": format_eur(owed.amount_cents)},
                form=_form(slug, player_id),
                hidden=_pay_hidden(owed.kind, owed.amount_cents, tournament=owed.tournament_id),
            )
        )
    for entry in desk.entries:
        rebuy, add_on = entry_buys_open(entry)
        for open_, kind, label in (
            (rebuy, TransactionKind.REBUY, _("Rebuy")),
            (add_on, TransactionKind.ADD_ON, _("Add-on")),
        ):
            if open_:
                slug = f"{kind}-{entry.pk}"
                actions.append(
                    Action(
                        slug=slug,
                        title=f"{label}, {entry.tournament.name}",
                        button=label,
                        form=_form(slug, player_id),
                        fields=["method"],
                        hidden={"kind": kind, "tournament": entry.tournament_id},
                        primary=False,
                    )
                )
    return actions


def _cash_out_refused(desk: PlayerDesk) -> str:
    session = desk.session
    values = {"player": desk.player.full_name, "table": session.table}
    if desk.dealt_in:
        return _("%(player)s is dealt in the hand in progress at %(table)s: cash out when it ends.") % values
    if session.last_counted_cents == 0:
        return (
            _(
                "The dealer counted no chips in front of %(player)s at %(table)s: there is nothing "
                "to cash out."
            )
            % values
        )
    return ""


def place_bound_form(actions: list[Action], form: TransactionForm, slug: str) -> bool:
    """Put the form the cashier sent back in the action it came from, under that action's
    field ids; False when it came from no action on the page (the full form)."""
    for action in actions:
        if action.slug == slug:
            form.auto_id = f"id_{slug}_%s"
            action.form = form
            return True
    return False
