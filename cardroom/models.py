"""Shared kernel models: the venue's settings and the audit trail."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped


class Venue(models.Model):
    """One card room. Per-venue defaults of the house rules live here and are edited by managers."""

    name = models.CharField(_("name"), max_length=120)
    # The venue's public pages answer at /v/<slug>/ (room, board, TV, waiting-list join), and at
    # the root of any of its host names (VEN-1).
    slug = models.SlugField(
        _("address name"),
        max_length=40,
        unique=True,
        help_text=_("The venue's public pages are at /v/<address name>/ on this server."),
    )
    host_names = models.CharField(
        _("host names"),
        max_length=300,
        blank=True,
        help_text=_("Host names, separated by commas, whose pages are this venue's."),
    )
    currency = models.CharField(_("currency"), max_length=3, default="EUR", editable=False)
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Bratislava")
    smallest_chip_cents = models.PositiveIntegerField(
        _("smallest chip (cents)"), default=50, help_text=_("Rake and prizes are rounded to it.")
    )
    gaming_day_start_hour = models.PositiveSmallIntegerField(
        _("gaming day starts at (hour)"),
        default=6,
        help_text=_("A gaming day runs from this hour to the same hour the next day."),
    )
    aml_threshold_cents = models.BigIntegerField(
        _("AML threshold (cents)"),
        default=200_000,
        help_text=_("Cash movements per gaming day from which a verified ID is required."),
    )
    confirm_threshold_cents = models.BigIntegerField(
        _("confirm amounts over (cents)"),
        default=100_000,
        help_text=_("A typed amount over this is shown back in words and needs a second tap."),
    )
    recount_threshold_cents = models.BigIntegerField(
        _("recount a drawer that differs by more than (cents)"),
        default=500,
        help_text=_(
            "Closing a shift whose counted drawer differs from the expected amount by more than "
            "this asks for one recount first."
        ),
    )
    dealer_push_minutes = models.PositiveSmallIntegerField(
        _("dealer push every (minutes)"),
        default=30,
        help_text=_("Each dealer moves on to the next table this often."),
    )

    remote_join_enabled = models.BooleanField(
        _("players may join waiting lists from their phones"),
        default=True,
        help_text=_("Turn off to stop joins from the public page at once."),
    )
    remote_joins_per_hour = models.PositiveSmallIntegerField(
        _("joins from one address per hour"),
        default=6,
        help_text=_("More joins from one network address within an hour are refused."),
    )
    waiting_more_time_minutes = models.PositiveSmallIntegerField(
        _("more time a called player may ask for (minutes)"),
        default=5,
        help_text=_(
            "A called player may ask once from his phone to hold his seat this much longer; 0 turns it off."
        ),
    )
    identity_retention_years = models.PositiveSmallIntegerField(
        _("identity kept after the last transaction (years)"),
        default=5,
        help_text=_(
            "An erased player's sealed identity and due-diligence record are kept this long after "
            "their last transaction, then destroyed."
        ),
    )

    class Meta:
        verbose_name = _("venue")
        verbose_name_plural = _("venues")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(smallest_chip_cents__gt=0), name="venue_smallest_chip_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(gaming_day_start_hour__lte=23), name="venue_gaming_day_hour"
            ),
            models.CheckConstraint(
                condition=models.Q(aml_threshold_cents__gt=0), name="venue_aml_threshold_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(confirm_threshold_cents__gt=0), name="venue_confirm_threshold_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(recount_threshold_cents__gte=0),
                name="venue_recount_threshold_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(dealer_push_minutes__gte=10, dealer_push_minutes__lte=90),
                name="venue_dealer_push_minutes",
            ),
            models.CheckConstraint(
                condition=models.Q(identity_retention_years__gte=1, identity_retention_years__lte=30),
                name="venue_identity_retention_years",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def host_name_list(self) -> list[str]:
        return [name.strip().lower() for name in self.host_names.split(",") if name.strip()]


class VenueRole(models.Model):
    """A staff member's role in one venue (VEN-1, ROL-1): a cashier in one room may be a floor
    manager in another. The Django groups hold the union of a user's roles, for the admin site's
    model permissions; the checks of cardroom.roles read these rows."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="venue_roles", verbose_name=_("user")
    )
    venue = models.ForeignKey(
        Venue, on_delete=models.CASCADE, related_name="staff_roles", verbose_name=_("venue")
    )
    role = models.CharField(_("role"), max_length=40)

    class Meta:
        verbose_name = _("role in a venue")
        verbose_name_plural = _("roles in venues")
        constraints = [
            models.UniqueConstraint(fields=["user", "venue", "role"], name="venue_role_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.venue} · {self.role}"


class AuditRecord(VenueScoped):
    """Who changed what, when, with the state before and after. Append-only (a trigger refuses
    UPDATE and DELETE in the database itself)."""

    at = models.DateTimeField(_("time"), db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("actor"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    # Kept as text too, so the trail reads the same after a staff account is renamed;
    # "system" for the scheduled work (the clock, timers).
    actor_name = models.CharField(_("actor name"), max_length=150)
    action = models.CharField(_("action"), max_length=80, db_index=True)
    object_type = models.CharField(_("object type"), max_length=80, db_index=True)
    object_id = models.CharField(_("object id"), max_length=64, blank=True, db_index=True)
    object_repr = models.CharField(_("object"), max_length=200, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)

    class Meta:
        verbose_name = _("audit record")
        verbose_name_plural = _("audit records")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["object_type", "object_id", "-at"], name="audit_object")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor_name} {self.action} {self.object_repr}"


class AuditRedactionPermit(models.Model):
    """Leave for one audit record to have its displayed values rewritten once (GDP-1): the
    append-only trigger lets an UPDATE of the record through while a permit names it, and only
    of its object's label, before and after values and note, never who, when, what or which
    object. `cardroom.services.audit_records_redact` writes the permits, the records and removes
    the permits in one transaction; no permit outlives it."""

    record = models.OneToOneField(AuditRecord, on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("audit redaction permit")
        verbose_name_plural = _("audit redaction permits")

    def __str__(self) -> str:
        return f"redaction of audit record {self.record_id}"


class IdempotentRequest(models.Model):
    """A money request carried out under its key (CAG-2): the key is unique, so a repeat finds
    the first result and a racing twin fails on the index. See cardroom/idempotency.py."""

    key = models.CharField(_("request key"), max_length=80, unique=True)
    # The service that carried it out ("cashgame.session_buy_in") and a digest of its arguments:
    # the same key with another request is refused, not replayed.
    operation = models.CharField(_("operation"), max_length=60)
    fingerprint = models.CharField(_("request fingerprint"), max_length=64)
    # The primary key of what the operation made (a session, an entry, a transaction).
    result_id = models.BigIntegerField(_("result"))
    created_at = models.DateTimeField(_("time"))

    class Meta:
        verbose_name = _("money request")
        verbose_name_plural = _("money requests")

    def __str__(self) -> str:
        return f"{self.operation} {self.key}"
