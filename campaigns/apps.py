from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The app's wiring, done once the models are loaded: the layers above the turn machinery
        # subscribe to its news, and the Celery tasks are registered so that the commands can
        # queue them by name (in-process when Celery is eager, as in the demo).
        from django.db.models.signals import post_migrate, pre_migrate

        from . import (
            accounts,  # noqa: F401  (connects the token revocation on password change)
            tasks,  # noqa: F401  (registers the tasks the commands and the outbox call by name)
        )
        from .battles import linking
        from .mailout import notices
        from .turns import snapshotformat

        notices.connect()
        linking.connect()  # a strategic game's battles spawned and carried back (campaigns/battles)
        # migrate rebuilds the snapshots an older release's fold wrote (turns/snapshotformat.py)
        post_migrate.connect(snapshotformat.after_migrate, dispatch_uid="kriegsbrief-snapshot-format")
        pre_migrate.connect(no_statement_timeout, dispatch_uid="kriegsbrief-migrate-timeout")


def no_statement_timeout(sender=None, using="default", **kwargs) -> None:
    """migrate may run long statements (an index built on a big log, snapshots rebuilt): the web's
    statement timeout (kriegsbrief/dbtimeouts.py) is lifted for its own session. The lock timeout
    stays, so a migration waiting behind a long transaction gives up instead of queueing every
    request behind its lock."""
    from django.db import connections

    if connections[using].vendor == "postgresql":
        with connections[using].cursor() as cur:
            cur.execute("SET statement_timeout = 0")
