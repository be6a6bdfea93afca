from tests.live_asgi import live_asgi, live_asgi_database_cleanup, live_asgi_settings  # noqa: F401 (fixtures)
