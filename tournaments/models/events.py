"""Multi-day events (SER-2): Day-1 flights feeding one Day 2, the bags counted at the end of
each flight ("bag and tag"), a manager's acceptance of a flight whose bags do not add up, and
the moves of the flights' prize pools into the Day 2's.

A flight is a tournament with `event` set (and its label, "1A"); the Day 2 is the tournament
the event names in `day_two`. Each flight keeps its own registration rules (TRN-1, TRN-6); the
event's guarantee (TRN-3..5) applies to the Day 2's pool, which holds the flights' pools.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from tournaments.models.entries import Entry
from tournaments.models.tournament import GuaranteeMode, Tournament


class BagRule(models.TextChoices):
    BEST = "best", _("Best bag goes through")
    FIRST = "first", _("First bag goes through")


class Event(VenueScoped):
    """A multi-day event (SER-2). `day_two` is drawn once, from the bags (`day_two_drawn_at`)."""

    name = models.CharField(_("name"), max_length=120)
    bag_rule = models.CharField(_("a player with several bags"), max_length=5, choices=BagRule.choices)
    guarantee_cents = models.BigIntegerField(_("guarantee amount"), default=0)
    guarantee_mode = models.CharField(
        _("guarantee"), max_length=13, choices=GuaranteeMode.choices, default=GuaranteeMode.NONE
    )
    # Distinct present players over all flights the guarantee needs (conditional modes).
    guarantee_player_count = models.PositiveSmallIntegerField(_("guarantee player count"), default=15)
    day_two = models.OneToOneField(
        Tournament,
        verbose_name=_("Day 2"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="day_two_of",
    )
    day_two_drawn_at = models.DateTimeField(_("Day 2 drawn"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "name"], name="event_name_unique_per_venue"),
            models.CheckConstraint(
                condition=(Q(guarantee_mode=GuaranteeMode.NONE) & Q(guarantee_cents=0))
                | (~Q(guarantee_mode=GuaranteeMode.NONE) & Q(guarantee_cents__gt=0)),
                name="event_guarantee_consistent",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Bag(VenueScoped):
    """One survivor's chips at the end of a flight, counted at his seat and signed by two staff
    members (SER-2). A void bag (the player has a better, or an earlier, one) stays on record
    and goes nowhere; `day_two_entry` is the Day 2 entry the bag became."""

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.PROTECT, related_name="bags")
    flight = models.ForeignKey(
        Tournament, verbose_name=_("flight"), on_delete=models.PROTECT, related_name="bags"
    )
    entry = models.OneToOneField(Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="bag")
    player = models.ForeignKey(
        "players.Player", verbose_name=_("player"), on_delete=models.PROTECT, related_name="bags"
    )
    number = models.PositiveIntegerField(_("bag number"))
    table_number = models.PositiveSmallIntegerField(_("table"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    chips = models.PositiveIntegerField(_("chips"))
    void = models.BooleanField(_("void"), default=False)
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("counted by"), on_delete=models.PROTECT, related_name="+"
    )
    witnessed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("witnessed by"), on_delete=models.PROTECT, related_name="+"
    )
    counted_at = models.DateTimeField(_("counted"))
    day_two_entry = models.OneToOneField(
        Entry,
        verbose_name=_("Day 2 entry"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="from_bag",
    )

    class Meta:
        verbose_name = _("bag")
        verbose_name_plural = _("bags")
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="bag_number_unique_per_event"),
            models.CheckConstraint(condition=Q(chips__gt=0), name="bag_chips_positive"),
            models.CheckConstraint(condition=~Q(counted_by=F("witnessed_by")), name="bag_two_signers"),
        ]

    def __str__(self) -> str:
        return _("Bag %d") % self.number


class FlightAcceptance(VenueScoped):
    """A manager accepts a flight whose bags differ from its chips in play, with a reason
    (SER-2). It holds only for the figures it was given: a bag changed afterwards needs a new one."""

    flight = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="bag_acceptances")
    expected_chips = models.PositiveBigIntegerField(_("chips in play"))
    bagged_chips = models.PositiveBigIntegerField(_("chips bagged"))
    reason = models.CharField(_("reason"), max_length=300)
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    accepted_at = models.DateTimeField(_("accepted"))

    class Meta:
        verbose_name = _("accepted bag difference")
        verbose_name_plural = _("accepted bag differences")
        ordering = ["flight", "-pk"]

    def __str__(self) -> str:
        return f"{self.flight}: {self.bagged_chips} / {self.expected_chips}"


class PoolTransfer(VenueScoped):
    """A flight's prize pool moved into the Day 2's when the Day 2 was drawn (SER-2): one ledger
    posting each, kept here so the books can tell the moved money from the entries' own."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="pool_transfers")
    flight = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="pool_transfer_out")
    day_two = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="pool_transfers_in")
    amount_cents = models.BigIntegerField(_("amount (cents)"))
    created_at = models.DateTimeField(_("time"))

    class Meta:
        verbose_name = _("prize pool moved to Day 2")
        verbose_name_plural = _("prize pools moved to Day 2")
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gte=0), name="pool_transfer_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.flight} -> {self.day_two}"
