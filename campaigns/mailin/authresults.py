"""Authentication-Results header values parsed with ``authres``, without its per-token regex work.

``authres`` (1.x) reads a header token by token, and for each token it builds its pattern
anew (``re.compile('^' + pattern, re.I)``: a string join and a lookup in ``re``'s cache)
and cuts the token off with ``Pattern.sub`` and a callback: some 120 such steps for a
three-method header, about a tenth of a batched message's CPU in bench/mail_ingest.py, and
more for the long headers OpenDKIM, SPF and DMARC milters write. ``parse_value`` here is the
library's own grammar and its own result objects; only that one step is done with each
pattern compiled once and the token cut off by slicing, which is what ``sub`` with an empty
replacement does (tests/mail/inbound/test_authresults.py compares both on a corpus).
"""

from __future__ import annotations

import re

import authres
import authres.core


class _Header(authres.core.AuthenticationResultsHeader):
    _compiled: dict[str, re.Pattern] = {}

    def _parse_pattern(self, pattern):
        # The library's step: the first match of '^' + pattern (case-insensitive), removed from the text.
        regexp = pattern if authres.core.isre(pattern) else self._compiled.get(pattern)
        if regexp is None:
            regexp = self._compiled[pattern] = re.compile(r"^" + pattern, re.I)
        text = self._parse_text
        match = regexp.search(text)
        if match is not None:
            self._parse_text = text[: match.start()] + text[match.end() :]
        return match


def parse_value(value: str) -> authres.core.AuthenticationResultsHeader:
    """``authres.AuthenticationResultsHeader.parse_value(value)``: the same header, or the same error."""
    return _Header.parse_value(authres.core_features(), value)
