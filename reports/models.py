"""Daily rollups of the ledger, so a report over five years reads about 1,800 rows per account
instead of every entry. A gaming day that has ended never changes again (the ledger is
append-only and entries carry the time they were posted), so its rollup, once built, is final."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class AccountDayTotal(models.Model):
    """What one account received and gave in one gaming day (cents, both as positive sums)."""

    day = models.DateField(_("gaming day"))
    account = models.ForeignKey("cashier.Account", on_delete=models.PROTECT, related_name="+")
    debit_cents = models.BigIntegerField(default=0)
    credit_cents = models.BigIntegerField(default=0)
    entry_count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "account"], name="rollup_day_account_unique"),
            models.CheckConstraint(
                condition=models.Q(debit_cents__gte=0, credit_cents__gte=0), name="rollup_sums_not_negative"
            ),
        ]
        indexes = [models.Index(fields=["account", "day"], name="rollup_account_day")]

    def __str__(self) -> str:
        return f"{self.day} {self.account_id} +{self.debit_cents} -{self.credit_cents}"


class RolledUpDay(models.Model):
    """A gaming day whose rollup is built and final."""

    day = models.DateField(unique=True)
    built_at = models.DateTimeField()

    def __str__(self) -> str:
        return str(self.day)
