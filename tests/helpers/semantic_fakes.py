"""A fake OpenAI-compatible embeddings server on 127.0.0.1 and a small deterministic embedder, for the semantic tests.

The server speaks the real format of ``POST /v1/embeddings`` (request
``{"model", "input": [...], "encoding_format": "float"}``, answer
``{"object": "list", "data": [{"object": "embedding", "index", "embedding"}], "model", "usage"}``)
and records every request. Its vectors come from :func:`concept_vector`: words
mapped to a few concepts, so a paraphrase with no word in common lands near its entry.
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CONCEPTS = {
    "js": {"pnpm", "npm", "javascript", "js", "package", "manager", "node", "yarn"},
    "deploy": {"deploy", "deploys", "ship", "release", "staging", "cluster", "production"},
    "billing": {"billing", "invoice", "invoices", "payment", "payments", "money"},
    "coffee": {"coffee", "espresso", "latte", "drink"},
}
WORD = re.compile(r"\w+")


def concept_vector(text: str) -> list[float]:
    """A unit vector over the concepts (plus one dimension for words of no concept)."""
    vec = [0.0] * (len(CONCEPTS) + 1)
    for word in WORD.findall(text.lower()):
        for i, words in enumerate(CONCEPTS.values()):
            if word in words:
                vec[i] += 1.0
                break
        else:
            vec[-1] += 0.2
    norm = math.sqrt(sum(x * x for x in vec)) or 1.0
    return [x / norm for x in vec]


class ConceptEmbedder:
    """:class:`memrepo.engine.semantic_model.Embedder` over :func:`concept_vector`, counting what it embeds."""

    model_id = "test:concepts"

    def __init__(self) -> None:
        self.embedded: list[str] = []
        self.gate: threading.Event | None = None

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        if self.gate is not None and not query:
            self.gate.wait(60)  # long: the test opens it; a loaded machine must not open it early
        self.embedded.extend(texts)
        return [concept_vector(t) for t in texts]


class FakeEmbeddings:
    """What the fake server answers and what it was asked."""

    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, str], dict[str, Any]]] = []
        self.answer: bytes | None = None
        """A fixed body to answer instead of the vectors (a bad answer)."""
        self.status = 200
        self.delay = 0.0
        """Seconds each answer waits (a slow model: a build of a few batches spans seconds)."""
        self.stop: Callable[[], None] = lambda: None
        """Shut the server down now (an endpoint that went away)."""
        self.hold_word: str | None = None
        """A request with an input holding this word is held (set :attr:`held`) until :attr:`release` is set."""
        self.held = threading.Event()
        self.release = threading.Event()


@contextmanager
def fake_openai_server() -> Iterator[tuple[str, FakeEmbeddings]]:
    """A server on 127.0.0.1 (a free port) answering ``POST /v1/embeddings``; yields (base URL, its record)."""
    record = FakeEmbeddings()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            record.requests.append((dict(self.headers), body))
            if record.hold_word is not None and any(record.hold_word in str(text) for text in body["input"]):
                record.held.set()
                record.release.wait(120)  # the test releases it; a loaded machine must not go on early
            if record.delay:
                time.sleep(record.delay)
            if self.path != "/v1/embeddings":
                self.send_error(404)
                return
            if record.answer is not None or record.status != 200:
                out = record.answer or b'{"error": {"message": "overloaded"}}'
            else:
                inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                data = [
                    {"object": "embedding", "index": i, "embedding": concept_vector(text)}
                    for i, text in enumerate(inputs)
                ]
                data.reverse()  # the format gives each its index: order is not promised
                tokens = sum(len(t.split()) for t in inputs)
                out = json.dumps(
                    {
                        "object": "list",
                        "data": data,
                        "model": body["model"],
                        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                    }
                ).encode()
            self.send_response(record.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()

    record.stop = stop
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", record
    finally:
        stop()
        thread.join(5)
