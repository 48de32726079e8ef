"""Player registry API: look up, create, edit, verify ID, exclude (PLY-1)."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import Pagination, paginated_response
from cardroom.names import validate_person_name
from cardroom.roles import MANAGER_ROLES, PLAYER_DESK_ROLES, roles_permission
from players import services
from players.models import ExclusionStatus, IdDocumentType, Player
from players.selectors import player_search


class PlayerSerializer(serializers.ModelSerializer):
    # Plain strings in answers: the input enums (two exclusion kinds, no blank document type)
    # are narrower than what a stored player can hold.
    exclusion_status = serializers.CharField(read_only=True, help_text="none, self_excluded or register")
    id_document_type = serializers.CharField(read_only=True, help_text="empty, or the document type")
    is_excluded = serializers.BooleanField(read_only=True)
    id_verified = serializers.BooleanField(read_only=True)

    class Meta:
        model = Player
        fields = [
            "id",
            "first_name",
            "last_name",
            "nickname",
            "date_of_birth",
            "card_number",
            "id_document_type",
            "id_document_number",
            "id_verified",
            "id_verified_at",
            "exclusion_status",
            "exclusion_reason",
            "excluded_from",
            "excluded_until",
            "is_excluded",
            "notes",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


class PlayerInputSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=80, validators=[validate_person_name])
    last_name = serializers.CharField(max_length=80, validators=[validate_person_name])
    nickname = serializers.CharField(
        max_length=80, required=False, allow_blank=True, default="", validators=[validate_person_name]
    )
    date_of_birth = serializers.DateField()
    card_number = serializers.RegexField(
        r"^[0-9A-Za-z-]{0,20}$", required=False, allow_blank=True, default=""
    )
    id_document_type = serializers.ChoiceField(
        choices=IdDocumentType.choices, required=False, allow_blank=True, default=""
    )
    id_document_number = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    notes = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class PlayerUpdateSerializer(PlayerInputSerializer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False
            field.default = serializers.empty


class ExclusionSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=[ExclusionStatus.SELF_EXCLUDED, ExclusionStatus.REGISTER])
    reason = serializers.CharField(max_length=2000)
    excluded_from = serializers.DateField()
    excluded_until = serializers.DateField(required=False, allow_null=True, default=None)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


SEARCH_TERM_NEEDED = _("Give a search term: a card number, or the start of a name or a nickname.")


class PlayerQuerySerializer(serializers.Serializer):
    """?q= is required: the list is a search, and an empty page for no term looked like a room
    without players."""

    q = serializers.CharField(
        max_length=100,
        error_messages={"required": SEARCH_TERM_NEEDED, "blank": SEARCH_TERM_NEEDED},
    )


class PlayerListApi(APIView):
    permission_classes = [roles_permission(*PLAYER_DESK_ROLES)]
    pagination_class = Pagination

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "q", str, required=True, description="Card number, or the start of a name or nickname"
            )
        ],
        responses=PlayerSerializer(many=True),
    )
    def get(self, request):
        query = PlayerQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return paginated_response(
            request=request,
            view=self,
            items=player_search(query=query.validated_data["q"], limit=None),
            serializer_class=PlayerSerializer,
        )

    @extend_schema(request=PlayerInputSerializer, responses={201: PlayerSerializer})
    def post(self, request):
        data = PlayerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_create(actor=request.user, **data.validated_data)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(APIView):
    permission_classes = [roles_permission(*PLAYER_DESK_ROLES)]

    @extend_schema(responses=PlayerSerializer)
    def get(self, request, pk: int):
        return Response(PlayerSerializer(get_object_or_404(Player, pk=pk)).data)

    @extend_schema(request=PlayerUpdateSerializer, responses=PlayerSerializer)
    def patch(self, request, pk: int):
        data = PlayerUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_update(
            actor=request.user, player=get_object_or_404(Player, pk=pk), **data.validated_data
        )
        return Response(PlayerSerializer(player).data)


class PlayerVerifyIdApi(APIView):
    permission_classes = [roles_permission(*PLAYER_DESK_ROLES)]

    @extend_schema(request=None, responses=PlayerSerializer)
    def post(self, request, pk: int):
        player = services.player_verify_id(actor=request.user, player=get_object_or_404(Player, pk=pk))
        return Response(PlayerSerializer(player).data)


class PlayerExcludeApi(APIView):
    permission_classes = [roles_permission(*MANAGER_ROLES)]

    @extend_schema(request=ExclusionSerializer, responses=PlayerSerializer)
    def post(self, request, pk: int):
        data = ExclusionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_exclude(
            actor=request.user, player=get_object_or_404(Player, pk=pk), **data.validated_data
        )
        return Response(PlayerSerializer(player).data)


class PlayerExclusionLiftApi(APIView):
    permission_classes = [roles_permission(*MANAGER_ROLES)]

    @extend_schema(request=ReasonSerializer, responses=PlayerSerializer)
    def post(self, request, pk: int):
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_exclusion_lift(
            actor=request.user, player=get_object_or_404(Player, pk=pk), **data.validated_data
        )
        return Response(PlayerSerializer(player).data)
