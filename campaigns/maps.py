"""One viewer's map as an HTTP response: the same headers for the web page and the API.

The SVG is served as a document of its own, so it gets a CSP that lets it run nothing
and load nothing (its styles are inline), and ``Cache-Control: private``: it is one
viewer's view and no shared cache may keep it for anyone else.
"""

from django.http import HttpResponse

CSP = "default-src 'none'; style-src 'unsafe-inline'"
CACHE_CONTROL = "private, no-cache"


def svg_response(svg: str) -> HttpResponse:
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Content-Security-Policy"] = CSP
    response["Cache-Control"] = CACHE_CONTROL
    return response
