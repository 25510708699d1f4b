"""The API's one body parser: JSON, refusing bodies nested too deep to read as a 400.

DRF's JSONParser lets a RecursionError out of ``json.loads``: a body of 100,000 nested ``[`` sent to
``/api/auth/token/`` answered 500 before anyone signed in (issue 29). A client error is a 400 that
says what is wrong.
"""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deep") from None
