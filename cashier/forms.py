from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from cardroom.forms import AmountsForm, MoneyField, MoneyRequestForm
from cardroom.money import CURRENCY, format_eur


class ShiftOpenForm(AmountsForm):
    opening_float = MoneyField(label=_("Counted opening float (EUR)"))


# The euro's notes and coins, in cents, largest first: what a blind count goes through.
DENOMINATIONS_CENTS = [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1]
SMALLEST_NOTE_CENTS = 500


def _denomination_text(cents: int) -> str:
    """A note or coin as the page's language writes money: "0,50 EUR" in Slovak, "20 EUR"."""
    return format_eur(cents) if cents % 100 else f"{cents // 100} {CURRENCY}"


# Lazy: the label follows the language the page is rendered in, not the one active when the form
# was built.
denomination_label = lazy(_denomination_text, str)


class ShiftCloseForm(MoneyRequestForm):
    """A blind count: pieces per note and coin, the total computed (here, and live on the page
    by a small script); the expected figure is shown only once the count is recorded (CAG-3).
    A typed total is still taken, for a drawer counted another way; when both are given they
    must agree. The page's key makes a second tap the same count, never the recount."""

    counted = MoneyField(label=_("Counted total (EUR)"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for cents in DENOMINATIONS_CENTS:
            self.fields[f"d_{cents}"] = forms.IntegerField(
                label=denomination_label(cents),
                min_value=0,
                max_value=1_000_000,
                required=False,
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "class": "count", "data-cents": cents, "min": 0}
                ),
            )

    def rows(self, *, notes: bool) -> list[dict]:
        """The count's rows for the page: the field, its denomination and the line's total as
        the server reads it (what the script shows live, for a browser without it)."""
        found = []
        for cents in DENOMINATIONS_CENTS:
            if (cents >= SMALLEST_NOTE_CENTS) != notes:
                continue
            field = self[f"d_{cents}"]
            pieces = _pieces(field.value())
            found.append({"field": field, "cents": cents, "line_cents": cents * pieces if pieces else 0})
        return found

    def running_total_cents(self) -> int:
        return sum(row["line_cents"] for notes in (True, False) for row in self.rows(notes=notes))

    def denominations(self) -> dict | None:
        pieces = {str(c): self.cleaned_data.get(f"d_{c}") for c in DENOMINATIONS_CENTS}
        pieces = {k: v for k, v in pieces.items() if v}
        return pieces or None


def _pieces(value) -> int:
    text = str(value or "").strip()
    return int(text) if text.isdigit() and len(text) <= 7 else 0


class ReversalRequestForm(forms.Form):
    reason = forms.CharField(label=_("Why must it be reversed?"), max_length=2000)
