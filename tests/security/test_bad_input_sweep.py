"""Every endpoint of the schema, as every role and anonymously, sent what must never reach a 500:
a body nested a thousand levels deep, NUL characters in every text of the body and in the query,
and names made of invisible characters. No answer is a 5xx or anything but the API's JSON error
shape; the deep and NUL bodies are refused with exactly their 400, or refused before they are
read (not logged in, not the role, no such object)."""

import json
import re
from urllib.parse import urlencode

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token

from cardroom.roles import Role
from tests.conftest import make_staff

SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
METHODS = ("get", "post", "put", "patch", "delete")
DEEP = "[" * 1000 + "]" * 1000
NUL_TEXT = "a\x00b"
INVISIBLE_TEXT = "\u200b\u3164\u2060"
# Refused before the body is read: no log-in, not the role (ROL-1), no such object. DRF checks
# the caller before it parses a body, so a caller refused one body is refused every body there.
REFUSED_FIRST = {401, 403, 404}


def component(ref: str) -> dict:
    return SCHEMA["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def sample(node: dict, text: str, depth: int = 0):
    """A value of the schema's shape with `text` in every string (ids and counts are 1)."""
    if "$ref" in node:
        node = component(node["$ref"])
    if "allOf" in node:
        return sample(node["allOf"][0], text, depth)
    if "oneOf" in node or "anyOf" in node:
        return sample((node.get("oneOf") or node["anyOf"])[0], text, depth)
    kind = node.get("type", "object")
    if kind == "object" and depth < 4:
        return {name: sample(prop, text, depth + 1) for name, prop in node.get("properties", {}).items()}
    if kind == "array" and depth < 4:
        return [sample(node.get("items", {}), text, depth + 1)]
    return {"string": text, "integer": 1, "number": 1, "boolean": True}.get(kind, text)


def operations():
    for path, item in SCHEMA["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def concrete(path: str, operation: dict) -> str:
    def value(match) -> str:
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path" and parameter["name"] == match.group(1):
                pattern = parameter["schema"].get("pattern", "")
                return "csv" if "csv" in pattern else "1"
        return "1"

    return re.sub(r"\{(\w+)\}", value, path)


def body_schema(operation: dict) -> dict | None:
    content = operation.get("requestBody", {}).get("content", {})
    return content.get("application/json", {}).get("schema")


@pytest.fixture
def callers(db):
    """An Authorization header per role, and none."""
    headers = {"anonymous": {}}
    for role in Role:
        user = make_staff(f"sweep-{role.value.lower()}", role)
        headers[role.value.lower()] = {"HTTP_AUTHORIZATION": f"Token {Token.objects.create(user=user).key}"}
    return headers


def check(problems: list, label: str, response, expected_code: str | None = None) -> bool:
    """Whether the answer was the expected 400; a problem is noted otherwise, unless the request
    was refused before it was read."""
    status = response.status_code
    if status >= 500:
        problems.append(f"{label}: {status} {response.content[:200]!r}")
        return False
    if status >= 400 and not response.get("Content-Type", "").startswith("application/json"):
        problems.append(f"{label}: {status} answered {response.get('Content-Type')}")
        return False
    if expected_code is None:
        return False
    if status == 400 and response.json().get("code") == expected_code:
        return True
    if status not in REFUSED_FIRST:
        problems.append(f"{label}: {status} {response.content[:200]!r}, expected a 400 {expected_code}")


@pytest.mark.django_db
@pytest.mark.long
def test_no_endpoint_answers_5xx_to_nested_json_nul_or_invisible_names(callers):
    client = Client(raise_request_exception=False)
    problems: list[str] = []
    read: dict[str, set[str]] = {}  # operation -> the bad inputs some caller got its exact 400 for
    for path, method, operation in operations():
        url = concrete(path, operation)
        query = {"q": NUL_TEXT} | {
            p["name"]: NUL_TEXT for p in operation.get("parameters", []) if p["in"] == "query"
        }
        schema = body_schema(operation)
        for who, headers in callers.items():
            label = f"{method.upper()} {url} as {who}"
            send = getattr(client, method)
            body = {} if method in ("get", "delete") else {"data": "{}", "content_type": "application/json"}
            response = send(f"{url}?{urlencode(query)}", **body, **headers)
            if check(problems, f"{label}, NUL in the query", response, "nul_character"):
                read.setdefault(f"{method.upper()} {path}", set()).add("query")
            if schema is None:
                continue
            with_nul = json.dumps(sample(schema, NUL_TEXT))
            for what, body, code in (
                ("nested 1,000 deep", DEEP, "json_too_deep"),
                # A body of ids and counts only has no text to hold one: its answer is its own.
                ("NUL in every text", with_nul, "nul_character" if "\\u0000" in with_nul else None),
                ("invisible names", json.dumps(sample(schema, INVISIBLE_TEXT)), None),
            ):
                response = send(url, body, content_type="application/json", **headers)
                if check(problems, f"{label}, {what}", response, code):
                    read.setdefault(f"{method.upper()} {path}", set()).add(what)
                if response.status_code in (401, 403):
                    break  # refused before the body is read (ROL-1): the other bodies would be too
    assert problems == [], "\n".join(problems)
    # The sweep reached what it sends: every operation refused the NUL in its query with its 400,
    # and every one that takes a body read the deep one (as a role it admits) and refused it.
    operation_names = [f"{method.upper()} {path}" for path, method, _operation in operations()]
    assert [name for name in operation_names if "query" not in read.get(name, set())] == []
    takes_a_body = [
        f"{method.upper()} {path}" for path, method, operation in operations() if body_schema(operation)
    ]
    assert [name for name in takes_a_body if "nested 1,000 deep" not in read.get(name, set())] == []
