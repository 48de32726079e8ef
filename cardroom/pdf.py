"""PDF from a template: the one place WeasyPrint is called (reports, shift closes, receipts, slips).

WeasyPrint needs Pango, a system library. A machine without it (a bare CI runner, a laptop with
nothing but Python) still runs the project: `pdf_unavailable()` says why no PDF can be made, the
download answers with a page that says so (503), and the PDF tests skip with that reason.

The fonts are the project's own copy of DejaVu Sans (static/fonts, under its Bitstream Vera
licence), named by @font-face in css/pdf.css: a filed PDF looks the same and carries Slovak
letters (č, ľ, ž, ô) whatever fonts the server has installed.
"""

import logging
from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string

PDF_STYLESHEET = "css/pdf.css"
# WeasyPrint logs every step of every layout at INFO: noise in the server's log and the tests'.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)


@cache
def _weasyprint():
    """The weasyprint module, or the reason it cannot load (ImportError without the package,
    OSError without Pango). Loaded once: the import costs about a second."""
    try:
        import weasyprint
    except (ImportError, OSError) as error:
        return f"{type(error).__name__}: {error}".splitlines()[0]
    return weasyprint


def pdf_unavailable() -> str | None:
    """Why this machine cannot make a PDF (WeasyPrint or Pango missing), or None if it can."""
    module = _weasyprint()
    return module if isinstance(module, str) else None


def _stylesheet_path(name: str) -> str:
    path = finders.find(name)
    if path is None:
        raise FileNotFoundError(f"static file {name} not found")
    return path


def pdf_from_template(
    template_name: str, context: dict, *, request=None, stylesheets: tuple[str, ...] = (PDF_STYLESHEET,)
) -> bytes:
    """The template rendered as HTML and laid out as a PDF (A4 unless a stylesheet's @page says
    otherwise). `stylesheets` are static files (css/pdf.css by default, which loads the fonts):
    read from disk, so nothing is fetched over the network and relative urls (fonts) resolve
    beside the stylesheet. Raises RuntimeError where pdf_unavailable() gives a reason."""
    reason = pdf_unavailable()
    if reason is not None:
        raise RuntimeError(reason)
    weasyprint = _weasyprint()
    html = render_to_string(template_name, context, request=request)
    base = Path(_stylesheet_path(stylesheets[0])).parent.as_uri() + "/"
    return weasyprint.HTML(string=html, base_url=base).write_pdf(
        stylesheets=[weasyprint.CSS(filename=_stylesheet_path(name)) for name in stylesheets]
    )


def pdf_response(request, template_name: str, context: dict, *, filename: str, **options) -> HttpResponse:
    """The PDF as a download named `filename`, or, where this machine cannot make PDFs, a page
    that says why (503) and that the page itself can still be printed from the browser."""
    reason = pdf_unavailable()
    if reason is not None:
        return render(request, "pdf_unavailable.html", {"reason": reason}, status=503)
    body = pdf_from_template(template_name, context, request=request, **options)
    response = HttpResponse(body, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
