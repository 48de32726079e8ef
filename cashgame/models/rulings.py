"""The floor's rulings log (FLR-5)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from cashgame import rulebook
from cashgame.models.games import CashTable
from cashgame.models.hands import Hand


class Ruling(VenueScoped):
    """FLR-5: every ruling logged: table, hand, situation, rule applied, decision, staff, time."""

    table = models.ForeignKey(CashTable, on_delete=models.PROTECT, related_name="rulings")
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings")
    situation = models.CharField(_("situation"), max_length=40)
    rule = models.CharField(_("rule"), max_length=10)
    decision = models.TextField(_("decision"))
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("time"), db_index=True)

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.rule} {self.situation} {self.table}"

    @property
    def rule_name(self) -> str:
        """The rule applied, in words, for the log's page (the ID stays in the record)."""
        return rulebook.rule_name(self.rule)

    @property
    def situation_title(self) -> str:
        """The situation as the rule book words it (the key stays in the record)."""
        situation = rulebook.BY_KEY.get(self.situation)
        return str(situation.title) if situation else self.situation
