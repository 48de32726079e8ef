"""Identified persons (PLY-1): identity, ID verification and the exclusion list."""

import unicodedata
from datetime import date

from django.conf import settings
from django.db import models
from django.utils import timezone
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


# GDP-1: what an erased player is called from then on, in every language and on every page: the
# record's number, nothing of the person.
PSEUDONYM_FIRST_NAME = "Anonym"


def pseudonym_of(player_id: int) -> str:
    return f"{PSEUDONYM_FIRST_NAME} {player_id}"


def pseudonym_card_number(player_id: int) -> str:
    # Not six digits: the next card number is drawn from the six-digit ones only.
    return f"ANON-{player_id}"


class Player(models.Model):
    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    nickname = models.CharField(_("nickname"), max_length=80, blank=True)
    # Empty only once the player is erased (GDP-1).
    date_of_birth = models.DateField(_("date of birth"), null=True, blank=True)
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
    # GDP-1: set when the person's data was erased; the row stays (the ledger, sessions and
    # entries point at it) under the pseudonym, and PlayerErasure keeps what the law demands.
    erased_at = models.DateTimeField(_("personal data erased"), null=True, blank=True)

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
            models.CheckConstraint(
                condition=models.Q(date_of_birth__isnull=False) | models.Q(erased_at__isnull=False),
                name="player_birth_date_unless_erased",
            ),
        ]
        indexes = [
            models.Index(fields=["last_name_key", "first_name_key", "date_of_birth"], name="player_name_dob"),
        ]

    def __str__(self) -> str:
        if self.erased_at is not None:
            return self.full_name
        nick = f" ({self.nickname})" if self.nickname else ""
        return f"{self.first_name} {self.last_name}{nick} #{self.card_number}"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def is_erased(self) -> bool:
        return self.erased_at is not None

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
        return self.is_excluded_on(timezone.localdate())

    def refresh_search_keys(self) -> None:
        self.first_name_key = normalize(self.first_name)
        self.last_name_key = normalize(self.last_name)
        self.nickname_key = normalize(self.nickname)


class PlayerErasure(models.Model):
    """A player erased on request (GDP-1): who erased the person, when and on what request, and
    what the law makes the room keep of the identity, sealed (encrypted with the seal key, see
    players/seal.py) until `retain_until`, then destroyed. One per player; never deleted."""

    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="erasure")
    erased_at = models.DateTimeField(_("erased"))
    erased_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("erased by"), on_delete=models.PROTECT, related_name="+"
    )
    request = models.TextField(_("the player's request"))
    # The identity the anti-money-laundering law makes the room keep, sealed; empty when nothing
    # had to be kept, or once destroyed.
    sealed_identity = models.TextField(blank=True)
    retain_until = models.DateField(_("identity kept until"), null=True, blank=True)
    destroyed_at = models.DateTimeField(_("identity destroyed"), null=True, blank=True)

    class Meta:
        verbose_name = _("player erasure")
        verbose_name_plural = _("player erasures")
        ordering = ["-erased_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(sealed_identity="") | models.Q(retain_until__isnull=False)),
                name="erasure_sealed_has_retention",
            ),
            models.CheckConstraint(
                condition=models.Q(sealed_identity="") | models.Q(destroyed_at__isnull=True),
                name="erasure_destroyed_is_empty",
            ),
        ]
        indexes = [models.Index(fields=["retain_until"], name="erasure_retain_until")]

    def __str__(self) -> str:
        return f"{self.player} {self.erased_at:%Y-%m-%d}"

    @property
    def is_sealed(self) -> bool:
        return bool(self.sealed_identity)
