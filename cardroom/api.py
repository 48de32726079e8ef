"""API plumbing shared by every app: the error mapping and small helpers."""

import copy

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from cardroom.errors import DomainError
from cardroom.money import cents_to_decimal, parse_cents


def exception_handler(exc, context):
    """DomainError -> {"code", "detail", "rule"}; DRF's own errors keep their shape but gain a
    code, so every 4xx body a client sees names the problem."""
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        return Response({"code": "invalid", "detail": detail, "rule": ""}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "detail": response.data, "rule": ""}
    elif isinstance(response.data, dict) and "detail" in response.data:
        code = getattr(response.data["detail"], "code", None) or (
            "not_found" if isinstance(exc, Http404) else "error"
        )
        response.data = {"code": str(code), "detail": str(response.data["detail"]), "rule": ""}
    return response


# A serializer of scalar fields only: no nested serializer, list or dict field. DRF deep-copies
# every declared field for each serializer it makes, because a nested field holds a child bound
# to it. A scalar field keeps no state between uses, so a shallow copy is enough; on the
# cashier's and the dealer's busiest requests the deep copies cost more CPU than validating the
# data. (A comment, not a docstring: the API schema would show a docstring on every subclass.)
class FlatSerializer(serializers.Serializer):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        nested = [
            name
            for name, field in cls._declared_fields.items()
            if isinstance(field, serializers.BaseSerializer | serializers.ListField | serializers.DictField)
        ]
        if nested:
            raise TypeError(f"{cls.__name__} is flat, but {', '.join(nested)} nest fields.")

    def get_fields(self):
        return {name: copy.copy(field) for name, field in self._declared_fields.items()}


class MoneyField(serializers.Field):
    """An amount in EUR as a string with at most two decimals ("12.50"); integer cents inside.
    A number with more decimals is refused, never rounded."""

    default_error_messages = {"invalid": 'Give the amount as text with at most two decimals, e.g. "12.50".'}

    def to_internal_value(self, data):
        if isinstance(data, float):
            data = repr(data)
        if not isinstance(data, str | int) or isinstance(data, bool):
            self.fail("invalid")
        try:
            return parse_cents(data, field=self.field_name or "amount")
        except DomainError as error:
            raise serializers.ValidationError(error.message) from None

    def to_representation(self, value):
        return str(cents_to_decimal(value))


extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "pattern": r"^-?[0-9]{1,10}([.,][0-9]{1,2})?$", "example": "100.00"},
            {"type": "number"},
        ]
    }
)(MoneyField)
