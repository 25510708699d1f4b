"""Pagination: page numbers for game lists, a signed cursor for event logs."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import BasePagination, PageNumberPagination
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from campaigns.turns import viewing
from campaigns.turns.eventcursor import BadCursor, EventCursor

__all__ = ["BadCursor", "EventCursor", "GamePagination", "ViewerLogPagination"]


class GamePagination(PageNumberPagination):
    """``?page=<n>&page_size=<n>``: anything but a whole number in range is refused with a 400
    saying which (DRF would quietly use its default, or answer 404 for page 0)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def _number(self, request, name: str, default: int, most: int | None = None) -> int:
        raw = request.query_params.get(name)
        if raw is None:
            return default
        if not re.fullmatch(r"[0-9]{1,10}", raw) or not 1 <= int(raw) <= (most or 10**9):
            if most:
                message = _("must be between 1 and %(most)s, got %(raw)r") % {"most": most, "raw": raw[:40]}
            else:
                message = _("must be a whole number from 1, got %(raw)r") % {"raw": raw[:40]}
            raise ValidationError({name: [message]})
        return int(raw)

    def get_page_size(self, request):
        return self._number(request, self.page_size_query_param, self.page_size, self.max_page_size)

    def paginate_queryset(self, queryset, request, view=None):
        self._number(request, self.page_query_param, 1)
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view):
        return [
            {
                "name": self.page_query_param,
                "required": False,
                "in": "query",
                "description": "Page number, from 1 (a page past the last is 404).",
                "schema": {"type": "integer", "minimum": 1, "maximum": 10**9},
            },
            {
                "name": self.page_size_query_param,
                "required": False,
                "in": "query",
                "description": f"Games per page (default {self.page_size}, at most {self.max_page_size}).",
                "schema": {"type": "integer", "minimum": 1, "maximum": self.max_page_size},
            },
        ]


class ViewerLogPagination(BasePagination):
    """Pages of one viewer's visible events: ``?cursor=<opaque>&limit=<n>``.

    The queryset must be that viewer's ``viewing.visible_events`` (set
    ``view.viewer`` and ``view.game`` before paginating). Events are numbered
    1, 2, 3... in the viewer's own log (``viewing.number_events``), which only
    ever grows at its end, so a page is the ``limit`` events after the
    cursor's number: pages never overlap or skip an event while the log grows.
    Each response carries ``cursor`` (resume after the last event of the
    page; poll with it later for what is new) and ``next`` (null on the last
    page). Nothing in either depends on events the viewer may not see.
    """

    cursor_query_param = "cursor"
    limit_query_param = "limit"
    default_limit = 100
    max_limit = 500

    def _limit(self, request) -> int:
        raw = request.query_params.get(self.limit_query_param)
        if raw is None or raw == "":
            return self.default_limit
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise ValidationError(
                {self.limit_query_param: [_("must be an integer, got %(raw)r") % {"raw": raw[:40]}]}
            ) from None
        if not 1 <= value <= self.max_limit:
            raise ValidationError(
                {self.limit_query_param: [_("must be between 1 and %(most)s") % {"most": self.max_limit}]}
            )
        return value

    def _after(self, request, view) -> tuple[int, int | None]:
        if "after" in request.query_params:
            raise ValidationError(
                {"after": [_("not accepted: resume with the `cursor` of an earlier page (or follow its `next`)")]}
            )
        token = request.query_params.get(self.cursor_query_param)
        if token is None or token == "":
            return 0, 0
        try:
            return EventCursor.place(token[:1000], view.game, view.viewer)
        except BadCursor as exc:
            raise ValidationError({self.cursor_query_param: [str(exc)]}) from None

    def paginate_queryset(self, queryset, request, view=None):
        self.request, self.game, self.viewer, self.queryset = request, view.game, view.viewer, queryset
        self.limit = self._limit(request)
        self.after, after_seq = self._after(request, view)
        rows = viewing.number_events(self.viewer, queryset, self.after, self.limit + 1, after_seq=after_seq)
        self.has_more = len(rows) > self.limit
        rows = rows[: self.limit]
        # A cursor past the end (the log cannot shrink) resumes where it was.
        self.last, self.last_seq = (rows[-1].number, rows[-1].seq) if rows else (self.after, after_seq)
        return rows

    def cursor(self) -> str:
        if self.last_seq is None:  # an old cursor at the end of the log: find the seq once
            self.last_seq = self._seq_of(self.last)
        return EventCursor.make(self.game, self.viewer, self.last, self.last_seq)

    def _seq_of(self, number: int) -> int:
        found = viewing.number_events(self.viewer, self.queryset, number - 1, 1) if number else []
        return found[0].seq if found else 0

    def get_next_link(self):
        if not self.has_more:
            return None
        url = remove_query_param(self.request.build_absolute_uri(), "after")
        url = replace_query_param(url, self.cursor_query_param, self.cursor())
        return replace_query_param(url, self.limit_query_param, self.limit)

    def get_paginated_response(self, data):
        return Response({"next": self.get_next_link(), "cursor": self.cursor(), "results": data})

    def get_paginated_response_schema(self, schema):
        return {
            "type": "object",
            "required": ["next", "cursor", "results"],
            "properties": {
                "next": {
                    "type": "string",
                    "nullable": True,
                    "format": "uri",
                    "description": "URL of the next page; null when this page reaches the end of the visible log.",
                },
                "cursor": {
                    "type": "string",
                    "description": "Opaque: pass it back as `cursor` to resume after the last event of "
                    "this page (e.g. to poll later for what is new).",
                },
                "results": schema,
            },
        }

    def get_schema_operation_parameters(self, view):
        return [
            {
                "name": self.cursor_query_param,
                "required": False,
                "in": "query",
                "description": "The `cursor` of an earlier page: return the events after it "
                "(default: from the start of the log).",
                "schema": {"type": "string"},
            },
            {
                "name": self.limit_query_param,
                "required": False,
                "in": "query",
                "description": f"Page size (default {self.default_limit}, at most {self.max_limit}).",
                "schema": {"type": "integer", "minimum": 1, "maximum": self.max_limit},
            },
        ]
