"""What happens when a level ends, run by the clock inside the transaction that raises the level,
under the tournament's row lock, so each happens exactly once with the rise (TRN-3, TRN-6).

Level numbers are the ones players know (breaks have none). Each step is keyed on "the level
that just ended is level N or later" and on its own recorded moment being empty, so a floor step
past a level, or a late worker catching up several levels at once, still does each step once.
"""

from datetime import datetime

from cardroom.services import audit_record
from tournaments.models import COUNTED_STATUSES, GuaranteeMode, GuaranteeOutcome, Tournament, TournamentLevel
from tournaments.selectors import level_numbers
from tournaments.services._common import rules_for
from tournaments.services.payouts.bounties import bounties_award_own
from tournaments.services.payouts.places import places_assign_locked


def present_player_count(tournament: Tournament) -> int:
    """TRN-3: distinct persons with an entry marked present (re-entries add no one)."""
    return (
        tournament.entries.filter(present=True, status__in=COUNTED_STATUSES)
        .values("player_id")
        .distinct()
        .count()
    )


def guarantee_required_count(tournament: Tournament) -> int | None:
    """Present players the guarantee needs (TRN-3/TRN-4); None: it holds whatever the count."""
    if tournament.guarantee_mode == GuaranteeMode.UNCONDITIONAL:
        return None
    # Conditional uses the tournament's count (the house default is 15); own_count is the same
    # check with a count the floor chose for this tournament (TRN-4).
    return tournament.guarantee_player_count


def _decide_guarantee(tournament: Tournament, rules, *, now: datetime) -> None:
    count = present_player_count(tournament)
    required = guarantee_required_count(tournament)
    held = required is None or count >= required
    rules.guarantee_outcome = GuaranteeOutcome.HELD if held else GuaranteeOutcome.NOT_HELD
    rules.guarantee_count = count
    rules.guarantee_decided_at = now
    audit_record(
        actor=None,
        action="tournament.guarantee_decided",
        obj=tournament,
        after={
            "outcome": rules.guarantee_outcome,
            "present_players": count,
            "required": required,
            "mode": tournament.guarantee_mode,
            "guarantee_cents": tournament.guarantee_cents,
        },
        now=now,
    )


def on_clock_start(tournament: Tournament, *, now: datetime) -> None:
    """Late registration of 0 levels closes when the clock starts (TRN-6)."""
    if tournament.late_registration_level == 0:
        rules = rules_for(tournament)
        if rules.registration_closed_at is None:
            rules.registration_closed_at = now
            rules.save(update_fields=["registration_closed_at"])
            audit_record(
                actor=None, action="tournament.registration_closed", obj=tournament, note="level 0", now=now
            )


def on_level_end(
    tournament: Tournament, levels: list[TournamentLevel], ended_index: int, *, now: datetime
) -> None:
    """The level at `ended_index` has ended (its scheduled end, or the floor stepped past it).

    The caller holds the tournament's row lock and is inside the rise's transaction.
    """
    number = None
    for index, level_number in enumerate(level_numbers(levels)):
        if index > ended_index:
            break
        if level_number is not None:
            number = level_number
    if number is None:
        return
    rules = rules_for(tournament)
    changed: list[str] = []
    closes = (
        ("registration_closed_at", tournament.late_registration_level, "tournament.registration_closed"),
        ("rebuys_closed_at", rules.rebuy_level, "tournament.rebuys_closed"),
        ("add_ons_closed_at", rules.add_on_level, "tournament.add_ons_closed"),
    )
    for field, last_level, action in closes:
        if getattr(rules, field) is None and number >= last_level:
            setattr(rules, field, now)
            changed.append(field)
            audit_record(actor=None, action=action, obj=tournament, note=f"end of level {number}", now=now)
    if (
        tournament.guarantee_mode != GuaranteeMode.NONE
        and rules.guarantee_decided_at is None
        and number >= tournament.guarantee_deadline_level
    ):
        _decide_guarantee(tournament, rules, now=now)
        changed += ["guarantee_outcome", "guarantee_count", "guarantee_decided_at"]
    if changed:
        rules.save(update_fields=changed)
    if "registration_closed_at" in changed:
        _place_early_bust_outs(tournament, rules, now=now)


def _place_early_bust_outs(tournament: Tournament, rules, *, now: datetime) -> None:
    """The field is final: the players busted during late registration get their places (TRN-10),
    and if one entry is left he is the winner, with his own bounty back (TRN-6)."""
    places, winner = places_assign_locked(tournament, rules, actor=None, now=now)
    if places:
        numbers = dict(tournament.entries.filter(pk__in=places).values_list("pk", "number"))
        audit_record(
            actor=None,
            action="tournament.places",
            obj=tournament,
            after={"places": sorted([numbers[pk], place] for pk, place in places.items())},
            note="registration closed",
            now=now,
        )
    if winner is not None:
        bounties_award_own(tournament, entries=[winner], bust_number=rules.bust_sequence, actor=None, now=now)
