"""Mail out: the durable outbox, turn reports, reminders, and the notices that answer the turn
machinery's signals (notices.py, connected by campaigns.apps)."""
