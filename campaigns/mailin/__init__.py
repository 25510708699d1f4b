"""Orders by mail, the receiving half: every raw message stored first, then
authenticated, parsed and applied through ``campaigns.turns``."""
