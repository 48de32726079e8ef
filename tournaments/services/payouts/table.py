"""The payout table (TRN-10) and the prize pool with its guarantee overlay (TRN-5), finalised once.

The payout table is finalised once, when registration, rebuys and add-ons are closed (and the
guarantee, if any, decided): the prize pool is what the players paid in, raised to the guarantee
when it holds, and the difference is posted then, once, as a house expense (overlay): Dr overlay
expense, Cr the tournament's prize pool. From then on the amounts per place are fixed and sum to
the prize pool exactly.
"""

from datetime import datetime
from itertools import pairwise

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.selectors import venue_get
from cardroom.services import audit_record
from cashier.models import AccountKind
from cashier.selectors import prize_pool_balance
from cashier.services import account_for, ledger_post
from poker.payouts import BASIS_POINTS, default_payout_percentages, payout_amounts
from poker.satellites import satellite_payouts
from tournaments.models import (
    Entry,
    EntryStatus,
    GuaranteeMode,
    GuaranteeOutcome,
    PayoutPlace,
    Tournament,
    TournamentStatus,
)
from tournaments.services import clock
from tournaments.services._common import lock_tournament, rules_for, tournament_owner
from tournaments.services.player_notices import payouts_told

MAX_PLACES = 1000


def entry_count(tournament: Tournament) -> int:
    """Entries for the payout table: every paid entry, re-entries included (TRN-10)."""
    return tournament.entries.filter(status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED]).count()


def payout_percentages_for(tournament: Tournament, rules) -> list[int]:
    if rules.payout_percentages:
        return list(rules.payout_percentages)
    return list(default_payout_percentages(max(entry_count(tournament), 1)))


def validate_percentages(percentages: list[int]) -> None:
    if not percentages or len(percentages) > MAX_PLACES:
        raise DomainError("no_places", _("A payout table pays 1 to %d places.") % MAX_PLACES, rule="TRN-10")
    if any(not isinstance(bp, int) or isinstance(bp, bool) or bp < 0 for bp in percentages):
        raise DomainError(
            "bad_percentages", _("Each place gets a whole number of basis points, 0 or more."), rule="TRN-10"
        )
    if sum(percentages) != BASIS_POINTS:
        raise DomainError(
            "bad_percentages",
            _("The places must add up to 100.00 %% (10000 basis points); they add up to %d.")
            % sum(percentages),
            rule="TRN-10",
        )
    if any(later > earlier for earlier, later in pairwise(percentages)):
        raise DomainError(
            "bad_percentages", _("A lower place cannot pay more than a higher one."), rule="TRN-10"
        )


@transaction.atomic
def payout_table_set(
    *, actor, tournament: Tournament, percentages: list[int], now: datetime | None = None
) -> list[int]:
    """Floor or manager sets the tournament's own payout table (basis points, first place first);
    an empty list goes back to the default table. Refused once payouts are finalised."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    rules = rules_for(tournament)
    if rules.payouts_finalised_at is not None:
        raise DomainError(
            "payouts_final",
            _("The payouts are final; the table can no longer change."),
            rule="TRN-10",
            status_code=409,
        )
    if percentages:
        validate_percentages(percentages)
    before = {"payout_percentages": rules.payout_percentages}
    rules.payout_percentages = list(percentages)
    rules.save(update_fields=["payout_percentages"])
    audit_record(
        actor=actor,
        action="tournament.payout_table",
        obj=tournament,
        before=before,
        after={"payout_percentages": rules.payout_percentages},
        now=now,
    )
    return rules.payout_percentages


def finalise_locked(tournament: Tournament, rules, *, actor, now: datetime) -> None:
    """Fix the prize pool and the amount of every place (TRN-5, TRN-10), posting the overlay once.
    The caller holds the tournament's lock and has checked `can_finalise`."""
    owner = tournament_owner(tournament.pk)
    collected = prize_pool_balance(tournament_id=tournament.pk)
    overlay = 0
    if rules.guarantee_outcome == GuaranteeOutcome.HELD and collected < tournament.guarantee_cents:
        overlay = tournament.guarantee_cents - collected
        ledger_post(
            lines=[
                (account_for(kind=AccountKind.OVERLAY_EXPENSE), overlay),
                (account_for(kind=AccountKind.PRIZE_POOL, owner=owner), -overlay),
            ],
            description=f"Tournament {tournament.pk} guarantee overlay",
            actor=actor,
            now=now,
        )
    pool = collected + overlay
    entries = entry_count(tournament)
    seats: list[bool] = []
    if tournament.is_satellite:
        # SER-1: seats worth the target's whole buy-in, the remainder in cash to the next place.
        target = Tournament.all_venues.get(pk=tournament.satellite_target_id)
        places = satellite_payouts(prize_pool_cents=pool, seat_cents=target.buy_in_cents)
        amounts = [place.amount_cents for place in places]
        seats = [place.seat for place in places]
        percentages = []
        if len(places) > entries:
            raise DomainError(
                "more_seats_than_entries",
                _(
                    "The prize pool buys %(places)d places in %(target)s but there are %(entries)d "
                    "entries; lower the guarantee or wait for more entries."
                )
                % {"places": len(places), "target": target.name, "entries": entries},
                rule="SER-1",
                status_code=409,
            )
    else:
        percentages = payout_percentages_for(tournament, rules)
    if not tournament.is_satellite and len(percentages) > entries:
        raise DomainError(
            "more_places_than_entries",
            _(
                "The payout table pays %(places)d places but there are %(entries)d entries; "
                "set a shorter table."
            )
            % {"places": len(percentages), "entries": entries},
            rule="TRN-10",
            status_code=409,
        )
    if not tournament.is_satellite:
        amounts = payout_amounts(
            prize_pool_cents=pool,
            percentages=percentages,
            smallest_chip_cents=venue_get().smallest_chip_cents,
        )
        seats = [False] * len(amounts)
    PayoutPlace.objects.bulk_create(
        PayoutPlace(tournament=tournament, place=place, amount_cents=amount, seat=seat)
        for place, (amount, seat) in enumerate(zip(amounts, seats, strict=True), start=1)
    )
    rules.payouts_finalised_at = now
    rules.collected_prize_cents = collected
    rules.prize_pool_cents = pool
    rules.overlay_cents = overlay
    rules.save(
        update_fields=["payouts_finalised_at", "collected_prize_cents", "prize_pool_cents", "overlay_cents"]
    )
    # Entries that already finished in the money get their prize now.
    placed = list(tournament.entries.filter(finish_place__isnull=False, finish_place__lte=len(amounts)))
    for entry in placed:
        entry.prize_cents = amounts[entry.finish_place - 1]
    Entry.objects.bulk_update(placed, ["prize_cents"])
    payouts_told([entry.pk for entry in placed if entry.prize_cents], now=now)
    audit_record(
        actor=actor,
        action="tournament.payouts_finalised",
        obj=tournament,
        after={
            "collected_cents": collected,
            "overlay_cents": overlay,
            "prize_pool_cents": pool,
            "percentages": percentages,
            "amounts": amounts,
            "seats": sum(seats),
        },
        now=now,
    )


def finalise_blocker(tournament: Tournament, rules) -> str:
    """Why the payouts cannot be finalised yet ("" when they can)."""
    if rules.payouts_finalised_at is not None:
        return str(_("The payouts are already final."))
    if not tournament.clock_started and tournament.status != TournamentStatus.FINISHED:
        return str(_("The tournament has not started."))
    if rules.registration_closed_at is None:
        return str(_("Late registration is still open."))
    if rules.rebuy_level and rules.rebuys_closed_at is None:
        return str(_("Rebuys are still open."))
    if rules.add_on_level and rules.add_ons_closed_at is None:
        return str(_("Add-ons are still open."))
    if tournament.guarantee_mode != GuaranteeMode.NONE and rules.guarantee_decided_at is None:
        return str(
            _("The guarantee is decided at the end of level %d first.") % tournament.guarantee_deadline_level
        )
    return ""


@transaction.atomic
def payouts_finalise(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """The floor fixes the payouts (TRN-5, TRN-10): also done by itself at the first bust-out
    once nothing can change the prize pool any more."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    clock.advance_locked(tournament, now=now)
    rules = rules_for(tournament)
    blocker = finalise_blocker(tournament, rules)
    if blocker:
        raise DomainError("cannot_finalise", blocker, rule="TRN-10", status_code=409)
    finalise_locked(tournament, rules, actor=actor, now=now)
    return tournament
