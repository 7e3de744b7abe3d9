"""Compound words written closed or open meet in recall (engine/read/recallcompound.py)."""

from __future__ import annotations

from memrepo.engine.read.recallcompound import compound_keys, compounds, joined_words, split_words

HELD = {"bug", "fix", "timezon", "time", "zone", "inplac", "place", "codebas"}


def held(term: str) -> bool:
    return term in HELD


def test_a_closed_compound_no_entry_holds_is_cut_into_two_held_words() -> None:
    assert split_words(["what", "bugfix"], held) == {"bugfix": ("bug", "fix")}
    assert split_words(["codebase"], held) == {}  # held whole: never cut
    assert split_words(["bugfixes", "tiny"], lambda t: t in {"bug", "fix"}) == {"bugfix": ("bug", "fix")}
    assert split_words(["quantum"], held) == {}  # no cut into two held words


def test_an_open_compound_is_joined_when_entries_hold_it_closed() -> None:
    assert joined_words(["which", "time", "zone"], held) == {"timezon": ("time", "zone")}
    assert joined_words(["in", "place"], held) == {"inplac": ("place",)}  # "in" is a stop word
    assert joined_words(["maya", "s"], lambda t: t == "maya") == {}  # a possessive is no compound


def test_compounds_rewrite_the_query_terms_and_name_the_joins() -> None:
    assert compounds("what goes with a bugfix", ["goe", "bugfix"], held) == (["goe", "bug", "fix"], {})
    assert compounds("which time zone", ["time", "zone"], held) == (["time", "zone"], {"timezon": ("time", "zone")})
    assert compounds("東京", ["東京"], held) == (["東京"], {})


def test_the_scan_reads_every_term_the_ranking_may_ask_about() -> None:
    keys = compound_keys("what bugfix in time zone in place")
    assert {"bug", "fix", "timezon", "inplac"} <= keys
