"""Time zones: a seat's own zone and a moment as its reader reads it."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from email.utils import format_datetime

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from campaigns.models import Seat


def local_time(iso: str | None, tz_name: str) -> str:
    """A deadline in the reader's zone, e.g. '2026-11-25 07:21 (America/New_York)'."""
    if not iso:
        return _("none")
    try:
        tz = zoneinfo.ZoneInfo(tz_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = zoneinfo.ZoneInfo("UTC")
    return parse_datetime(iso).astimezone(tz).strftime(f"%Y-%m-%d %H:%M %Z ({tz.key})")


def seat_timezone(seat: Seat | None) -> str:
    """The time zone a seat reads in: its player's profile's, else UTC."""
    profile = getattr(seat.user, "profile", None) if seat is not None and seat.user_id else None
    return profile.timezone if profile else "UTC"


def local_date(tz_name: str, now: datetime) -> str:
    """An RFC 5322 Date for ``now`` in zone ``tz_name`` (UTC if the name is unknown)."""
    try:
        tz = zoneinfo.ZoneInfo(tz_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = zoneinfo.ZoneInfo("UTC")
    return format_datetime(now.astimezone(tz))
