"""The ASGI application: HTTP through Django, websockets through Channels.

A browser's websocket passes the same-origin check (scheme, host and port: config/websocket_origin.py)
and the session auth middleware, so a
consumer's ``scope["user"]`` is the logged-in user of the page that opened the socket. A socket opened
with a personal access token (a student's bot: ``Authorization: Bearer``) is that token's user instead,
without session or Origin, and may open a table's socket only (access_tokens/websocket.py). Every socket
passes the caps on sockets per account and per client address first (config/socket_caps.py).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()  # must run before importing anything that touches models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from access_tokens.websocket import TokenOrBrowser  # noqa: E402
from config import gc_tuning, memory_trim  # noqa: E402
from config.socket_caps import SocketCaps  # noqa: E402
from config.websocket_origin import SameOriginValidator  # noqa: E402
from config.websocket_urls import token_websocket_urlpatterns, websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": TokenOrBrowser(
            token_app=SocketCaps(URLRouter(token_websocket_urlpatterns)),
            browser_app=SameOriginValidator(AuthMiddlewareStack(SocketCaps(URLRouter(websocket_urlpatterns)))),
            token_routes=token_websocket_urlpatterns,
        ),
    }
)

gc_tuning.tune()  # last: the application is loaded (see config/gc_tuning.py)
memory_trim.start()  # freed memory back to the system (config/memory_trim.py)
