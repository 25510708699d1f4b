"""Campaigns of linked battles (issue 28): a strategic game whose engagements are fought as games of
their own, and the campaign's record that links them (docs/architecture.md, "Campaigns")."""
