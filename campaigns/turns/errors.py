"""The error every turn command raises when it cannot be applied now."""


class TurnError(Exception):
    """A command that cannot be applied now; the message says why, in the player's terms."""
