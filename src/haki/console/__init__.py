"""The web console at ``/console``: server-rendered pages over the SDK.

See docs/console.md for why the pages are rendered on the server, how the
session and CSRF tokens work, and how the console reaches the API.
"""

from .pages import mount_static, router

__all__ = ["mount_static", "router"]
