"""Daily rollups per table, tournament and player, so a report over five years reads about 1,800
rows per table instead of every hand. They are built on a gaming day the ledger has closed
(cashier.models.LedgerDay, whose AccountDayTotal rows the reports read for the accounts): a day
that has ended never changes again in normal operation, so its rollups, once built, are final.
A posting dated into a closed day reopens it, and the foreign keys below delete its rollups with
it; the ledger never names the reports."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped


class RolledUpDay(VenueScoped):
    """A gaming day whose rollups are built and final: it lives as long as the ledger's closed
    day it was built on, and the day's rollups as long as it (both cascade)."""

    day = models.DateField()
    ledger_day = models.OneToOneField("cashier.LedgerDay", on_delete=models.CASCADE, related_name="+")
    built_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["venue", "day"], name="rolled_up_day_per_venue")]

    def __str__(self) -> str:
        return str(self.day)


class TableDayTotal(VenueScoped):
    """One cash table's gaming day at one game and stakes (RAK-1..RAK-5, JKP-2).

    Hands count in the gaming day they ended (like the ledger, which posts the rake then); the
    minutes open come from the table's openings and closings in the audit trail; rake and jackpot
    drops are the ledger's entries of the hands' postings (and of reversals of them), so they
    reconcile with the rake revenue and jackpot fund accounts to the cent.
    """

    day = models.DateField(_("gaming day"))
    rolled_day = models.ForeignKey(RolledUpDay, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("cashgame.CashTable", on_delete=models.PROTECT, related_name="+")
    game = models.ForeignKey("cashgame.Game", on_delete=models.PROTECT, related_name="+")
    small_blind_cents = models.BigIntegerField()
    big_blind_cents = models.BigIntegerField()
    minutes_open = models.PositiveIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)
    raked_hands = models.PositiveIntegerField(default=0)
    no_flop_hands = models.PositiveIntegerField(default=0)
    voided_hands = models.PositiveIntegerField(default=0)
    pot_cents = models.BigIntegerField(default=0)
    rake_cents = models.BigIntegerField(default=0)
    jackpot_cents = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["day", "table", "game", "small_blind_cents", "big_blind_cents"],
                name="rollup_table_day_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    hands__gte=models.F("raked_hands") + models.F("no_flop_hands") + models.F("voided_hands")
                ),
                name="rollup_table_day_hand_counts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.day} table {self.table_id} {self.small_blind_cents}/{self.big_blind_cents}"


class TournamentDayTotal(VenueScoped):
    """A tournament's money in one gaming day (TRN-2, TRN-5, TRN-6, TRN-10), from the ledger's
    postings that name the tournament (its accounts, or the cashier transaction's reference)."""

    day = models.DateField(_("gaming day"))
    rolled_day = models.ForeignKey(RolledUpDay, on_delete=models.CASCADE, related_name="+")
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.PROTECT, related_name="+")
    buy_ins = models.IntegerField(default=0)
    re_entries = models.IntegerField(default=0)
    rebuys = models.IntegerField(default=0)
    add_ons = models.IntegerField(default=0)
    # Net sums of the named accounts in the tournament's postings (cents).
    contributions_cents = models.BigIntegerField(default=0)  # players' prize contributions
    fees_cents = models.BigIntegerField(default=0)
    bounties_cents = models.BigIntegerField(default=0)  # bounties collected
    bounties_paid_cents = models.BigIntegerField(default=0)
    overlay_cents = models.BigIntegerField(default=0)
    prizes_paid_cents = models.BigIntegerField(default=0)
    refunds_cents = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "tournament"], name="rollup_tournament_day_unique")
        ]
        indexes = [models.Index(fields=["tournament", "day"], name="rollup_tournament_day")]

    def __str__(self) -> str:
        return f"{self.day} tournament {self.tournament_id}"


class PlayerDayTotal(VenueScoped):
    """A player's gaming day at the cage and the tables: what the player activity and the AML
    list (PLY-2) read for ended days. Sessions count in the gaming day they ended."""

    day = models.DateField(_("gaming day"))
    rolled_day = models.ForeignKey(RolledUpDay, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    cash_game_in_cents = models.BigIntegerField(default=0)  # buy-ins and top-ups, cash or card
    cash_game_out_cents = models.BigIntegerField(default=0)
    tournament_entries = models.IntegerField(default=0)  # buy-ins and re-entries
    tournament_in_cents = models.BigIntegerField(default=0)  # every tournament payment
    won_cents = models.BigIntegerField(default=0)  # prizes and jackpot shares paid
    refunds_cents = models.BigIntegerField(default=0)
    cash_cents = models.BigIntegerField(default=0)  # PLY-2: cash in and out, summed
    cash_transactions = models.IntegerField(default=0)
    sessions = models.IntegerField(default=0)
    minutes_played = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["venue", "day", "player"], name="rollup_player_day_per_venue")
        ]
        indexes = [models.Index(fields=["player", "day"], name="rollup_player_day")]

    def __str__(self) -> str:
        return f"{self.day} player {self.player_id}"
