"""Identified persons (PLY-1): identity, ID verification and the exclusion list."""

import unicodedata
from datetime import date

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def normalize(text: str) -> str:
    """Lower case without diacritics, so "Šťastný" is found by "stastny"."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


class IdDocumentType(models.TextChoices):
    ID_CARD = "id_card", _("ID card")
    PASSPORT = "passport", _("Passport")
    DRIVING_LICENCE = "driving_licence", _("Driving licence")
    RESIDENCE_PERMIT = "residence_permit", _("Residence permit")


class ExclusionStatus(models.TextChoices):
    NONE = "none", _("Not excluded")
    SELF_EXCLUDED = "self_excluded", _("Self-excluded")
    REGISTER = "register", _("Excluded by the register")


class Player(models.Model):
    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    nickname = models.CharField(_("nickname"), max_length=80, blank=True)
    date_of_birth = models.DateField(_("date of birth"))
    card_number = models.CharField(_("membership card"), max_length=20, unique=True)
    id_document_type = models.CharField(
        _("ID document type"), max_length=20, choices=IdDocumentType.choices, blank=True
    )
    id_document_number = models.CharField(_("ID document number"), max_length=40, blank=True)
    id_verified_at = models.DateTimeField(_("ID verified at"), null=True, blank=True)
    id_verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("ID verified by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    exclusion_status = models.CharField(
        _("exclusion"), max_length=20, choices=ExclusionStatus.choices, default=ExclusionStatus.NONE
    )
    exclusion_reason = models.TextField(_("exclusion reason"), blank=True)
    excluded_from = models.DateField(_("excluded from"), null=True, blank=True)
    excluded_until = models.DateField(_("excluded until"), null=True, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    # WTL-3: public screens show the nickname or initials unless the player asked for his name.
    public_full_name = models.BooleanField(
        _("full name on public screens"),
        default=False,
        help_text=_("The player agreed that the room's screens and phone pages show the player's full name."),
    )
    # Search keys, kept in step by the services: diacritics-free lower case.
    first_name_key = models.CharField(max_length=80, editable=False, db_index=True)
    last_name_key = models.CharField(max_length=80, editable=False, db_index=True)
    nickname_key = models.CharField(max_length=80, editable=False, db_index=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["last_name_key", "first_name_key", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["id_document_type", "id_document_number"],
                condition=~models.Q(id_document_number=""),
                name="player_unique_id_document",
            ),
            models.CheckConstraint(
                condition=models.Q(excluded_until__isnull=True)
                | models.Q(excluded_from__isnull=True)
                | models.Q(excluded_until__gte=models.F("excluded_from")),
                name="player_exclusion_dates_ordered",
            ),
        ]
        indexes = [
            models.Index(fields=["last_name_key", "first_name_key", "date_of_birth"], name="player_name_dob"),
        ]

    def __str__(self) -> str:
        nick = f" ({self.nickname})" if self.nickname else ""
        return f"{self.first_name} {self.last_name}{nick} #{self.card_number}"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def id_verified(self) -> bool:
        return self.id_verified_at is not None

    def is_excluded_on(self, day: date) -> bool:
        """PLY-1: on the exclusion list (or self-excluded) on that day."""
        if self.exclusion_status == ExclusionStatus.NONE:
            return False
        if self.excluded_from and day < self.excluded_from:
            return False
        return not (self.excluded_until and day > self.excluded_until)

    @property
    def is_excluded(self) -> bool:
        from django.utils import timezone

        return self.is_excluded_on(timezone.localdate())

    def refresh_search_keys(self) -> None:
        self.first_name_key = normalize(self.first_name)
        self.last_name_key = normalize(self.last_name)
        self.nickname_key = normalize(self.nickname)
