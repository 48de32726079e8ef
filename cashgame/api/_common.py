"""What the cash-game API views share: choice fields that stay out of the schema's enum
components, role permissions and the object lookups."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.views import APIView

from cardroom.parsers import JSONParser
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, MANAGER_ROLES, Role, has_role, roles_permission
from cashgame.models import CashTable, Game, Hand, PlayerSession

FLOOR = roles_permission(*FLOOR_ROLES)
CASHIER = roles_permission(*CASHIER_ROLES)
MANAGER = roles_permission(*MANAGER_ROLES)
# Seeing tables, sessions and games is part of every desk's work.
DESKS = roles_permission(Role.FLOOR, Role.CASHIER, Role.MANAGER)


def desks_read(*writers: Role) -> type[BasePermission]:
    """Every desk reads; only the given roles write (ROL-1)."""

    class DesksRead(BasePermission):
        message = _("Your role does not allow this.")

        def has_permission(self, request, view) -> bool:
            if request.method in SAFE_METHODS:
                return has_role(request.user, Role.FLOOR, Role.CASHIER, Role.MANAGER)
            return has_role(request.user, *writers)

    DesksRead.__name__ = "DesksRead_" + "_".join(role.name for role in writers)
    return DesksRead


# Games and tables are configured by managers only.
DesksReadManagersWrite = desks_read(*MANAGER_ROLES)
DesksReadFloorWrites = desks_read(*FLOOR_ROLES)


def inline_choices(choices: list[tuple[str, str]]) -> type[serializers.ChoiceField]:
    """A choice field documented by a pattern of its values, not an enum component: "status",
    "kind" and "method" are field names other apps use for other choice sets, and
    drf-spectacular names enum components after the field."""
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


class JsonApiView(APIView):
    """The cash-game API takes JSON bodies only: typed values stay typed (a pot is a number, a
    decision is a text), and form encoding cannot carry the calculators' nested lists."""

    parser_classes = [JSONParser]


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: not "12", not 12.0, not true (DRF's IntegerField would take all three)."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string: a number is not a name or a card (DRF's CharField would take it)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictPrimaryKeyRelatedField(serializers.PrimaryKeyRelatedField):
    """An object's id as a JSON integer."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A JSON true or false, nothing else: DRF's BooleanField also takes 0, 1, "yes" or "on",
    and a typo in "leaving" must not become a decision (CSH-2)."""

    default_error_messages = {"invalid": _("Must be true or false.")}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class QueryBooleanField(serializers.BooleanField):
    """A query-string flag: the text "true" or "false". An absent flag is absent (DRF's
    BooleanField reads a missing query field as False); a present one is either, so an empty
    `?flag=` is refused like any other text, not taken for absent."""

    default_error_messages = {"invalid": _("Must be true or false.")}

    def get_value(self, dictionary):
        return dictionary.get(self.field_name, empty)

    def to_internal_value(self, data):
        if isinstance(data, str) and data in ("true", "false"):
            return data == "true"
        self.fail("invalid")


class TableQuerySerializer(serializers.Serializer):
    """?table=<id>: a malformed filter is a 400, never silently ignored."""

    table = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False)  # query text


def query_table(request) -> CashTable | None:
    query = TableQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    table_id = query.validated_data.get("table")
    return get_table(table_id) if table_id is not None else None


def get_table(pk: int) -> CashTable:
    return get_object_or_404(CashTable.objects.select_related("game"), pk=pk)


def get_game(pk: int) -> Game:
    return get_object_or_404(Game, pk=pk)


def get_hand(pk: int) -> Hand:
    return get_object_or_404(Hand, pk=pk)


def get_session(pk: int) -> PlayerSession:
    return get_object_or_404(PlayerSession.objects.select_related("player", "table"), pk=pk)
