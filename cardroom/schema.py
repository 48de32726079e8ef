"""OpenAPI: every operation documents the error answers it can give, in the one shape they all
have ({"code", "detail", "rule"}), so clients and the schema fuzzer know them; and a money
request's body says that it takes no other field (cardroom.api.MoneyRequestSerializer)."""

from drf_spectacular import openapi


class AutoSchema(openapi.AutoSchema):
    def _map_basic_serializer(self, serializer, direction):
        result = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and getattr(serializer, "refuses_unknown_fields", False):
            result["additionalProperties"] = False
        return result


ERROR_STATUSES = {
    "400": "The request breaks a house rule or is malformed.",
    "401": "Not logged in.",
    "403": "Your role does not allow this (ROL-1), or a rule forbids it.",
    "404": "No such object.",
    "405": "Method not allowed.",
    "409": "The request collides with what is recorded (e.g. an idempotency key reused).",
    "413": "The request body is too large.",
    "415": "Unsupported media type.",
    "503": "The database or another service could not be reached mid-request: send the request "
    "again after Retry-After seconds, with the same request key (CAG-2).",
}

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "code": {"type": "string"},
        "detail": {},
        "rule": {"type": "string"},
    },
    "required": ["code", "detail"],
}


def add_error_responses(result, generator, request, public):
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, description in ERROR_STATUSES.items():
                operation["responses"].setdefault(
                    status,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                )
    return result
