"""The game's "press" setting: who a seat may write to with MESSAGE."""

from django.utils.translation import gettext_lazy

PRESS_DEFAULT = "umpire"
PRESS_CHOICES = (
    ("none", gettext_lazy("None: no messages by mail (the umpire may still write to any seat)")),
    ("umpire", gettext_lazy("To the umpire: players may write to the umpire only")),
    ("all", gettext_lazy("Open: players may write to the umpire and to each other")),
)
