"""The cage's chip forms (CHP-2): a count per chip of the set, typed as the room writes numbers
("1,000", "1 000"), and the choices of each movement."""

import uuid

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardroom.errors import DomainError
from cardroom.forms import ChipsField
from cardroom.refusals import refusal
from chips.models import ChipAccountKind, ChipPostingKind, ChipSet

# Movements the cage's "move chips" form offers: value -> (from, to); "receive" brings new chips
# into the vault.
MOVES = {
    "receive": (ChipAccountKind.IN_SERVICE, ChipAccountKind.VAULT),
    "vault-cage": (ChipAccountKind.VAULT, ChipAccountKind.CAGE),
    "cage-vault": (ChipAccountKind.CAGE, ChipAccountKind.VAULT),
    "sale": (ChipAccountKind.CAGE, ChipAccountKind.HANDS),
    "redemption": (ChipAccountKind.HANDS, ChipAccountKind.CAGE),
}
MOVE_CHOICES = [
    ("vault-cage", gettext_lazy("From the vault to the cage")),
    ("cage-vault", gettext_lazy("From the cage to the vault")),
    ("sale", gettext_lazy("Sold to players at the cage")),
    ("redemption", gettext_lazy("Redeemed from players at the cage")),
    ("receive", gettext_lazy("New chips into the vault")),
]


class CountField(ChipsField):
    """A chip count; a negative one is refused naming the rule (CHP-2)."""

    def to_python(self, value):
        if str(value or "").strip().startswith(("-", "−")):
            raise refusal(DomainError("negative_count", _("A count cannot be negative."), rule="CHP-2"))
        return super().to_python(value)


class ChipsForm(forms.Form):
    """One count field per chip of `chip_set` (`chip_<value>`), and the page's key."""

    request_key = forms.CharField(widget=forms.HiddenInput, max_length=80)

    def __init__(self, *args, chip_set: ChipSet, require_all: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.chip_set = chip_set
        self.fields["request_key"].initial = f"page-{uuid.uuid4().hex}"
        self.chips = list(chip_set.denominations.order_by("value"))
        for chip in self.chips:
            self.fields[f"chip_{chip.value}"] = CountField(
                label=f"{chip.value_text} · {chip.colour_label}", required=require_all
            )

    def chip_fields(self):
        return [(chip, self[f"chip_{chip.value}"]) for chip in self.chips]

    def counts(self) -> dict[int, int]:
        return {
            chip.value: self.cleaned_data.get(f"chip_{chip.value}") or 0
            for chip in self.chips
            if self.cleaned_data.get(f"chip_{chip.value}") is not None
        }


class SlipForm(ChipsForm):
    kind = forms.ChoiceField(
        label=gettext_lazy("Slip"),
        choices=[
            (ChipPostingKind.FILL, gettext_lazy("Fill: cage to table")),
            (ChipPostingKind.CREDIT, gettext_lazy("Credit: table to cage")),
        ],
        widget=forms.RadioSelect,
        initial=ChipPostingKind.FILL,
    )
    table = forms.ChoiceField(label=gettext_lazy("Table"))
    dealer_name = forms.CharField(label=gettext_lazy("Dealer"), max_length=80)
    floor_name = forms.CharField(label=gettext_lazy("Floor"), max_length=80)

    field_order = ["kind", "table", "dealer_name", "floor_name"]

    def __init__(self, *args, tables: list[dict], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = [
            (
                row["key"],
                row["label"] if row["is_open"] else _("%(table)s (closed)") % {"table": row["label"]},
            )
            for row in tables
        ]


class MoveForm(ChipsForm):
    move = forms.ChoiceField(
        label=gettext_lazy("Movement"), choices=MOVE_CHOICES, widget=forms.RadioSelect, initial="vault-cage"
    )
    field_order = ["move"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.chip_set.is_cash:
            # Cash-game chips reach the players only with the money (a buy-in, top-up or
            # cash-out at the cage, CHP-2): no button here that the service would refuse.
            self.fields["move"].choices = [
                (value, label) for value, label in MOVE_CHOICES if value not in ("sale", "redemption")
            ]


class CountForm(ChipsForm):
    account = forms.ChoiceField(label=gettext_lazy("Counted"))
    field_order = ["account"]

    def __init__(self, *args, trays, **kwargs):
        kwargs["require_all"] = True
        super().__init__(*args, **kwargs)
        self.fields["account"].choices = [
            (ChipAccountKind.CAGE, ChipAccountKind.CAGE.label),
            (ChipAccountKind.VAULT, ChipAccountKind.VAULT.label),
            *[(f"tray:{tray.pk}", tray.name) for tray in trays],
        ]
