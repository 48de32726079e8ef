"""Chips that follow cash (CHP-2): a cash-game buy-in or top-up takes chips from the cage to the
players' hands, a cash-out brings them back, and a reversal of either moves them back again.

The money's service calls these inside its own transaction, after its role check and with the
table locked, so the chips move exactly when the money does (and not at all when it is refused).
The chips are the house's cash-game set (the first of its kind), counted in cents:

- a sale hands out the amount as a playable stack from what the cage holds (poker.change: chips
  worth at most a quarter of the amount, largest first, larger ones only when the cage runs
  short of those); a sale the cage cannot make is refused, so the cage never gives out chips it
  does not hold;
- a redemption takes back the largest chips first from what the players hold by the ledger,
  and, when the tables made change the ledger cannot see, the largest chips that make the rest;
- an amount no chips make (below the smallest chip) is refused: the money would not match.

Cheap by design, because every buy-in pays for it: the set, its chips and its two accounts are
read once per process; a sale costs four statements (the cage locked, its chips summed, the
posting, its entries in one insert), a redemption three. The money's own audit record covers the
movement: the session event links the posting to the cashier's transaction.
"""

from dataclasses import replace
from datetime import datetime

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import format_eur
from chips.models import ChipAccount, ChipAccountKind, ChipPosting, ChipPostingKind
from chips.selectors import CashChips, cash_chips_get, cash_chips_remember, cash_chips_worth
from chips.selectors import chips_held as _held
from chips.services.ledger import MAX_CHIPS, RULE, ChipLine, chip_account_for, posting_insert
from poker.change import chips_for


def _lock(account: ChipAccount) -> None:
    """The cage's row, locked while its chips are counted and given out (after the table's lock,
    before the cashier's rows: see docs/architecture.md, Locks and their order)."""
    list(ChipAccount.objects.select_for_update(of=("self",), no_key=True).filter(pk=account.pk))


def _stock(cash: CashChips, held: dict[int, int]) -> dict[int, int]:
    return {value: max(held.get(chip.pk, 0), 0) for value, chip in cash.chips.items()}


def _cash(amount_cents: int) -> CashChips:
    cash = cash_chips_get()
    if cash is None or not cash.chips:
        raise DomainError(
            "no_cash_chips",
            _("The room has no cash-game chips: add the set first."),
            rule=RULE,
            status_code=409,
        )
    if amount_cents % cash.smallest:
        raise DomainError(
            "not_in_chips",
            _("%(amount)s cannot be paid in chips: the smallest cash-game chip is %(chip)s.")
            % {"amount": format_eur(amount_cents), "chip": format_eur(cash.smallest)},
            rule=RULE,
        )
    return cash


def _hands(cash: CashChips) -> ChipAccount:
    if cash.hands is not None:
        return cash.hands
    hands = chip_account_for(chip_set=cash.chip_set, kind=ChipAccountKind.HANDS)  # the first sale
    cash_chips_remember(replace(cash, hands=hands))
    return hands


def _post(
    *, actor, cash: CashChips, kind: str, chips: dict[int, int], source, target, now, **where
) -> ChipPosting:
    if any(count > MAX_CHIPS for count in chips.values()):
        raise DomainError("too_many_chips", _("More chips than a cage hands over at once."), rule=RULE)
    lines = []
    for value, count in sorted(chips.items()):
        lines += [ChipLine(source, cash.chips[value], -count), ChipLine(target, cash.chips[value], count)]
    return posting_insert(
        actor=actor, chip_set=cash.chip_set, kind=kind, lines=lines, now=now, audited=False, **where
    )


def cage_short(*, cash: CashChips, amount_cents: int, held: dict[int, int]) -> DomainError:
    worth = cash_chips_worth(cash=cash, held=held)
    if worth < amount_cents:
        message = _(
            "The cage holds %(held)s in cash-game chips, not enough for %(amount)s: bring chips "
            "from the vault to the cage first."
        )
    else:
        message = _(
            "The cage cannot make %(amount)s from the chips it holds (%(held)s): bring smaller chips "
            "from the vault to the cage first."
        )
    return DomainError(
        "cage_short_of_chips",
        message % {"held": format_eur(worth), "amount": format_eur(amount_cents)},
        rule=RULE,
        status_code=409,
    )


def cash_chips_sell(
    *, actor, amount_cents: int, table_key: str, table_label: str, now: datetime
) -> ChipPosting:
    """The chips of a buy-in or top-up, from the cage to the player: a playable stack of what
    the cage holds. The caller holds the transaction and has checked the role."""
    cash = _cash(amount_cents)
    if cash.cage is None:
        raise cage_short(cash=cash, amount_cents=amount_cents, held={})
    _lock(cash.cage)
    held = _held(cash.cage)
    chips = chips_for(amount_cents, _stock(cash, held), stack=True)
    if chips is None:
        raise cage_short(cash=cash, amount_cents=amount_cents, held=held)
    return _post(
        actor=actor,
        cash=cash,
        kind=ChipPostingKind.SALE,
        chips=chips,
        source=cash.cage,
        target=_hands(cash),
        now=now,
        table_key=table_key,
        table_label=table_label,
    )


def cash_chips_redeem(
    *, actor, amount_cents: int, table_key: str, table_label: str, now: datetime
) -> ChipPosting:
    """The chips of a cash-out, from the player back to the cage. The caller holds the
    transaction and has checked the role."""
    cash = _cash(amount_cents)
    hands = _hands(cash)
    chips = chips_for(amount_cents, _stock(cash, _held(hands)))
    if chips is None:  # change made at the tables: the largest chips that make the amount
        chips = chips_for(amount_cents, dict.fromkeys(cash.chips))
    cage = cash.cage or chip_account_for(chip_set=cash.chip_set, kind=ChipAccountKind.CAGE)
    return _post(
        actor=actor,
        cash=cash,
        kind=ChipPostingKind.REDEMPTION,
        chips=chips,
        source=hands,
        target=cage,
        now=now,
        table_key=table_key,
        table_label=table_label,
    )


def _given_back(cash: CashChips, posting: ChipPosting, held: dict[int, int]) -> tuple[dict[int, int], int]:
    """The chips a reversed redemption gives back ({} when the cage cannot) and their worth: the
    chips it took while the cage still holds them, else a playable stack of the same worth."""
    taken = {
        entry.denomination.value: entry.quantity for entry in posting.entries.all() if entry.quantity > 0
    }
    worth = sum(value * count for value, count in taken.items())
    stock = _stock(cash, held)
    if all(stock.get(value, 0) >= count for value, count in taken.items()):
        return taken, worth
    return chips_for(worth, stock, stack=True) or {}, worth


def cash_chips_reversal_check(*, posting: ChipPosting) -> None:
    """Refuse, before a correction is asked for, a reversed cash-out whose chips the cage
    could not give back now (it is checked again, under the lock, when the reversal is posted)."""
    cash = cash_chips_get()
    if posting.kind != ChipPostingKind.REDEMPTION or cash is None:
        return
    held = _held(cash.cage)
    chips, worth = _given_back(cash, posting, held)
    if not chips:
        raise cage_short(cash=cash, amount_cents=worth, held=held)


def cash_chips_reverse(*, actor, posting: ChipPosting, now: datetime) -> ChipPosting:
    """Undo a sale or redemption when its money is reversed: the chips sold come back to the
    cage; the chips redeemed go back to the player (see `_given_back`), refused when the cage
    cannot give them. The caller holds the transaction and the table's lock."""
    cash = cash_chips_get()
    where = {
        "table_key": posting.table_key,
        "table_label": posting.table_label,
        "note": f"reverses #{posting.pk}",
    }
    if posting.kind == ChipPostingKind.SALE:
        sold = {
            entry.denomination.value: entry.quantity for entry in posting.entries.all() if entry.quantity > 0
        }
        return _post(
            actor=actor,
            cash=cash,
            kind=ChipPostingKind.REDEMPTION,
            chips=sold,
            source=_hands(cash),
            target=cash.cage,
            now=now,
            **where,
        )
    _lock(cash.cage)
    held = _held(cash.cage)
    chips, worth = _given_back(cash, posting, held)
    if not chips:
        raise cage_short(cash=cash, amount_cents=worth, held=held)
    return _post(
        actor=actor,
        cash=cash,
        kind=ChipPostingKind.SALE,
        chips=chips,
        source=cash.cage,
        target=_hands(cash),
        now=now,
        **where,
    )
