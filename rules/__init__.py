"""Kriegsbrief rule sets: pure Python, no Django, Celery or database.

Every rule set implements :class:`rules.core.protocol.RuleSet` (and may offer the
optional capabilities declared there); :mod:`rules.catalog` lists them by name.
See rules/README.md for how to add one.
"""
