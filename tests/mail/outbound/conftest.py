from .smtp_sink import smtp  # noqa: F401  (the fixture)
