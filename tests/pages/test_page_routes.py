"""Every page is walked: a named GET route missing from the walker's table fails here, so a new
page cannot escape the Slovak check, the accessibility check and the screenshots."""

from tests.pages.walker import NOT_PAGES, PAGES, get_routes


def test_every_named_get_route_is_a_walked_page_or_named_as_no_page():
    routes = set(get_routes())
    assert sorted(routes - set(PAGES) - set(NOT_PAGES)) == []


def test_the_walker_names_no_route_that_is_gone():
    routes = set(get_routes())
    assert sorted((set(PAGES) | set(NOT_PAGES)) - routes) == []


def test_a_page_is_not_also_named_as_no_page():
    assert sorted(set(PAGES) & set(NOT_PAGES)) == []


def test_every_page_answers_200_to_the_role_that_uses_it(client, room):
    from tests.pages.walker import open_as, page_url

    answers = {}
    for name in PAGES:
        open_as(client, name, room)
        answers[name] = client.get(page_url(name, room)).status_code
    assert {name: code for name, code in answers.items() if code != 200} == {}
