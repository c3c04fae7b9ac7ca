"""Optional OpenTelemetry spans: capture, consolidation jobs, context stages, SQL statements.

Off unless OpenTelemetry's own variables name an exporter
(``OTEL_TRACES_EXPORTER``) or an OTLP endpoint (``OTEL_EXPORTER_OTLP_ENDPOINT``,
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``); they are read by ``haki.config``.
Off, :func:`span` hands back one shared no-op context manager and nothing of
OpenTelemetry is imported by this module: a call pays one global read.
On, spans go to the exporters named (``otlp``, ``console``) through the SDK
of the ``otel`` extra, or to the process's tracer provider when one is
already installed (``opentelemetry-instrument``).
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from ..config import Settings
from ..errors import ConfigError

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Tracer

TRACER_NAME = "haki"
_NOOP: AbstractContextManager[Any] = contextlib.nullcontext()
_tracer: Tracer | None = None
_provider: TracerProvider | None = None

Attributes = Mapping[str, str | int | float | bool]


def enabled() -> bool:
    return _tracer is not None


def span(name: str, attributes: Attributes | None = None) -> AbstractContextManager[Any]:
    """A span around a block, the current span its parent; a no-op while tracing is off."""
    tracer = _tracer
    if tracer is None:
        return _NOOP
    return tracer.start_as_current_span(name, attributes=attributes)


def use(provider: TracerProvider | None) -> None:
    """Make spans with ``provider`` (tests: an in-memory exporter), or stop (None)."""
    global _tracer, _provider
    _provider = provider
    _tracer = provider.get_tracer(TRACER_NAME) if provider is not None else None


def configure(settings: Settings) -> None:
    """Start tracing in this process if the settings ask for it (once; later calls keep it)."""
    if _tracer is not None or not settings.trace_exporters:
        return
    try:
        from opentelemetry import trace
        from opentelemetry.sdk.trace import TracerProvider
    except ImportError:
        raise ConfigError(
            "OTEL_TRACES_EXPORTER: tracing needs the OpenTelemetry SDK "
            "(pip install 'haki-memory[otel]')",
            field="OTEL_TRACES_EXPORTER",
        ) from None

    current = trace.get_tracer_provider()
    if isinstance(current, TracerProvider):  # installed by opentelemetry-instrument
        use(current)
        return
    provider = build_provider(settings)
    trace.set_tracer_provider(provider)
    use(provider)


def build_provider(settings: Settings) -> TracerProvider:
    """A tracer provider exporting in batches to every exporter the settings name."""
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    # OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES are read by Resource.create;
    # an explicit service name here would override them.
    attributes = {} if settings.otel_service_name else {"service.name": "haki"}
    provider = TracerProvider(resource=Resource.create(attributes))
    for name in settings.trace_exporters:
        provider.add_span_processor(BatchSpanProcessor(_exporter(name, settings)))
    return provider


def _exporter(name: str, settings: Settings) -> Any:
    if name == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        return ConsoleSpanExporter()
    if name != "otlp":
        raise ConfigError(
            f"OTEL_TRACES_EXPORTER: {name!r} is not an exporter Haki knows (otlp, console, none)",
            field="OTEL_TRACES_EXPORTER",
        )
    # The exporters read their endpoint, headers and timeout from the OTEL_* variables.
    grpc = (settings.otel_exporter_otlp_protocol or "http/protobuf") == "grpc"
    module = "opentelemetry.exporter.otlp.proto." + ("grpc" if grpc else "http") + ".trace_exporter"
    try:
        exporter = importlib.import_module(module).OTLPSpanExporter
    except ImportError:
        raise ConfigError(
            "OTEL_TRACES_EXPORTER: the OTLP exporter is not installed "
            "(pip install 'haki-memory[otel]'; grpc needs opentelemetry-exporter-otlp-proto-grpc)",
            field="OTEL_TRACES_EXPORTER",
        ) from None
    return exporter()


def flush() -> None:
    """Export the spans still buffered (a server stopping)."""
    provider = _provider
    if provider is not None and hasattr(provider, "force_flush"):
        provider.force_flush()
