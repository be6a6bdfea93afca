"""Starting Debian's Chromium through Playwright for browser tests.

Never a downloaded browser: the executable is Debian's ``chromium`` (or ``CHROMIUM_PATH``). Where it is
missing the browser tests skip with a message saying how to install it, unless ``REQUIRE_BROWSER=1``
(set by CI), where a browser that cannot start is a failure.
"""

import os
import shutil

import pytest

INSTALL_HINT = "install Debian's Chromium: sudo apt-get install chromium (or set CHROMIUM_PATH)"
# Without these, Chromium tries to reach Google's services at start and on a closed network stalls.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str | None:
    explicit = os.environ.get("CHROMIUM_PATH")
    if explicit:
        return explicit
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def browser_required() -> bool:
    return os.environ.get("REQUIRE_BROWSER", "") in ("1", "true", "yes")


def unavailable(reason: str):
    if browser_required():
        pytest.fail(f"browser tests are required here but cannot run: {reason}; {INSTALL_HINT}")
    pytest.skip(f"{reason}; {INSTALL_HINT}")
