"""Celery application. Tasks are thin wrappers over campaigns.turns commands."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kriegsbrief.settings")

app = Celery("kriegsbrief")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
