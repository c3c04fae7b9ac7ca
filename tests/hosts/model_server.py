"""A scripted model server on loopback for the real agent hosts.

It speaks the three wire protocols the hosts use (the Anthropic Messages API,
the OpenAI Responses API and the Gemini ``generateContent`` API, each with its
streaming form), logs every request body, and answers from a script:

    Step(when="pagination", calls=[("Read", {"file_path": "src/api/cursor.py"})])

A request whose conversation holds ``when`` in a message, and whose tool list
offers the next scripted tool, gets that tool call; once every call of the
step has been made after the matching message (or no step matches), the model
answers with a final text. The answer depends only on the conversation, never
on how many requests came before, so a host's side requests (titles, routing,
next-speaker checks) never shift the script.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FINAL_TEXT = "Done."


@dataclass(frozen=True)
class Step:
    when: str
    calls: list[tuple[str, dict[str, Any]]]
    final: str = FINAL_TEXT
    # While the next call's tool is not offered yet (an MCP server still
    # connecting), call this host tool instead, up to ``waits`` times.
    wait: str | None = None
    waits: int = 20


@dataclass
class Request:
    path: str
    body: dict[str, Any]

    @property
    def text(self) -> str:
        """Every string the model received, unescaped (Gemini HTML-escapes ``<``/``>``)."""
        out: list[str] = []

        def walk(value: Any) -> None:
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, dict):
                for v in value.values():
                    walk(v)
            elif isinstance(value, list):
                for v in value:
                    walk(v)

        walk(self.body)
        joined = "\n".join(out)
        return joined.replace("\\u003c", "<").replace("\\u003e", ">")

    @property
    def tools(self) -> set[str]:
        """The names of the tools this request offered the model, in every protocol."""
        return set(_offered(self.body))


@dataclass
class Conversation:
    """One request read into a protocol-neutral shape."""

    messages: list[str]  # the text of every message, in order
    calls_after: list[list[str]]  # the tools the model called after message i
    tools: set[str]
    wants_json: dict[str, Any] | None = None


@dataclass
class ModelServer:
    steps: list[Step] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    port: int = 0
    _httpd: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ModelServer:
        server = self

        class Handler(_Handler):
            model = server

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._httpd.server_address[1]
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    def reset(self, steps: list[Step] | None = None) -> None:
        with self.lock:
            self.requests.clear()
            self.steps = list(steps or [])

    def model_requests(self, marker: str) -> list[Request]:
        """Requests that carry the conversation holding ``marker`` (main and subagent turns)."""
        with self.lock:
            return [r for r in self.requests if marker in r.text]

    # -- the script -------------------------------------------------------------------------

    def decide(self, conv: Conversation) -> tuple[str, dict[str, Any]] | str:
        """The next tool call, or the final text."""
        for step in self.steps:
            hits = [i for i, m in enumerate(conv.messages) if step.when in m]
            if not hits:
                continue
            after = conv.calls_after[hits[0]]
            made = len([name for name in after if name != step.wait])
            if made >= len(step.calls):
                return step.final
            name = step.calls[made][0]
            if name in conv.tools:
                return name, _bind(step.calls[made][1], conv)
            if step.wait in conv.tools and after.count(step.wait) < step.waits:
                return step.wait, {}
        return FINAL_TEXT


class _Handler(BaseHTTPRequestHandler):
    model: ModelServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._json({"data": [], "models": []})
        else:
            self._json({})

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.headers.get("Content-Encoding") == "zstd":  # not expected; log as-is
            body: Any = {"raw": raw.hex()}
        else:
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"raw": raw.decode("utf-8", "replace")}
        with self.model.lock:
            self.model.requests.append(Request(self.path, body))
        path = self.path.split("?")[0]
        if path.endswith("/messages/count_tokens"):
            self._json({"input_tokens": 1000})
        elif path.endswith("/messages"):
            self._anthropic(body)
        elif path.endswith("/responses"):
            self._responses(body)
        elif ":countTokens" in path:
            self._json({"totalTokens": 1000})
        elif ":generateContent" in path or ":streamGenerateContent" in path:
            self._gemini(body, stream=":streamGenerateContent" in path)
        else:
            self._json({})

    # -- plumbing ------------------------------------------------------------------------------

    def _json(self, data: Any, status: int = 200) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def _sse(self, events: Iterator[tuple[str | None, Any]]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for name, data in events:
            chunk = (f"event: {name}\n" if name else "") + f"data: {json.dumps(data)}\n\n"
            raw = chunk.encode()
            self.wfile.write(f"{len(raw):x}\r\n".encode() + raw + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    # -- Anthropic Messages --------------------------------------------------------------------

    def _anthropic(self, body: dict[str, Any]) -> None:
        messages: list[str] = []
        calls: list[list[str]] = []
        for msg in body.get("messages") or []:
            content = msg.get("content")
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            texts: list[str] = []
            for block in blocks or []:
                if block.get("type") == "tool_use":
                    for made in calls:
                        made.append(block.get("name", ""))
                texts.append(json.dumps(block))
            messages.append("\n".join(texts))
            calls.append([])
        tools = set(_offered(body))
        decision = self.model.decide(Conversation(messages, calls, tools))
        mid = f"msg_{time.monotonic_ns()}"
        usage = {"input_tokens": 100, "output_tokens": 10}
        if isinstance(decision, str):
            block: dict[str, Any] = {"type": "text", "text": decision}
            stop = "end_turn"
        else:
            name, args = decision
            block = {"type": "tool_use", "id": f"toolu_{time.monotonic_ns()}", "name": name}
            block["input"] = args
            stop = "tool_use"
        message = {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "scripted"),
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage,
        }
        if not body.get("stream"):
            self._json(message)
            return

        def events() -> Iterator[tuple[str | None, Any]]:
            yield "message_start", {"type": "message_start", "message": {**message, "content": []}}
            start = dict(block)
            if block["type"] == "text":
                start["text"] = ""
                delta = {"type": "text_delta", "text": block["text"]}
            else:
                start["input"] = {}
                delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
            yield (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": start,
                },
            )
            yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
            yield "content_block_stop", {"type": "content_block_stop", "index": 0}
            yield (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 10},
                },
            )
            yield "message_stop", {"type": "message_stop"}

        self._sse(events())

    # -- OpenAI Responses ----------------------------------------------------------------------

    def _responses(self, body: dict[str, Any]) -> None:
        messages: list[str] = []
        calls: list[list[str]] = []
        for item in body.get("input") or []:
            if item.get("type") in ("function_call", "custom_tool_call", "local_shell_call"):
                for made in calls:
                    made.append(_qualified(item.get("namespace"), item.get("name", "")))
            messages.append(json.dumps(item))
            calls.append([])
        namespaced = _offered(body)
        tools = set(namespaced)
        decision = self.model.decide(Conversation(messages, calls, tools))
        rid = f"resp_{time.monotonic_ns()}"
        if isinstance(decision, str):
            item: dict[str, Any] = {
                "type": "message",
                "id": f"msg_{time.monotonic_ns()}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": decision, "annotations": []}],
            }
        else:
            name, args = decision
            kind = next(
                (t.get("type") for t in body.get("tools") or [] if t.get("name") == name),
                "function",
            )
            if kind == "custom":
                item = {
                    "type": "custom_tool_call",
                    "id": f"ctc_{time.monotonic_ns()}",
                    "call_id": f"call_{time.monotonic_ns()}",
                    "name": name,
                    "input": args.get("input", ""),
                    "status": "completed",
                }
            else:
                namespace, short = namespaced.get(name) or (None, name)
                item = {
                    "type": "function_call",
                    "id": f"fc_{time.monotonic_ns()}",
                    "call_id": f"call_{time.monotonic_ns()}",
                    "name": short,
                    "arguments": json.dumps(args),
                    "status": "completed",
                }
                if namespace is not None:
                    item["namespace"] = namespace
        usage = {
            "input_tokens": 100,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 10,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 110,
        }
        response = {
            "id": rid,
            "object": "response",
            "created_at": int(time.time()),
            "status": "completed",
            "model": body.get("model", "scripted"),
            "output": [item],
            "usage": usage,
        }
        if not body.get("stream"):
            self._json(response)
            return

        def events() -> Iterator[tuple[str | None, Any]]:
            pending = {**response, "status": "in_progress", "output": []}
            yield "response.created", {"type": "response.created", "response": pending}
            yield (
                "response.output_item.added",
                {
                    "type": "response.output_item.added",
                    "output_index": 0,
                    "item": item,
                },
            )
            if item["type"] == "message":
                yield (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "delta": item["content"][0]["text"],
                    },
                )
            yield (
                "response.output_item.done",
                {
                    "type": "response.output_item.done",
                    "output_index": 0,
                    "item": item,
                },
            )
            yield "response.completed", {"type": "response.completed", "response": response}

        self._sse(events())

    # -- Gemini --------------------------------------------------------------------------------

    def _gemini(self, body: dict[str, Any], stream: bool) -> None:
        messages: list[str] = []
        calls: list[list[str]] = []
        for content in body.get("contents") or []:
            for part in content.get("parts") or []:
                if "functionCall" in part:
                    for made in calls:
                        made.append(part["functionCall"].get("name", ""))
            messages.append(json.dumps(content))
            calls.append([])
        tools = set(_offered(body))
        config = body.get("generationConfig") or {}
        schema = config.get("responseJsonSchema") or config.get("responseSchema")
        if config.get("responseMimeType") == "application/json":
            part: dict[str, Any] = {"text": json.dumps(_fill(schema or {}))}
        else:
            decision = self.model.decide(Conversation(messages, calls, tools))
            if isinstance(decision, str):
                part = {"text": decision}
            else:
                part = {"functionCall": {"name": decision[0], "args": decision[1]}}
        chunk = {
            "candidates": [
                {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 100,
                "candidatesTokenCount": 10,
                "totalTokenCount": 110,
            },
            "modelVersion": "scripted",
        }
        if not stream:
            self._json(chunk)
            return
        self._sse(iter([(None, chunk)]))


AGENT_ID = "$agent_id"  # in a scripted call's arguments: the last subagent spawned
_AGENT_ID = re.compile(r"agent_id\W+([0-9a-f]{8}-[0-9a-f-]{27})")


def _bind(args: dict[str, Any], conv: Conversation) -> dict[str, Any]:
    """The call's arguments, with ``$agent_id`` read from the conversation so far."""
    if AGENT_ID not in json.dumps(args):
        return args
    found = [m.group(1) for text in conv.messages for m in _AGENT_ID.finditer(text)]
    agent = found[-1] if found else AGENT_ID
    return json.loads(json.dumps(args).replace(AGENT_ID, agent))


def _offered(body: dict[str, Any]) -> dict[str, tuple[str, str] | None]:
    """Each offered tool's name, with its (namespace, name) where it sits in a namespace.

    Codex offers MCP servers' tools (and its subagent tools) as Responses API
    namespaces; the script names them ``<namespace>__<tool>``, as Claude Code does.
    """
    out: dict[str, tuple[str, str] | None] = {}
    for tool in body.get("tools") or []:
        if not isinstance(tool, dict):
            continue
        if tool.get("type") == "namespace":
            for child in tool.get("tools") or []:
                out[_qualified(tool["name"], child.get("name", ""))] = (
                    tool["name"],
                    child.get("name", ""),
                )
        declarations = tool.get("functionDeclarations") or tool.get("function_declarations")
        if declarations is not None:
            out.update((d.get("name", ""), None) for d in declarations)
        elif tool.get("type") != "namespace":
            out[tool.get("name") or tool.get("type", "")] = None
    return out


def _qualified(namespace: str | None, name: str) -> str:
    return f"{namespace.rstrip('_')}__{name}" if namespace else name


def _fill(schema: dict[str, Any]) -> Any:
    """A small value that satisfies a JSON schema (Gemini CLI's side calls ask for JSON)."""
    kind = str(schema.get("type", "object")).lower()
    if schema.get("enum"):
        values = schema["enum"]
        # The next-speaker check: the user speaks next, so the turn ends.
        return "user" if "user" in values else values[0]
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: _fill(v) for k, v in props.items()}
    if kind == "array":
        return []
    if kind in ("number", "integer"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    return "scripted"
