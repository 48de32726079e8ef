"""What a deal at the final table would give (TRN-10): the prizes left, the places still to pay
and the players' shares by ICM or a chip chop. The maths is `poker.deals`; this reads what it
shares and refuses, in words, what the floor typed wrong. Nothing is written: the floor's
acceptance is `tournaments.services.payouts.deal_accept`."""

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.selectors import venue_get
from poker import deals
from poker.common import PokerError
from tournaments.models import EntryStatus, Tournament
from tournaments.selectors import chips_in_play, tournament_rules_get


def remaining_prize_cents(tournament: Tournament) -> int:
    """The prizes not yet given to a finished player: what a deal among the players left shares."""
    taken = sum(
        tournament.entries.filter(status=EntryStatus.BUSTED, prize_cents__isnull=False).values_list(
            "prize_cents", flat=True
        )
    )
    return sum(tournament.payout_places.values_list("amount_cents", flat=True)) - taken


def places_left(tournament: Tournament) -> list[int]:
    """The prizes of the places no busted entry holds, first place first: what ICM shares."""
    held = set(
        tournament.entries.filter(status=EntryStatus.BUSTED, finish_place__isnull=False).values_list(
            "finish_place", flat=True
        )
    )
    return [
        amount
        for place, amount in tournament.payout_places.order_by("place").values_list("place", "amount_cents")
        if place not in held
    ]


def deal_players_check(live: list[int], given) -> None:
    """A deal gives a share to every player left, and to nobody else (TRN-10)."""
    if len(live) < 2 or set(given) != set(live):
        raise DomainError(
            "deal_players", _("A deal gives a share to every player left (2 or more)."), rule="TRN-10"
        )


def _check_stacks(tournament: Tournament, stacks: dict[int, int]) -> None:
    """The counted stacks add up to the chips in play exactly (TRN-10)."""
    if any(not isinstance(chips, int) or isinstance(chips, bool) or chips <= 0 for chips in stacks.values()):
        raise DomainError("bad_stacks", _("Give each player's chips, 1 or more."), rule="TRN-10")
    counted, in_play = sum(stacks.values()), chips_in_play(tournament=tournament)
    if counted != in_play:
        values = {"counted": counted, "in_play": in_play, "difference": abs(counted - in_play)}
        message = (
            _(
                "The stacks add up to %(counted)d chips but %(in_play)d chips are in play: "
                "%(difference)d chips too many. A deal's stacks must add up to the chips in play "
                "exactly; count them again."
            )
            if counted > in_play
            else _(
                "The stacks add up to %(counted)d chips but %(in_play)d chips are in play: "
                "%(difference)d chips missing. A deal's stacks must add up to the chips in play "
                "exactly; count them again."
            )
        )
        raise DomainError("deal_stacks_sum", message % values, rule="TRN-10")


def _refusal(error: PokerError) -> DomainError:
    """The maths' refusal in the floor's words (the maths speaks English only)."""
    messages = {
        "deal_method": _("Choose ICM or a chip chop."),
        "icm_too_many": _("ICM is offered for %d players or fewer.") % deals.ICM_MAX_PLAYERS,
        # A prize ICM cannot reach (a busted entry without its place) would be lost.
        "deal_places": _(
            "The places still to pay do not add up to the prizes left; check the finishing places "
            "before a deal."
        ),
    }
    code = error.code if error.code in messages else "bad_stacks"
    return DomainError(code, messages.get(error.code, error.message), rule="TRN-10")


def deal_calculate(*, tournament: Tournament, stacks: dict[int, int], method: str) -> dict[int, int]:
    """A deal among the players left (TRN-10): ICM equities over the places still to pay, or a
    chip chop of the prizes not yet given, in whole chips that sum to them exactly, as
    {entry id: cents}. The stacks {entry id: chips} must add up to the chips in play. Nothing is
    written."""
    if not tournament_rules_get(tournament=tournament).payouts_finalised_at:
        raise DomainError(
            "payouts_not_final", _("Finalise the payouts before a deal."), rule="TRN-10", status_code=409
        )
    live = list(
        tournament.entries.filter(status=EntryStatus.ACTIVE).order_by("pk").values_list("pk", flat=True)
    )
    deal_players_check(live, stacks)
    _check_stacks(tournament, stacks)
    try:
        shares = deals.deal_shares(
            method=method,
            stacks=[stacks[pk] for pk in live],
            places_left=places_left(tournament),
            prizes_left_cents=remaining_prize_cents(tournament),
            smallest_chip_cents=venue_get().smallest_chip_cents,
        )
    except PokerError as error:
        raise _refusal(error) from error
    return dict(zip(live, shares, strict=True))
