"""Row locks of the cashier, as small plain-ORM functions (the style of Saleor's
checkout/lock_objects.py). Every lock is FOR NO KEY UPDATE: inserting an entry or a transaction
that references a locked row takes a KEY SHARE lock on it, which a plain FOR UPDATE would block.

Lock order, the same everywhere so two desks never deadlock: the game's rows (table, tournament),
then the shift, the player, the account paid from, and last the receipt counter.
"""

from cashier.models import Account, ReceiptCounter, Shift


def shift_for_update(shift_id: int) -> Shift:
    return Shift.objects.select_for_update(of=("self",), no_key=True).get(pk=shift_id)


def account_for_update(account_id: int) -> Account:
    return Account.objects.select_for_update(of=("self",), no_key=True).get(pk=account_id)


def receipt_counter_for_update(venue_id: int) -> ReceiptCounter:
    """The venue's receipt counter, created on first use. Every desk waits on this row in
    turn, so callers take it last, just before they insert the transaction."""
    counters = ReceiptCounter.objects.select_for_update(of=("self",), no_key=True)
    try:
        return counters.get(venue_id=venue_id)
    except ReceiptCounter.DoesNotExist:
        # The venue's first receipt. A desk racing to create it waits on the unique venue.
        ReceiptCounter.objects.get_or_create(venue_id=venue_id)
        return counters.get(venue_id=venue_id)
