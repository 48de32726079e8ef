"""What the tournaments API modules share: choice fields documented inline, the roles of the
field's reads, and the cashier's open shift."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardroom.errors import DomainError
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES
from cashier.selectors import open_shift_for
from tournaments.models import GuaranteeMode, LevelKind, TournamentStatus

FLOOR_AND_CASHIER = (*FLOOR_ROLES, *CASHIER_ROLES)


def inline_choices(choices: list[tuple[str, str]]) -> type[serializers.ChoiceField]:
    """A choice field documented by a pattern of its values rather than an enum component:
    "kind" and "status" are field names other apps use for other choice sets, and the schema's
    enum components would collide (drf-spectacular extracts every inline "enum" by field name).
    """
    values = [value for value, _label in choices]

    @extend_schema_field(
        {
            "type": "string",
            "pattern": "^(" + "|".join(values) + ")$",
            "description": "One of: " + ", ".join(values),
        }
    )
    class InlineChoiceField(serializers.ChoiceField):
        def __init__(self, **kwargs):
            super().__init__(choices=choices, **kwargs)

    return InlineChoiceField


KindField = inline_choices(LevelKind.choices)
GuaranteeModeField = inline_choices(GuaranteeMode.choices)
TournamentStatusField = inline_choices(TournamentStatus.choices)


def open_shift_of(user):
    """The cashier's open shift; money needs one (CAG-3)."""
    shift = open_shift_for(cashier=user)
    if shift is None:
        raise DomainError("no_open_shift", _("Open your shift first."), rule="CAG-3", status_code=409)
    return shift
