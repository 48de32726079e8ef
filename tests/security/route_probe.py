"""Shared by the role-matrix test and the probe that drafts its table: every URL pattern of the
project with sample arguments, and the status a request gets as a given user."""

import re

from django.urls import URLPattern, URLResolver, get_resolver

SKIP_PREFIXES = ("admin/",)
SAMPLE_ARGUMENTS = {"int": "999999", "number": "999999", "str": "sample", "slug": "sample", "path": "sample"}
METHODS = ("get", "post", "put", "patch", "delete")


def walk(patterns=None, prefix="", namespace=""):
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            ns = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), ns)
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), (namespace + pattern.name) if pattern.name else None, pattern


def sample_path(route: str) -> str:
    """A concrete path for a route: converters get sample values, regex groups their first choice."""
    path = re.sub(r"\(\?P<\w+>\[0-9\]\+\)", "999999", route)
    path = re.sub(r"\(\?P<\w+>([\w-]+)(?:\|[^)]*)?\)", r"\1", path)
    path = re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLE_ARGUMENTS.get(m.group(1) or "str", "sample"), path)
    path = path.replace("^", "").replace("$", "").replace("\\.", ".")
    return "/" + path


def view_methods(pattern: URLPattern) -> list[str]:
    view = getattr(pattern.callback, "view_class", None) or getattr(pattern.callback, "cls", None)
    if view is None:
        return ["get"]
    allowed = getattr(view, "http_method_names", METHODS)
    return [m for m in METHODS if m in allowed and hasattr(view, m)]


def routes():
    for route, name, pattern in walk():
        if route.startswith(SKIP_PREFIXES) or name is None:
            continue
        yield name, sample_path(route), view_methods(pattern)
