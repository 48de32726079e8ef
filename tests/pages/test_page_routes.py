"""Every page is walked: a named GET route missing from the walker's table fails here, so a new
page cannot escape the Slovak check, the accessibility check and the screenshots. That each page
answers 200 to the role that uses it is checked where its text is read, page by page
(test_no_code_words.py, test_content_security.py and test_slovak.py)."""

from tests.pages.walker import NOT_PAGES, PAGES, get_routes


def test_every_named_get_route_is_a_walked_page_or_named_as_no_page():
    routes = set(get_routes())
    assert sorted(routes - set(PAGES) - set(NOT_PAGES)) == []


def test_the_walker_names_no_route_that_is_gone():
    routes = set(get_routes())
    assert sorted((set(PAGES) | set(NOT_PAGES)) - routes) == []


def test_a_page_is_not_also_named_as_no_page():
    assert sorted(set(PAGES) & set(NOT_PAGES)) == []
