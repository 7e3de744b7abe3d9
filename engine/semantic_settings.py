"""``[semantic]``: the embedding model hybrid recall fuses with the lexical ranking (docs/architecture.md §4).

Declared here, beside the modules that read it, and included in
:class:`memrepo.engine.config.Settings` as ``semantic``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_ENTRIES = 20_000
"""Default bound on the entries that get a vector (docs/architecture.md §4, "Hybrid recall").

At 384 int8 values an entry this is about 8 MB on disk and in memory, and a first
build of ~12-30 ms an entry on one CPU thread (4-10 minutes, in the background).
"""

MIN_SIMILARITY = 0.81
"""Default cosine similarity below which a semantic neighbour is not fused (tuned on the benchmark's
tune split, benchmarks/recall_quality/: 0.80 let in noise, 0.82 lost paraphrases; multilingual-e5-small's
cosines sit in 0.75-0.95 for any pair of English sentences)."""


ANSWER_SIMILARITY = 0.85
"""Default cosine the best semantic neighbour needs when no entry matched a query word (tuned likewise)."""

SEMANTIC_WEIGHT = 1.5
"""Default weight of the semantic list in reciprocal rank fusion (the lexical list's is 1)."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EndpointSettings(_Section):
    """``[semantic.openai]``: any OpenAI-compatible ``/v1/embeddings`` endpoint (Ollama, LM Studio, llama.cpp, OpenAI)."""

    base_url: str = "http://127.0.0.1:11434/v1"
    """The API root; ``/embeddings`` is appended (Ollama's default shown)."""
    model: str = "nomic-embed-text"
    api_key_env: str = ""
    """Environment variable holding the API key; empty: no ``Authorization`` header."""
    timeout_s: float = Field(10.0, gt=0)
    query_prefix: str = ""
    """Put before a query (``"query: "`` for e5 models, ``"search_query: "`` for nomic)."""
    passage_prefix: str = ""
    """Put before an entry (``"passage: "`` for e5 models, ``"search_document: "`` for nomic)."""
    batch: int = Field(32, ge=1, le=2048)
    """Entries sent in one request."""


class SemanticSettings(_Section):
    """``[semantic]``: hybrid recall (docs/architecture.md §4)."""

    provider: Literal["auto", "local", "openai", "off"] = "auto"
    """``auto``: the bundled local model when ``memrepo[semantic]`` is installed, else lexical only;
    ``local``: that model (a clear line when it is missing); ``openai``: ``[semantic.openai]``; ``off``."""
    max_entries: int = Field(MAX_ENTRIES, ge=0)
    """The most entries that get a vector: global files first, then workspace files most recently
    written first, newest entries first inside a file; recall reports the share it covered."""
    min_similarity: float = Field(MIN_SIMILARITY, ge=-1, le=1)
    """Cosine similarity a semantic neighbour needs to be a hit on its own."""
    answer_similarity: float = Field(ANSWER_SIMILARITY, ge=-1, le=1)
    """When no entry matched a query word, the cosine the best neighbour needs for recall to answer at all."""
    semantic_weight: float = Field(SEMANTIC_WEIGHT, ge=0)
    """The semantic list's weight in the fusion (the lexical list's is 1)."""
    openai: EndpointSettings = Field(default_factory=EndpointSettings)
