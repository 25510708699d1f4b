"""The turn machinery over the log: commands, lifecycle, deadlines and grace, absences, seats and
invitations, rulings, what each viewer sees. It never imports mail-out or a channel: it sends
signals (signals.py) the upper layers subscribe to, and queues its Celery tasks by name."""
