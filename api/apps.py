from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"

    def ready(self):
        # Wiring, once the models are loaded: expired API tokens are cleared by the deadline sweep
        # (in the worker that runs it, where no request ever imports the authentication class).
        from . import tokens

        tokens.connect()
