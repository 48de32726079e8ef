"""Drop-box counts against the rake of the hand log (RAK-5)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from cardroom.api import CentsField, MoneyRequestSerializer, Pagination, paginated_response
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, roles_permission
from cashgame import selectors
from cashgame.api._common import (
    JsonApiView,
    StrictCharField,
    StrictIntegerField,
    StrictPrimaryKeyRelatedField,
)
from cashgame.models import CashTable, DropBoxCount
from cashgame.services import dropbox

DROP_COUNT = roles_permission(*CASHIER_ROLES, *MANAGER_ROLES)


class DropCountSerializer(serializers.ModelSerializer):
    table_number = StrictIntegerField(source="table.number", read_only=True)
    counted_by = StrictCharField(source="counted_by.get_username", read_only=True)

    class Meta:
        model = DropBoxCount
        fields = [
            "id",
            "table",
            "table_number",
            "period_start",
            "period_end",
            "counted_cents",
            "expected_cents",
            "variance_cents",
            "hands",
            "counted_by",
            "counted_at",
            "note",
        ]
        read_only_fields = fields


class DropCountInputSerializer(MoneyRequestSerializer):
    table = StrictPrimaryKeyRelatedField(queryset=CashTable.objects.all())
    period_start = serializers.DateTimeField()
    period_end = serializers.DateTimeField()
    counted_cents = CentsField()
    note = StrictCharField(max_length=200, required=False, allow_blank=True, default="")


class DropCountListApi(JsonApiView):
    """RAK-5: counted drop boxes against the rake of the hand log, with the variance."""

    permission_classes = [DROP_COUNT]
    pagination_class = Pagination

    @extend_schema(responses=DropCountSerializer(many=True))
    def get(self, request):
        return paginated_response(
            request=request,
            view=self,
            items=selectors.dropbox_count_list(),
            serializer_class=DropCountSerializer,
        )

    @extend_schema(request=DropCountInputSerializer, responses={201: DropCountSerializer})
    def post(self, request):
        data = DropCountInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        count = dropbox.dropbox_count_record(actor=request.user, **data.validated_data)
        return Response(DropCountSerializer(count).data, status=status.HTTP_201_CREATED)
