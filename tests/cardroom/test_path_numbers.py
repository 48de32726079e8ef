"""A number in an address that no database column could hold is a 404, never a server error
(the API fuzzer found a 19-digit tournament id reaching SQLite, which cannot bind it)."""

import pytest

from cardroom.converters import LARGEST


@pytest.mark.django_db
def test_a_number_too_long_for_the_database_is_not_found(api, floor):
    client = api(floor)
    assert client.post("/api/tournaments/13814702816652337152/slips/21434/confirm/").status_code == 404
    assert client.get(f"/api/tournaments/{LARGEST + 1}/").status_code == 404
    # The longest number the paths take still reaches the view, which finds no such tournament.
    response = client.post(f"/api/tournaments/{LARGEST}/slips/1/confirm/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_the_schema_says_how_long_a_path_number_may_be(api):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    parameter = next(
        p for p in schema["paths"]["/api/tournaments/{id}/"]["get"]["parameters"] if p["name"] == "id"
    )
    assert parameter["schema"] == {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999}
