"""``/docs`` that works offline: Swagger UI from the ``swagger-ui-bundle-v2`` package.

FastAPI's default page loads Swagger UI from a CDN; a laptop without network
(or a locked-down server) would show a blank page. The same page is built
here with the package's files, mounted at ``/docs/assets``. ReDoc has no
packaged build, so ``/redoc`` is off rather than half-working.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

ASSETS = "/docs/assets"


def install(app: FastAPI) -> None:
    app.mount(ASSETS, StaticFiles(directory=swagger_ui_path), name="swagger-ui")
    openapi_url = app.openapi_url or "/openapi.json"
    redirect_url = app.swagger_ui_oauth2_redirect_url

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} - API docs",
            oauth2_redirect_url=redirect_url,
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
        )

    if redirect_url:

        @app.get(redirect_url, include_in_schema=False)
        async def swagger_ui_redirect() -> HTMLResponse:
            return get_swagger_ui_oauth2_redirect_html()
