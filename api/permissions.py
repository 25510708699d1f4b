"""Object permissions on games, by the seat the requesting user holds.

Default deny: views only ever look games up among those where the user holds a
seat (so anyone else gets 404), and these classes then check the role. The
view stores the viewer it resolved with ``campaigns.turns.viewing.viewer_for`` as
``view.viewer``; the classes re-resolve it if missing, never trusting input.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework.permissions import BasePermission

from campaigns.turns import viewing


def _viewer(request, view, game):
    viewer = getattr(view, "viewer", None)
    if viewer is None:
        found = viewing.viewer_for(game, request.user)
        viewer = found[0] if found else None
    return viewer


class HoldsSeat(BasePermission):
    """Any seat in the game: player, umpire or observer (read access)."""

    def has_object_permission(self, request, view, obj):
        return _viewer(request, view, obj) is not None


class MayGiveOrders(BasePermission):
    """Players (for their own side; the view checks the side) and the umpire."""

    message = gettext_lazy("Only the players and the umpire may give orders in this game.")

    def has_object_permission(self, request, view, obj):
        viewer = _viewer(request, view, obj)
        return viewer is not None and (viewer.is_umpire or (viewer.role == "player" and bool(viewer.side)))


class IsUmpire(BasePermission):
    message = gettext_lazy("Only the umpire of this game may do this.")

    def has_object_permission(self, request, view, obj):
        viewer = _viewer(request, view, obj)
        return viewer is not None and viewer.is_umpire
