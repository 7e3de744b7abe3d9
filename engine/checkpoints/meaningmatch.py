"""Which stored line a user's sentence talks about, by meaning (issue 30, sem15).

The checkpoint's rules (:mod:`.samesubject`, :mod:`.slotframe`, :mod:`.staleswap`) relate a sentence to a line by
the words both say; a user who corrects memory in passing says the line's subject in other words ("the upload cap
got bumped to 100 MB" for "Max upload size for cinder is 25 MB", "本番リージョンは先月 eu-west-1 に移行しました" for
"harbor の本番リージョンは us-east-1"). :func:`meant_line` asks the local embedding model recall already ships
(:mod:`memrepo.engine.read.semantic_model`, the ``[semantic]`` extra) which listed line the sentence is about, and
answers one only when it clearly stands out, measured on the repo and the session themselves, never a fixed cosine:

- the sentence's cosine to the line is the best of its cosines to every listed line, and the line's cosine to it
  the best of the line's cosines to the user's other sentences of the batch (each is the other's nearest);
- its margin over the nearest of all those other cosines is at least their standard deviation;
- its z-score over them reaches the expected largest of that many normal draws
  (:func:`memrepo.engine.read.semantic_fusegate.expected_max`, the rule recall's gate uses);
- those other cosines number :data:`MIN_POOL` or more (fewer say nothing of what "stands out" means).

Whether the sentence gives the line another value, and every guard (another owner, another subject, an added
scope, the old value said as true, hearsay), stay the rules' (:func:`.staleswap.swaps_value`). Without the model
(the extra missing, ``MEMREPO_SEMANTIC=off``, a load failure) :func:`meant_line` answers None and says why once in
the debug log: the rules alone run. The model loads once a process, and only when a sentence needs it; a line's
vector is computed once a process (the checkpoint runs in the Stop/SessionEnd hooks' detached process, never in the
prompt path).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from typing import TypeVar

from memrepo.engine.read.semantic_fusegate import expected_max
from memrepo.engine.read.semantic_model import (
    Embedder,
    LocalEmbedder,
    ModelUnavailable,
    local_model_installed,
    semantic_off,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

MIN_POOL = 5
"""Fewest other cosines (the sentence to other lines, the line to other sentences) a stand-out is measured against."""
KEEP = 4096
"""Most vectors (and matches) a process keeps; past it they are dropped (a long-running process: the MCP server)."""

_state: dict[str, object] = {}
"""The process's model (``"model"``), or why there is none (``"off"``), and the vectors it made (``"cache"``)."""


def _model() -> Embedder | None:
    """The local model, loaded once a process; None (said once in the debug log) when it cannot be used."""
    if "model" in _state:
        return _state["model"]  # type: ignore[return-value]
    if "off" in _state:
        return None
    why = None
    if semantic_off("auto"):
        why = "semantic matching is off (MEMREPO_SEMANTIC)"
    elif not local_model_installed():
        why = "the semantic extra is not installed"
    if why is not None:
        _state["off"] = why
        log.debug("meaning match: %s; corrections use the rules alone", why)
        return None
    _state["model"] = LocalEmbedder()
    return _state["model"]  # type: ignore[return-value]


def use_model(model: Embedder | None) -> None:
    """Use ``model`` for this process (None: no model, the rules alone); drops the vectors and matches made so far.

    Args:
        model: an :class:`~memrepo.engine.read.semantic_model.Embedder`, or None.
    """
    _state.clear()
    if model is None:
        _state["off"] = "no model given"
    else:
        _state["model"] = model


OFF_BY_SETTINGS = 'semantic matching is off ([semantic] provider = "off")'
"""Why there is no model when the settings turned semantic recall off (:func:`follow`)."""


def follow(provider: str) -> None:
    """Follow the settings' ``[semantic] provider``: ``"off"`` turns the meaning match off for this process, as it
    turns recall's semantic leg off (docs/architecture.md §4); turned on again, the model is loaded at the next match
    (``MEMREPO_SEMANTIC=off`` is read there). A model given by :func:`use_model` is kept unless the settings say off.

    Args:
        provider: ``settings.semantic.provider`` (``auto``, ``local``, ``openai``, ``off``).
    """
    if provider == "off":
        if _state.get("off") != OFF_BY_SETTINGS:
            _state.clear()
            _state["off"] = OFF_BY_SETTINGS
            log.debug("meaning match: %s; corrections use the rules alone", OFF_BY_SETTINGS)
    elif _state.get("off") == OFF_BY_SETTINGS:
        _state.clear()


def reset() -> None:
    """Forget this process's model, vectors and matches: the next match reads the environment again (tests)."""
    _state.clear()


def _vectors(model: Embedder, texts: Sequence[str], query: bool) -> list[list[float]]:
    """The vectors of ``texts`` (query or passage form), each computed once a process."""
    cache: dict[tuple[str, bool], list[float]] = _state.setdefault("cache", {})  # type: ignore[assignment]
    todo = [t for t in dict.fromkeys(texts) if (t, query) not in cache]
    if len(cache) + len(todo) > KEEP:
        cache.clear()
    if todo:
        for text, vec in zip(todo, model.embed(todo, query), strict=True):
            cache[(text, query)] = vec
    return [cache[(t, query)] for t in texts]


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=False))


def stands_out(top: float, others: Sequence[float]) -> bool:
    """Whether the cosine ``top`` clearly stands out of ``others`` (the module docstring's last three rules).

    Args:
        top: the pair's cosine.
        others: the other cosines (the sentence to other lines, the line to other sentences).

    Returns:
        bool: True when there are enough, ``top`` is above all of them by one standard deviation, and its z-score
        reaches the expected largest of that many normal draws.
    """
    n = len(others)
    if n < MIN_POOL:
        return False
    mean = sum(others) / n
    std = math.sqrt(sum((x - mean) ** 2 for x in others) / n)
    if std <= 0.0:
        return False
    return top - max(others) >= std and (top - mean) / std >= expected_max(n)


def meant_line(sentence: str, others: Sequence[str], lines: Sequence[T], key: Callable[[T], str] = str) -> T | None:
    """The one line of ``lines`` that ``sentence`` talks about by meaning (the module docstring), or None.

    Args:
        sentence: the user's sentence (a correction candidate).
        others: the user's other sentences of the batch (the line's other candidates).
        lines: the listed lines it may talk about.
        key: the text of a line.

    Returns:
        the line, or None (no model, too few lines and sentences to tell, or no line stands out).
    """
    texts = [key(line) for line in lines]
    rest = [s for s in dict.fromkeys(others) if s != sentence]
    if not texts or len(texts) - 1 + len(rest) < MIN_POOL:
        return None
    model = _model()
    if model is None:
        return None
    try:
        [query] = _vectors(model, [sentence], True)
        passages = _vectors(model, texts, False)
        asked = _vectors(model, rest, True)
    except ModelUnavailable as exc:
        use_model(None)
        log.debug("meaning match: %s; corrections use the rules alone", exc)
        return None
    sims = [_dot(query, p) for p in passages]
    best = max(range(len(sims)), key=sims.__getitem__)
    back = [_dot(q, passages[best]) for q in asked]
    pool = sims[:best] + sims[best + 1 :] + back
    return lines[best] if stands_out(sims[best], pool) else None


def model_ready() -> bool:
    """Whether the local model can be used in this process (loaded on first use; :func:`_model`'s reasons if not)."""
    return _model() is not None


def nearest_group(value: str, groups: Sequence[Sequence[str]]) -> int | None:
    """The group of words one of which is nearest in meaning to ``value`` (a name the user said: "Ghostty"), when it
    stands out of the other groups (:func:`stands_out`, over each group's nearest word), or None (no model, fewer
    than :data:`MIN_POOL` other groups, none standing out). Used for a switch that names only its new value
    (:mod:`.newswitch`): the line whose words are nearest the value is the line of its kind.

    Args:
        value: the new value, as said.
        groups: each line's words that may be its value.

    Returns:
        int | None: the index of the nearest group, or None.
    """
    if len(groups) - 1 < MIN_POOL:
        return None
    model = _model()
    if model is None:
        return None
    try:
        [query] = _vectors(model, [value], False)
        near = [max((_dot(query, v) for v in _vectors(model, list(w), False)), default=-1.0) for w in groups]
    except ModelUnavailable as exc:
        use_model(None)
        log.debug("meaning match: %s; corrections use the rules alone", exc)
        return None
    best = max(range(len(near)), key=near.__getitem__)
    return best if stands_out(near[best], near[:best] + near[best + 1 :]) else None


def note(sentence: str, line: str) -> None:
    """Remember, for this process, that the kept statement ``sentence`` corrects ``line`` (found by meaning over the
    whole batch): asked again of the statement alone (:func:`noted`), the answer is the same."""
    found: dict[str, str] = _state.setdefault("found", {})  # type: ignore[assignment]
    if len(found) >= KEEP:
        found.clear()
    found[_fold(sentence)] = line


def noted(sentence: str, lines: Sequence[T], key: Callable[[T], str] = str) -> T | None:
    """The line of ``lines`` :func:`note` said ``sentence`` corrects, or None."""
    found: dict[str, str] = _state.get("found", {})  # type: ignore[assignment]
    line = found.get(_fold(sentence))
    return next((x for x in lines if key(x) == line), None) if line is not None else None


def _fold(text: str) -> str:
    return " ".join(text.casefold().split()).strip(" .!;")


__all__ = [
    "MIN_POOL",
    "follow",
    "meant_line",
    "model_ready",
    "nearest_group",
    "note",
    "noted",
    "reset",
    "stands_out",
    "use_model",
]
