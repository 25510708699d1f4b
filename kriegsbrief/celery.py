"""Celery application. Tasks are thin wrappers over commands (campaigns.turns.tasks,
campaigns.mailout.tasks, campaigns.mailin.tasks), found through campaigns/tasks.py and
campaigns/mailin/tasks.py by autodiscovery; their names are kept as deployed."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kriegsbrief.settings")

app = Celery("kriegsbrief")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
