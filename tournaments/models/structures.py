"""Blind structures (TRN-7): reusable templates of levels and breaks, and the fields a level
shares with a tournament's own copy of it."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped
from tournaments.presets import preset_text

# Limits of a level in a template (TRN-7); a tournament's own copy is kept in seconds.
MIN_LEVEL_MINUTES = 1
MAX_LEVEL_MINUTES = 240
MAX_LEVELS = 100


class LevelKind(models.TextChoices):
    LEVEL = "level", _("Level")
    BREAK = "break", _("Break")


class BlindStructure(VenueScoped):
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    # The chips the structure is played with (CHP-1): its colour-ups follow their denominations.
    chip_set = models.ForeignKey(
        "chips.ChipSet",
        verbose_name=_("chip set"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="structures",
        limit_choices_to={"kind": "tournament"},
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("blind structure")
        verbose_name_plural = _("blind structures")
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["venue", "name"], name="structure_name_per_venue")]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The name in the page's language when it is a preset's own (tournaments.presets)."""
        return preset_text(self.name)

    @property
    def description_text(self) -> str:
        return preset_text(self.description)


class LevelFields(models.Model):
    """What a level or a break is, shared by the template and the tournament's copy.

    During a break the blinds and ante are 0. With `big_blind_ante` the big blind posts the
    ante (`ante_chips`) for the whole table; otherwise every player posts `ante_chips`.
    """

    order = models.PositiveSmallIntegerField(_("order"))
    kind = models.CharField(_("kind"), max_length=5, choices=LevelKind.choices, default=LevelKind.LEVEL)
    small_blind_chips = models.PositiveIntegerField(_("small blind"), default=0)
    big_blind_chips = models.PositiveIntegerField(_("big blind"), default=0)
    ante_chips = models.PositiveIntegerField(_("ante"), default=0)
    big_blind_ante = models.BooleanField(_("big blind ante"), default=False)
    note = models.CharField(_("note"), max_length=200, blank=True, help_text=_("For example a colour-up."))

    class Meta:
        abstract = True

    @property
    def is_break(self) -> bool:
        return self.kind == LevelKind.BREAK

    @property
    def note_text(self) -> str:
        """The note in the page's language when it is a preset's own, else as typed."""
        return preset_text(self.note)


def level_constraints(prefix: str) -> list[models.BaseConstraint]:
    is_level = Q(kind=LevelKind.LEVEL)
    return [
        models.CheckConstraint(
            condition=~is_level
            | (Q(small_blind_chips__gt=0) & Q(big_blind_chips__gt=models.F("small_blind_chips"))),
            name=f"{prefix}_big_blind_above_small",
        ),
        models.CheckConstraint(
            condition=is_level
            | (Q(small_blind_chips=0) & Q(big_blind_chips=0) & Q(ante_chips=0) & Q(big_blind_ante=False)),
            name=f"{prefix}_break_has_no_blinds",
        ),
    ]


class StructureLevel(LevelFields):
    structure = models.ForeignKey(
        BlindStructure, verbose_name=_("structure"), on_delete=models.CASCADE, related_name="levels"
    )
    minutes = models.PositiveSmallIntegerField(_("minutes"))

    class Meta:
        verbose_name = _("structure level")
        verbose_name_plural = _("structure levels")
        ordering = ["structure", "order"]
        constraints = [
            models.UniqueConstraint(fields=["structure", "order"], name="structure_level_order_unique"),
            models.CheckConstraint(
                condition=Q(minutes__gte=MIN_LEVEL_MINUTES) & Q(minutes__lte=MAX_LEVEL_MINUTES),
                name="structure_level_minutes_range",
            ),
            *level_constraints("structure_level"),
        ]

    def __str__(self) -> str:
        return f"{self.structure} #{self.order}"
