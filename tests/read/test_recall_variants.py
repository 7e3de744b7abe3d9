"""Recall's spelling variants (docs/architecture.md §4): acronym plurals and German umlauts transliterated."""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.format.stemming import acronym_singulars, query_variants, variant_terms
from memrepo.engine.repo.store import MemoryStore


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def texts(hits) -> list[str]:
    return [h.text for h in hits]


def test_an_acronym_plural_is_its_singular_in_a_query_and_both_in_an_entry() -> None:
    # Snowball keeps the s of "prs", "gpus", "slos" (no vowel, or one right before the s).
    assert acronym_singulars("Open PRs need two approvals; GPUs and SLOs") == {
        "prs": "pr",
        "gpus": "gpu",
        "slos": "slo",
    }
    # Not an acronym plural: all capitals, a digit before the s, a lower-case first letter, a lower-case word.
    assert acronym_singulars("DNS on AWS, K8s, iOS, bus and gas") == {}
    assert query_variants("who reviews PRs", ["who", "reviews", "prs"]) == ["who", "reviews", "pr"]
    assert query_variants("who reviews prs", ["who", "reviews", "prs"]) == ["who", "reviews", "prs"]
    assert variant_terms("Training runs on the Paula GPUs") == ["gpu"]


def test_an_umlaut_word_also_holds_its_transliteration() -> None:
    assert variant_terms("Herr Müller und Frau König") == ["mueller", "koenig"]
    assert variant_terms("Mueller and plain ASCII") == []


def test_recall_finds_acronym_plurals_and_transliterated_names(store: MemoryStore) -> None:
    write(
        store.root,
        "me.md",
        "# Me\n\n"
        "- Every PR needs two approvals before merge [by: user; added: 2025-01-01]\n"
        "- Training runs on the Paula GPUs through Slurm [by: user; added: 2025-01-01]\n"
        "- Herr Müller wants status reports in German [by: user; added: 2025-01-01]\n"
        "- Frau König signs off the budget [by: user; added: 2025-01-01]\n",
    )
    assert texts(store.recall("PRs approvals"))[:1] == ["Every PR needs two approvals before merge"]
    assert texts(store.recall("where does training get a GPU"))[:1] == ["Training runs on the Paula GPUs through Slurm"]
    assert texts(store.recall("Mueller"))[:1] == ["Herr Müller wants status reports in German"]
    assert texts(store.recall("Muller"))[:1] == ["Herr Müller wants status reports in German"]
    assert texts(store.recall("who is Koenig"))[:1] == ["Frau König signs off the budget"]
