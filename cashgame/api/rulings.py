"""The rule book and the rulings log (FLR-1..FLR-5)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from cardroom.api import Pagination, paginated_response
from cashgame import selectors
from cashgame.api._common import (
    FLOOR,
    JsonApiView,
    StrictCharField,
    StrictPrimaryKeyRelatedField,
    TableQuerySerializer,
    query_table,
)
from cashgame.models import CashTable, Hand, Ruling
from cashgame.rulebook import SITUATIONS
from cashgame.services import rulings


class SituationSerializer(serializers.Serializer):
    key = StrictCharField()
    rule = StrictCharField()
    title = StrictCharField()
    consequence = StrictCharField()
    consequence_text = StrictCharField()
    voids_hand = serializers.BooleanField()


class RulingSerializer(serializers.ModelSerializer):
    staff = StrictCharField(source="staff.get_username", read_only=True)

    class Meta:
        model = Ruling
        fields = ["id", "table", "hand", "situation", "rule", "decision", "staff", "at"]
        read_only_fields = fields


class RulingInputSerializer(serializers.Serializer):
    table = StrictPrimaryKeyRelatedField(queryset=CashTable.objects.all())
    hand = StrictPrimaryKeyRelatedField(queryset=Hand.objects.all(), required=False, allow_null=True)
    situation = serializers.ChoiceField(choices=[situation.key for situation in SITUATIONS])
    decision = StrictCharField(max_length=2000)


class RuleBookApi(JsonApiView):
    """FLR-1..FLR-4: the dealing-error situations and what each does to the logged hand."""

    permission_classes = [FLOOR]
    pagination_class = Pagination

    @extend_schema(responses=SituationSerializer(many=True))
    def get(self, request):
        return paginated_response(
            request=request, view=self, items=SITUATIONS, serializer_class=SituationSerializer
        )


class RulingListApi(JsonApiView):
    """FLR-5: every ruling logged; a misdeal or duplicate-card ruling voids the hand in progress."""

    permission_classes = [FLOOR]
    pagination_class = Pagination

    @extend_schema(parameters=[TableQuerySerializer], responses=RulingSerializer(many=True))
    def get(self, request):
        table = query_table(request)
        return paginated_response(
            request=request,
            view=self,
            items=selectors.ruling_list(table=table),
            serializer_class=RulingSerializer,
        )

    @extend_schema(request=RulingInputSerializer, responses={201: RulingSerializer})
    def post(self, request):
        data = RulingInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = rulings.ruling_record(actor=request.user, **data.validated_data)
        return Response(RulingSerializer(ruling).data, status=status.HTTP_201_CREATED)
