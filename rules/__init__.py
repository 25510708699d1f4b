"""Kriegsbrief rule sets: pure Python, no Django, Celery or database.

Every rule set implements :class:`rules.core.protocol.RuleSet` and registers
itself by name in :mod:`rules.core.registry`.
"""
