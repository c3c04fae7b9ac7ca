"""Tracing stays off, and imports nothing of OpenTelemetry, until OTEL_* name an
exporter; the settings read OpenTelemetry's own variables; the metric helpers."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from prometheus_client.parser import text_string_to_metric_families

from haki.config import load_settings
from haki.errors import ConfigError
from haki.observability import metrics, tracing

OTEL_VARS = (
    "OTEL_TRACES_EXPORTER",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_PROTOCOL",
    "OTEL_SDK_DISABLED",
)


@pytest.fixture
def no_otel(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in OTEL_VARS:
        monkeypatch.delenv(name, raising=False)


def test_exporters_come_from_opentelemetrys_variables(
    no_otel: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert load_settings().trace_exporters == ()
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
    assert load_settings().trace_exporters == ("otlp",)
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "console, otlp,console")
    assert load_settings().trace_exporters == ("console", "otlp")
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "none")
    assert load_settings().trace_exporters == ()
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "otlp")
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    assert load_settings().trace_exporters == ()


def test_off_is_one_shared_no_op(no_otel: None) -> None:
    tracing.configure(load_settings())
    assert not tracing.enabled()
    first, second = tracing.span("a"), tracing.span("b", {"k": 1})
    assert first is second
    with first as span:
        assert span is None


def test_off_imports_no_sdk() -> None:
    # A fresh interpreter: the app built and a span asked for, with no OTEL_* set.
    # (OpenTelemetry's API package is imported by the MCP library whatever Haki
    # does; the SDK and the exporters are what tracing would bring in.)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    code = (
        "import sys\n"
        "from haki.api.app import create_app\n"
        "from haki.config import load_settings\n"
        "from haki.observability import tracing\n"
        "create_app(load_settings(auth='off'))\n"
        "with tracing.span('x'): pass\n"
        "print(sorted(m for m in sys.modules "
        "if m.startswith(('opentelemetry.sdk', 'opentelemetry.exporter'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


def test_the_provider_exports_to_the_named_exporters(no_otel: None) -> None:
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace.export import ConsoleSpanExporter

    settings = load_settings(otel_traces_exporter="console,otlp", otel_service_name=None)
    provider = tracing.build_provider(settings)
    try:
        processors = provider._active_span_processor._span_processors
        kinds = [type(p._batch_processor._exporter) for p in processors]
        assert kinds == [ConsoleSpanExporter, OTLPSpanExporter]
        assert provider.resource.attributes["service.name"] == "haki"
    finally:
        provider.shutdown()


def test_an_unknown_exporter_refuses_to_start(no_otel: None) -> None:
    with pytest.raises(ConfigError) as err:
        tracing.build_provider(load_settings(otel_traces_exporter="zipkin"))
    assert err.value.field == "OTEL_TRACES_EXPORTER"


_CLI_IMPORTS = """
import sys
import click
from haki.cli.main import cli
ctx = click.Context(cli)
for name in cli.list_commands(ctx):   # every command module, as --help loads them
    cli.get_command(ctx, name)
sys.stdout.write(",".join(sorted(m for m in sys.modules if m.startswith("prometheus_client"))))
"""


def test_the_command_line_leaves_prometheus_client_unimported() -> None:
    # The library picks in-memory or file-backed values when first imported:
    # only ``serve`` knows which, so the command line must not import it first.
    out = subprocess.run(
        [sys.executable, "-c", _CLI_IMPORTS],
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != metrics.MULTIPROC_ENV},
    ).stdout
    assert out == ""


_PARENT = """
import sys
import haki.cli
from haki.cli.server import shared_metrics_dir
with shared_metrics_dir() as path:
    from haki.observability import metrics
    metrics.count_embedded_restart()
    metrics.count_embedded_restart()
    sys.stdout.write(metrics.render().decode())
    sys.stderr.write(",".join(sorted(p.name.split("_")[0] for p in path.iterdir())))
"""


def test_the_parents_restarts_reach_the_shared_directory() -> None:
    # A separate interpreter: the library reads the directory once per
    # process. The scrape reads only the directory's files.
    done = subprocess.run(
        [sys.executable, "-c", _PARENT],
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != metrics.MULTIPROC_ENV},
    )
    restarts = [
        s.value
        for f in text_string_to_metric_families(done.stdout)
        for s in f.samples
        if s.name == "haki_embedded_restarts_total"
    ]
    assert restarts == [2.0]
    assert "counter" in done.stderr.split(",")


def test_context_stages_are_the_timings_that_are_times() -> None:
    before = text_string_to_metric_families(metrics.render().decode())
    count = {
        s.labels.get("stage"): s.value
        for f in before
        for s in f.samples
        if s.name == "haki_context_stage_duration_seconds_count"
    }
    metrics.observe_context(
        {"embed_ms": 2.0, "facts_pool_rows": 90.0}, 10.0, 5, facts=0, episodes=1
    )
    after = {
        s.labels.get("stage"): s.value
        for f in text_string_to_metric_families(metrics.render().decode())
        for s in f.samples
        if s.name == "haki_context_stage_duration_seconds_count"
    }
    assert after["embed"] == count.get("embed", 0) + 1
    assert "facts_pool_rows" not in after and "facts_pool" not in after
