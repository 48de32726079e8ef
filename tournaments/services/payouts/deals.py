"""Deals at the final table (TRN-10): the players left share the prizes not yet given, by ICM,
by a chip chop, or by their own split, and the floor accepts it.

House rules, as implemented here:
- A deal shares exactly the prize money left: every place's prize less what the busted
  entries already won. Nothing is lost or invented.
- Shares are paid in chips, like the payouts: each is a multiple of the venue's smallest chip,
  and what is left over by the rounding (whole chips and any part of one) goes to the chip
  leader, whose share is the largest. A split of the players' own follows the same rule.
- ICM and chip chop work from the stacks the floor counts; they must add up to the chips in play
  (every chip sold: starting stacks, re-entries, rebuys and add-ons) exactly, so a miscounted
  stack cannot move money.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import format_eur
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.selectors import venue_get
from cardroom.services import audit_record
from poker.deals import DEAL_METHODS
from tournaments.models import Entry, EntryStatus, Tournament
from tournaments.selectors.deals import deal_calculate, deal_players_check, remaining_prize_cents
from tournaments.services._common import lock_tournament, rules_for

METHODS = (*DEAL_METHODS, "custom")


def _check_in_chips(amounts: dict[int, int], chip: int) -> None:
    """Each share a multiple of the smallest chip; only the largest share takes the odd cents a
    prize pool that is not whole chips leaves (TRN-10)."""
    odd = [amount for amount in amounts.values() if amount % chip]
    if len(odd) > 1 or (odd and odd[0] != max(amounts.values())):
        raise DomainError(
            "deal_chips",
            _(
                "Shares are paid in chips of %(chip)s: make each share a multiple of it; only the "
                "largest share takes the cents left over."
            )
            % {"chip": format_eur(chip)},
            rule="TRN-10",
        )


@transaction.atomic
def deal_accept(
    *,
    actor,
    tournament: Tournament,
    amounts: dict[int, int],
    method: str,
    stacks: dict[int, int] | None = None,
    now: datetime | None = None,
) -> list[Entry]:
    """The players left agree a deal (ICM or chip chop, or their own split) and the floor accepts
    it: each live entry's prize is fixed to its share, replacing the remaining payouts. The
    shares must cover exactly the prizes not yet given, in chips (TRN-10). An ICM or chip-chop
    deal gives the counted `stacks`, which must add up to the chips in play, and its shares must
    be the ones they give."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if method not in METHODS:
        raise DomainError("deal_method", _("Choose ICM, a chip chop or your own split."), rule="TRN-10")
    tournament = lock_tournament(tournament.pk)
    rules = rules_for(tournament)
    if rules.payouts_finalised_at is None:
        raise DomainError(
            "payouts_not_final", _("Finalise the payouts before a deal."), rule="TRN-10", status_code=409
        )
    if tournament.is_satellite:
        raise DomainError(
            "satellite_no_deal",
            _("A satellite pays seats, not shares: it has no deal."),
            rule="SER-1",
            status_code=409,
        )
    if rules.deal_accepted_at is not None:
        raise DomainError("deal_done", _("A deal was already accepted."), rule="TRN-10", status_code=409)
    live = {
        e.pk: e
        for e in tournament.entries.select_for_update(of=("self",))
        .filter(status=EntryStatus.ACTIVE)
        .order_by("pk")
    }
    deal_players_check(list(live), amounts)
    if any(not isinstance(a, int) or isinstance(a, bool) or a < 0 for a in amounts.values()):
        raise DomainError("deal_amounts", _("Shares are whole cents, 0 or more."), rule="TRN-10")
    remaining = remaining_prize_cents(tournament)
    if sum(amounts.values()) != remaining:
        raise DomainError(
            "deal_sum",
            _("The shares add up to %(sum)s but %(remaining)s of prizes are left.")
            % {"sum": format_eur(sum(amounts.values())), "remaining": format_eur(remaining)},
            rule="TRN-10",
        )
    _check_in_chips(amounts, venue_get().smallest_chip_cents)
    if method in DEAL_METHODS:
        if stacks is None:
            raise DomainError(
                "deal_stacks", _("Give the players' stacks the deal was calculated from."), rule="TRN-10"
            )
        if deal_calculate(tournament=tournament, stacks=stacks, method=method) != amounts:
            raise DomainError(
                "deal_changed",
                _("These shares are not what the stacks give; calculate the deal again."),
                rule="TRN-10",
            )
    for pk, entry in live.items():
        entry.prize_cents = amounts[pk]
    Entry.objects.bulk_update(live.values(), ["prize_cents"])
    rules.deal_accepted_at = now
    rules.save(update_fields=["deal_accepted_at"])
    after = {"method": method, "shares": {live[pk].number: a for pk, a in amounts.items()}}
    if stacks is not None and method in DEAL_METHODS:
        after["stacks"] = {live[pk].number: chips for pk, chips in stacks.items()}
    audit_record(actor=actor, action="tournament.deal", obj=tournament, after=after, now=now)
    return list(live.values())
