"""The game's "press" setting: who a seat may write to with MESSAGE."""
PRESS_DEFAULT = "umpire"
PRESS_CHOICES = (
    ("none", "None: no messages by mail (the umpire may still write to any seat)"),
    ("umpire", "To the umpire: players may write to the umpire only"),
    ("all", "Open: players may write to the umpire and to each other"),
)
