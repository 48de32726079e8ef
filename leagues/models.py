"""Leagues (SER-4): a season's tournaments and how their finishes earn points.

Nothing of a finish is stored here: the standings are read from the tournaments' own places and
entries every time (leagues.selectors), so a place given again after a bust-out is undone, or an
entry given back, changes the standings at once, with no copy to keep in step.
"""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped


class PointsKind(models.TextChoices):
    TABLE = "table", _("The league's points table")
    FORMULA = "formula", _("The square-root formula")


class League(VenueScoped):
    name = models.CharField(_("name"), max_length=120)
    season_start = models.DateField(_("season starts"))
    season_end = models.DateField(_("season ends"))
    best_n = models.PositiveSmallIntegerField(_("results counted per player"), default=10)
    kind = models.CharField(_("points"), max_length=8, choices=PointsKind.choices, default=PointsKind.FORMULA)
    # points = round(formula_scale * sqrt(entrants / place)) + formula_base (poker.leagues).
    formula_scale = models.IntegerField(_("formula scale"), default=10)
    formula_base = models.IntegerField(_("points for every finish"), default=0)
    active = models.BooleanField(_("shown on the room's screens"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["-season_start", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "name"], name="league_name_unique"),
            models.CheckConstraint(condition=Q(best_n__gte=1), name="league_best_n_positive"),
            models.CheckConstraint(
                condition=Q(season_end__gte=F("season_start")), name="league_season_order"
            ),
            # The formula's least points (the last place's) are scale + base: never negative.
            models.CheckConstraint(
                condition=Q(formula_scale__gte=0) & Q(formula_base__gte=-F("formula_scale")),
                name="league_formula_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class LeaguePointsRow(VenueScoped):
    """The manager's table: `points` for `place` when the tournament had `min_entrants` to
    `max_entrants` entries (no maximum: any number above the minimum)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="points_rows")
    place = models.PositiveIntegerField(_("place"))
    min_entrants = models.PositiveIntegerField(_("from entries"), default=1)
    max_entrants = models.PositiveIntegerField(_("to entries"), null=True, blank=True)
    points = models.PositiveIntegerField(_("points"))

    class Meta:
        verbose_name = _("league points row")
        verbose_name_plural = _("league points rows")
        ordering = ["league", "min_entrants", "place", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["venue", "league", "place", "min_entrants"], name="league_points_row_unique"
            ),
            models.CheckConstraint(
                condition=Q(place__gte=1) & Q(min_entrants__gte=1), name="league_points_row_positive"
            ),
            models.CheckConstraint(
                condition=Q(max_entrants__isnull=True) | Q(max_entrants__gte=F("min_entrants")),
                name="league_points_row_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} #{self.place}"


class LeagueTournament(VenueScoped):
    """A tournament that counts in the league."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="league_memberships"
    )

    class Meta:
        verbose_name = _("league tournament")
        verbose_name_plural = _("league tournaments")
        ordering = ["league", "tournament__start_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["venue", "league", "tournament"], name="league_tournament_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.tournament}"
