"""Hand-for-hand (SER-3) as the floor and the screens read it: on or off, the round, and which
tables have finished their hand."""

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from poker.payouts import default_payout_percentages
from tournaments.models import EntryStatus, HandReport, PayoutPlace, Tournament


def paid_places(tournament: Tournament, rules) -> int:
    """Places in the money: the finalised prizes above 0, else the payout table (the tournament's
    own or the default for the entries) places above 0 bp (TRN-10)."""
    if rules.payouts_finalised_at is not None:
        return PayoutPlace.objects.filter(tournament=tournament, amount_cents__gt=0).count()
    entries = tournament.entries.filter(status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED]).count()
    if not entries:
        return 0
    percentages = rules.payout_percentages or default_payout_percentages(entries)
    return sum(1 for bp in percentages if bp > 0)


def players_left(tournament: Tournament) -> int:
    return tournament.entries.filter(status=EntryStatus.ACTIVE).count()


def hand_for_hand_tables(tournament: Tournament, rules) -> list[dict]:
    """The open tables with players, by number, each with whether it reported the current round."""
    reported = set(
        HandReport.objects.filter(tournament=tournament, round=rules.hand_for_hand_round).values_list(
            "table_id", flat=True
        )
    )
    tables = (
        tournament.tables.filter(status="open")
        .annotate(players=Count("entries", filter=Q(entries__status=EntryStatus.ACTIVE)))
        .filter(players__gt=0)
        .order_by("number")
    )
    return [
        {"pk": table.pk, "number": table.number, "players": table.players, "done": table.pk in reported}
        for table in tables
    ]


def hand_for_hand_get(*, tournament: Tournament, rules) -> dict:
    """What the floor page, the floor view and the TV show of hand-for-hand (plain values)."""
    on = rules.hand_for_hand_at is not None
    tables = hand_for_hand_tables(tournament, rules) if on else []
    waiting = [table["number"] for table in tables if not table["done"]]
    return {
        "on": on,
        "round": rules.hand_for_hand_round if on else None,
        "tables": tables,
        "waiting": waiting,
        "all_done": on and not waiting,
        "paused": on and rules.hand_for_hand_paused,
        "text": str(_("Hand for hand")) if on else "",
        "detail": (
            str(_("Every table has finished the hand: the clock waits for the next hand."))
            if on and not waiting
            else str(_("Hand %(round)d in play: tables still playing %(tables)s."))
            % {"round": rules.hand_for_hand_round, "tables": ", ".join(map(str, waiting))}
            if on
            else ""
        ),
    }
