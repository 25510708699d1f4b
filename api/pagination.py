"""Pagination: page numbers for game lists, a seq cursor for event logs."""
from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import BasePagination, PageNumberPagination
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param


class GamePagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class SeqCursorPagination(BasePagination):
    """Keyset pagination on ``seq``: ``?after=<seq>&limit=<n>``.

    The queryset must be ordered by ``seq``. Each page holds the first
    ``limit`` rows with ``seq > after``; ``next`` repeats the request with
    ``after`` set to the last seq of the page, so pages never overlap or skip
    rows even while the log grows. ``next`` is null on the last page.
    """

    after_query_param = "after"
    limit_query_param = "limit"
    default_limit = 100
    max_limit = 500

    def _int_param(self, request, name, default, minimum, maximum=None):
        raw = request.query_params.get(name)
        if raw is None or raw == "":
            return default
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise ValidationError({name: [f"must be an integer, got {raw[:40]!r}"]}) from None
        if value < minimum or (maximum is not None and value > maximum):
            bounds = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
            raise ValidationError({name: [f"must be {bounds}"]})
        return value

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        self.after = self._int_param(request, self.after_query_param, 0, 0)
        self.limit = self._int_param(request, self.limit_query_param, self.default_limit, 1, self.max_limit)
        rows = list(queryset.filter(seq__gt=self.after)[: self.limit + 1])
        self.has_more = len(rows) > self.limit
        rows = rows[: self.limit]
        self.last_seq = rows[-1].seq if rows else self.after
        return rows

    def get_next_link(self):
        if not self.has_more:
            return None
        url = self.request.build_absolute_uri()
        url = replace_query_param(url, self.after_query_param, self.last_seq)
        return replace_query_param(url, self.limit_query_param, self.limit)

    def get_paginated_response(self, data):
        return Response({"next": self.get_next_link(), "last_seq": self.last_seq, "results": data})

    def get_paginated_response_schema(self, schema):
        return {
            "type": "object",
            "required": ["next", "last_seq", "results"],
            "properties": {
                "next": {"type": "string", "nullable": True, "format": "uri",
                         "description": "URL of the next page; null when this page reaches the end of the visible log."},
                "last_seq": {"type": "integer",
                             "description": "Seq of the last event on this page (the `after` to resume from later)."},
                "results": schema,
            },
        }

    def get_schema_operation_parameters(self, view):
        return [
            {"name": self.after_query_param, "required": False, "in": "query",
             "description": "Return events with seq greater than this (default 0: from the start).",
             "schema": {"type": "integer", "minimum": 0}},
            {"name": self.limit_query_param, "required": False, "in": "query",
             "description": f"Page size (default {self.default_limit}, at most {self.max_limit}).",
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_limit}},
        ]
