"""Bounties (TRN-6): the standard knock-out bounty, won by eliminating a player and paid at the
cashier with a receipt.

House rules, as implemented here:
- Each buy-in and re-entry pays the tournament's bounty into its bounty pool, and that entry
  carries it (rebuys and add-ons carry none).
- When the floor records a bust-out it names, for every busted entry that carries a bounty,
  the player or players who eliminated him: entries still in after the hand. His bounty is
  credited to them. On a split pot it splits equally, rounded down to the cent; the cents left
  over go one each to the eliminators in the order the floor names them (name them from the
  button's left, as the odd chip goes, POT-2).
- The winner gets his own bounty back when he is left alone; when the floor finishes a
  tournament with several players still in, each gets his own back. So once a tournament is
  finished, the awards sum to the bounties paid in, exactly.
- An award waits in the bounty pool until the cashier pays it (all of a player's unpaid
  awards in one cash payout with one receipt). Undoing a bust-out removes the awards it made,
  refused once one of them is paid. Cancelling refunds every entry's bounty with the rest of its
  buy-in (TRN-2): unpaid awards lapse; once a bounty is paid the tournament cannot be cancelled.

Callers of the award functions hold the tournament's lock.
"""

from collections.abc import Mapping, Sequence
from datetime import datetime

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.roles import CASHIER_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import CashierTransaction, Shift, TransactionKind
from cashier.services import tournament_payout
from tournaments.models import BountyAward, BountyReason, Entry, EntryPayment, EntryStatus, Tournament
from tournaments.services._common import lock_entry

# More eliminators than a table has other players cannot have shared one pot.
MAX_ELIMINATORS = 9


def split_bounty(amount_cents: int, ways: int) -> list[int]:
    """`amount_cents` in `ways` equal shares rounded down to the cent; the cents left over go one
    each to the first shares. The shares sum to the amount exactly."""
    if ways < 1 or amount_cents < 0:
        raise ValueError("a bounty splits among one or more eliminators")
    share, left = divmod(amount_cents, ways)
    return [share + 1 if i < left else share for i in range(ways)]


def bounties_carried(entry_ids: Sequence[int]) -> dict[int, int]:
    """The bounty each entry carries (cents): what its buy-in or re-entry paid into the pool."""
    rows = (
        EntryPayment.objects.filter(entry_id__in=entry_ids)
        .values("entry_id")
        .annotate(bounty=Sum("bounty_cents"))
        .values_list("entry_id", "bounty")
    )
    carried = dict.fromkeys(entry_ids, 0)
    carried.update({pk: bounty or 0 for pk, bounty in rows})
    return carried


def eliminators_check(
    tournament: Tournament, *, busted: Sequence[int], eliminators: Mapping[int, Sequence[int]]
) -> dict[int, int]:
    """Refuse eliminators that cannot have won the bounties of this hand (nothing is written
    yet): every busted entry carrying a bounty needs at least one; each is an entry still in
    after the hand, named once. Returns the bounty each busted entry carries."""
    carried = bounties_carried(busted)
    if set(eliminators) - set(busted):
        raise DomainError(
            "eliminator_for_whom",
            _("Eliminators are named only for the players busted in this hand."),
            rule="TRN-10",
        )
    named = {pk for winners in eliminators.values() for pk in winners}
    live = set(
        tournament.entries.filter(pk__in=named, status=EntryStatus.ACTIVE)
        .exclude(pk__in=busted)
        .values_list("pk", flat=True)
    )
    for pk in busted:
        winners = list(eliminators.get(pk, ()))
        if carried[pk] and not winners:
            number = tournament.entries.get(pk=pk).number
            raise DomainError(
                "eliminator_required",
                _("Entry %d carries a bounty: name the player who knocked that entry out.") % number,
                rule="TRN-10",
            )
        if len(set(winners)) != len(winners) or len(winners) > MAX_ELIMINATORS:
            raise DomainError(
                "bad_eliminators",
                _("Name each eliminator once, %d at most.") % MAX_ELIMINATORS,
                rule="TRN-10",
            )
        if set(winners) - live:
            raise DomainError(
                "eliminator_not_playing",
                _("An eliminator must be a player still in the tournament after this hand."),
                rule="TRN-10",
            )
    return carried


def _audit(awards: list[BountyAward], *, action: str, tournament: Tournament, actor, now: datetime) -> None:
    numbers = dict(
        Entry.objects.filter(
            pk__in={a.entry_id for a in awards} | {a.busted_entry_id for a in awards}
        ).values_list("pk", "number")
    )
    audit_record(
        actor=actor,
        action=action,
        obj=tournament,
        after={
            "awards": [
                [numbers[a.busted_entry_id], numbers[a.entry_id], a.amount_cents, a.reason] for a in awards
            ]
        },
        now=now,
    )


def bounties_award_knockouts(
    tournament: Tournament,
    *,
    carried: Mapping[int, int],
    eliminators: Mapping[int, Sequence[int]],
    bust_number: int,
    actor,
    now: datetime,
) -> list[BountyAward]:
    """Credit each busted entry's bounty to his eliminators (split in the order named)."""
    awards = [
        BountyAward(
            tournament=tournament,
            entry_id=winner,
            busted_entry_id=pk,
            reason=BountyReason.KNOCKOUT,
            amount_cents=share,
            bust_number=bust_number,
            created_at=now,
        )
        for pk, amount in carried.items()
        if amount
        for winner, share in zip(eliminators[pk], split_bounty(amount, len(eliminators[pk])), strict=True)
        if share
    ]
    if awards:
        BountyAward.objects.bulk_create(awards)
        _audit(awards, action="bounty.award", tournament=tournament, actor=actor, now=now)
    return awards


def bounties_award_own(
    tournament: Tournament, *, entries: Sequence[Entry], bust_number: int | None, actor, now: datetime
) -> list[BountyAward]:
    """Each of `entries`, still in at the end, gets back the bounty he carries (once)."""
    carried = bounties_carried([entry.pk for entry in entries])
    already = set(
        BountyAward.objects.filter(busted_entry_id__in=carried, reason=BountyReason.OWN).values_list(
            "busted_entry_id", flat=True
        )
    )
    awards = [
        BountyAward(
            tournament=tournament,
            entry_id=pk,
            busted_entry_id=pk,
            reason=BountyReason.OWN,
            amount_cents=amount,
            bust_number=bust_number,
            created_at=now,
        )
        for pk, amount in carried.items()
        if amount and pk not in already
    ]
    if awards:
        BountyAward.objects.bulk_create(awards)
        _audit(awards, action="bounty.award", tournament=tournament, actor=actor, now=now)
    return awards


def bounties_award_remaining(tournament: Tournament, *, actor, now: datetime) -> list[BountyAward]:
    """The tournament is finished: every player still in gets his own bounty back, so the
    awards account for the whole bounty pool."""
    entries = list(tournament.entries.filter(status=EntryStatus.ACTIVE).order_by("pk"))
    return bounties_award_own(tournament, entries=entries, bust_number=None, actor=actor, now=now)


def bounty_paid_in_bust(tournament: Tournament, *, bust_number: int) -> bool:
    return BountyAward.objects.filter(
        tournament=tournament, bust_number=bust_number, transaction__isnull=False
    ).exists()


def bounties_undo(tournament: Tournament, *, bust_number: int, actor, now: datetime) -> None:
    """Remove the awards a bust-out made (none paid: the caller checked)."""
    awards = list(tournament.bounty_awards.filter(bust_number=bust_number).order_by("pk"))
    if awards:
        _audit(awards, action="bounty.award_undo", tournament=tournament, actor=actor, now=now)
        BountyAward.objects.filter(pk__in=[a.pk for a in awards]).delete()


def bounties_lapse(tournament: Tournament, *, actor, now: datetime) -> None:
    """The tournament is cancelled (TRN-2): every bounty goes back with its entry's refund, so
    the awards not paid yet lapse; once one is paid, cancelling is refused."""
    if tournament.bounty_awards.filter(transaction__isnull=False).exists():
        raise DomainError(
            "bounties_paid",
            _("Bounties were already paid; the tournament can no longer be cancelled."),
            rule="TRN-2",
            status_code=409,
        )
    awards = list(tournament.bounty_awards.order_by("pk"))
    if awards:
        _audit(awards, action="bounty.award_lapse", tournament=tournament, actor=actor, now=now)
        BountyAward.objects.filter(pk__in=[a.pk for a in awards]).delete()


def bounty_pay(
    *, actor, entry: Entry, shift: Shift, idempotency_key: str, now: datetime | None = None
) -> CashierTransaction:
    """The cashier pays, in cash from the bounty pool, every bounty the entry won and was not
    paid yet, in one transaction with one receipt (TRN-6, CAG-4). With nothing due it is
    refused (so a bounty is never paid twice); the same key answers with the same payout."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()

    def pay() -> CashierTransaction:
        tournament, locked = lock_entry(entry)
        awards = list(
            BountyAward.objects.select_for_update(of=("self",))
            .filter(entry=locked, transaction__isnull=True)
            .order_by("pk")
        )
        if not awards:
            raise DomainError(
                "no_bounty_due",
                _("Entry %d has no bounty due: it won none, or they are paid.") % locked.number,
                rule="TRN-6",
                status_code=409,
            )
        amount = sum(award.amount_cents for award in awards)
        record = tournament_payout(
            actor=actor,
            shift=shift,
            kind=TransactionKind.BOUNTY_PAYOUT,
            player=locked.player,
            tournament_id=tournament.pk,
            amount_cents=amount,
            idempotency_key=idempotency_key,
            now=now,
        )
        BountyAward.objects.filter(pk__in=[award.pk for award in awards]).update(transaction=record)
        audit_record(
            actor=actor,
            action="entry.bounty_paid",
            obj=locked,
            after={
                "amount_cents": amount,
                "receipt": record.receipt_number,
                "awards": [award.pk for award in awards],
            },
            now=now,
        )
        return record

    return run_once(
        key=idempotency_key,
        operation="tournaments.bounty_pay",
        request={"shift": shift.pk, "entry": entry.pk},
        run=pay,
        load=lambda pk: CashierTransaction.objects.get(pk=pk),
        now=now,
    )
