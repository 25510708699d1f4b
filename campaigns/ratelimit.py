"""Fixed-window rate limits in the shared cache (issue 29): how often one seat may send orders, and
how often a confirmation mail may go to one address or be asked for by one user.

Counted in Django's cache (Redis in production, ``CACHE_URL``, shared by every web process and
worker; in-process memory for the demo). A window is fixed (``key:<window number>``): a burst
at a window's edge may pass twice the limit once, which is enough to stop a flood, and each hit is
one atomic INCR. A limit of 0 means none. Why not django-ratelimit: it limits views, and these
limits must hold on every channel (web, API, mail) at the command that does the work.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.core.cache import cache


@dataclass(frozen=True)
class Limited:
    retry_after: int  # seconds until the window ends


def hit(key: str, limit: int, window: int) -> Limited | None:
    """Count one use of ``key``; ``Limited`` once more than ``limit`` fall in this ``window`` (s)."""
    if limit <= 0:
        return None
    now = time.time()
    slot = int(now // window)
    name = f"kb-rate:{key}:{slot}"
    if cache.add(name, 1, timeout=window + 1):
        count = 1
    else:
        try:
            count = cache.incr(name)
        except ValueError:  # expired between add and incr: this is the window's first use
            cache.add(name, 1, timeout=window + 1)
            count = 1
    if count > limit:
        return Limited(retry_after=max(1, int((slot + 1) * window - now) + 1))
    return None
