"""The ASGI application: HTTP through Django, websockets through Channels.

A browser's websocket passes the allowed-hosts origin check and the session auth middleware, so a
consumer's ``scope["user"]`` is the logged-in user of the page that opened the socket. A socket opened
with a personal access token (a student's bot: ``Authorization: Bearer`` or ``?token=``) is that token's
user instead, without session or Origin (access_tokens/websocket.py).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()  # must run before importing anything that touches models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from access_tokens.websocket import TokenOrBrowser  # noqa: E402
from config import gc_tuning  # noqa: E402
from config.websocket_urls import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": TokenOrBrowser(
            token_app=URLRouter(websocket_urlpatterns),
            browser_app=AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        ),
    }
)

gc_tuning.tune()  # last: the application is loaded (see config/gc_tuning.py)
