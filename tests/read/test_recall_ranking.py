"""Recall's ranking rule (docs/architecture.md §4): BM25 over stemmed terms, confidence, newer wins, twins, context."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.engine.format.stemming import index_term, index_terms
from memrepo.engine.format.terms import fold, terms
from memrepo.engine.models import Candidate
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallcontext import section_context
from memrepo.engine.read.recallkeys import SCHEMA_VERSION, connect
from memrepo.engine.read.recallrank import (
    CJK_MIN_SHARE,
    MIN_CONFIDENCE,
    cjk_pieces,
    confidence_weights,
    script_minimum,
)
from memrepo.engine.repo.store import MemoryStore


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def texts(hits) -> list[str]:
    return [h.text for h in hits]


# -- index terms -------------------------------------------------------------


def test_folding_covers_letters_without_a_decomposition() -> None:
    assert fold("Søren Kjær") == "soren kjaer"
    assert fold("Łukasz Wróbel") == "lukasz wrobel"
    assert fold("Đorđe Petrović") == "dorde petrovic"
    assert fold("Jürgen Groß") == "jurgen gross"
    assert fold("Ægir Þórsson") == "aegir thorsson"
    assert terms("部署前") == ["部署", "署前"]  # CJK bigrams as before


def test_stop_words_are_dropped_and_words_stemmed() -> None:
    assert index_terms(["which", "we", "deploys", "deploying", "deployed"]) == ["deploy", "deploy", "deploy"]
    assert index_term("node18") == "node18"  # digits: kept whole
    assert index_term("部署") == "部署"  # CJK: kept whole
    assert index_term("the") is None


def test_section_context_gives_headings_and_link_only_bullets() -> None:
    lines = ["# People", "", "## Søren Kjær", "- Likes async reviews", "- [[adr-0007]]", "## Other", "- x"]
    ctx = section_context(lines)
    assert ctx[4] == "People Søren Kjær\nadr-0007"  # headings on a line of their own, then the links
    assert ctx[7] == "People Other\n"
    assert 3 not in ctx  # a heading has no context of its own


# -- ranking -------------------------------------------------------------------


def test_a_kind_word_never_ranks_above_content(store: MemoryStore) -> None:
    write(
        store.root,
        "lessons.md",
        "# Lessons\n\n"
        "- Dev shells come from Nix flakes [by: user; added: 2025-06-01; kind: setup]\n"
        "- The setup of the build server uses Jenkins agents [by: user; added: 2024-01-01; kind: fact]\n",
    )
    hits = store.recall("setup jenkins")
    assert hits[0].text == "The setup of the build server uses Jenkins agents"
    assert "Dev shells come from Nix flakes" not in texts(hits)  # its kind alone is no match


def test_stemming_and_folding_find_the_other_forms(store: MemoryStore) -> None:
    write(
        store.root,
        "me.md",
        "# Me\n\n"
        "- The gateway deploys through Argo CD [by: user; added: 2025-01-01]\n"
        "- Tech lead is Søren Kjær [by: user; added: 2025-01-01]\n"
        "- Infra is led by Łukasz Wróbel [by: user; added: 2025-01-01]\n",
    )
    assert texts(store.recall("deploying"))[:1] == ["The gateway deploys through Argo CD"]
    assert texts(store.recall("Soren"))[:1] == ["Tech lead is Søren Kjær"]
    assert texts(store.recall("lukasz"))[:1] == ["Infra is led by Łukasz Wróbel"]


def test_a_compound_written_closed_or_open_finds_the_other_spelling(store: MemoryStore) -> None:
    write(
        store.root,
        "lessons.md",
        "# Lessons\n\n"
        "- Every bug fix comes with a test that reproduces the bug [by: user]\n"
        "- Store every timestamp in UTC; show it in the user's timezone [by: user]\n"
        "- Do not suggest pandas' inplace=True [by: user]\n"
        "- The time sheet is due on Fridays [by: user]\n",
    )
    assert texts(store.recall("what goes with a bugfix"))[0].startswith("Every bug fix comes with a test")
    assert texts(store.recall("which time zone"))[0].startswith("Store every timestamp in UTC")
    assert texts(store.recall("modify a dataframe in place", min_confidence=0.0))[0].startswith("Do not suggest")
    # A word an entry holds is never cut: "timesheet" is not asked as time and sheet when it is there.
    write(store.root, "notes.md", "# Notes\n\n- The timesheet tool is Harvest [by: user]\n")
    assert texts(store.recall("timesheet")) == ["The timesheet tool is Harvest"]


def test_common_words_do_not_count(store: MemoryStore) -> None:
    write(
        store.root,
        "me.md",
        "# Me\n\n"
        "- We use pnpm for JavaScript [by: user; added: 2025-01-01]\n"
        "- When we travel we take the train [by: user; added: 2025-01-01]\n"
        "- We like dark themes [by: user; added: 2025-01-01]\n",
    )
    assert texts(store.recall("when do we use pnpm")) == ["We use pnpm for JavaScript"]


def test_newer_line_with_the_same_subject_wins(store: MemoryStore) -> None:
    store.remember(Candidate(text="Uses VS Code with Vim keys", subject="editor", by="user", added="2024-01-01"))
    store.remember(
        Candidate(text="Switched editor to Neovim; VS Code for pairing", subject="editor", by="user", pin=True)
    )
    hits = store.recall("VS Code editor")
    assert hits[0].text == "Switched editor to Neovim; VS Code for pairing"
    assert hits[1].text == "Uses VS Code with Vim keys"


def test_newer_line_saying_the_same_about_the_query_wins(store: MemoryStore) -> None:
    write(
        store.root,
        "me.md",
        "# Me\n\n"
        "- Team standup is at 9:30 on Meet [by: user; added: 2024-01-01]\n"
        "- Team standup moved to 10:15 on Tuesdays and Thursdays in Slack huddles [by: user; added: 2025-03-01]\n",
    )
    assert store.recall("standup")[0].text.startswith("Team standup moved to 10:15")


def test_a_line_marked_replaced_never_ranks_above_its_replacement(store: MemoryStore) -> None:
    write(
        store.root,
        "me.md",
        "# Me\n\n"
        "- Edits code in VS Code with the Vim keys extension [by: user; added: 2024-01-01]\n"
        "- Moved to Neovim; VS Code only when pairing [by: user; added: 2025-03-01; supersedes: Edits code in VS Code]\n"
        "- The Vim keys cheat sheet is pinned above the desk [by: user; added: 2024-06-01]\n",
    )
    # The old line holds more of the query, so it scores higher; the newer one says it is out of date.
    for minimum in (None, 0.0):
        got = texts(store.recall("vs code vim keys extension", min_confidence=minimum))
        assert got.index("Moved to Neovim; VS Code only when pairing") < got.index(
            "Edits code in VS Code with the Vim keys extension"
        )
        assert got[0] == "Moved to Neovim; VS Code only when pairing"  # it takes the old line's place


def test_near_duplicates_are_collapsed(store: MemoryStore) -> None:
    write(
        store.root,
        "lessons.md",
        "# Lessons\n\n"
        "- Always run the full test suite locally before pushing to main [by: user; added: 2025-01-01]\n"
        "- Always run the full test suite locally before pushing to the main branch [by: agent; added: 2025-02-01]\n"
        "- Run the linter before pushing [by: user; added: 2024-01-01]\n",
    )
    hits = store.recall("run the test suite before pushing", limit=5)
    suites = [t for t in texts(hits) if "full test suite" in t]
    assert len(suites) == 1
    assert "Run the linter before pushing" in texts(hits)


def test_headings_and_link_only_bullets_are_indexed_for_the_entries_under_them(store: MemoryStore) -> None:
    write(
        store.root,
        "notes/people.md",
        "# People\n\n## Søren Kjær\n\n- Prefers async code reviews on the pull request [by: user]\n\n"
        "## Records\n\n- [[adr-0007-event-sourcing]]\n- Credits keep an append-only ledger [by: user]\n",
    )
    assert store.recall("Soren code reviews")[0].text == "Prefers async code reviews on the pull request"
    assert store.recall("event sourcing ledger")[0].text == "Credits keep an append-only ledger"


def test_newer_wins_never_swaps_an_entry_holding_the_words_with_one_under_a_heading_holding_them(
    store: MemoryStore,
) -> None:
    # Both hold "route planner", the first in its own text, the newer one only in the file's heading:
    # they do not say the same about the query, so the newer one must not take the first one's place.
    write(
        store.root,
        "workspaces/route-planner.md",
        "# route-planner\n\n"
        "- route-planner is a FastAPI service on Python 3.11 [by: user; added: 2026-11-21]\n"
        "- Distance queries were slow until a GiST index was added [by: user; added: 2026-11-28]\n",
    )
    hits = store.recall("route planner stack", min_confidence=0.0)
    assert hits[0].text == "route-planner is a FastAPI service on Python 3.11"


def test_a_word_only_in_a_heading_helps_rank_but_never_answers_alone(store: MemoryStore) -> None:
    write(
        store.root,
        "notes/ops.md",
        "# Ops\n\n## Kubernetes\n\n- Staging runs three nodes behind one ingress [by: user]\n"
        "- Nightly jobs write to the archive bucket [by: user]\n\n"
        "## Records\n\n- [[adr-0007-event-sourcing]]\n- Credits keep an append-only ledger [by: user]\n",
    )
    assert store.recall("kubernetes") == []  # the heading is the only place the word is
    listed = store.recall("kubernetes", min_confidence=0.0)
    assert {h.text for h in listed} == {
        "Staging runs three nodes behind one ingress",
        "Nightly jobs write to the archive bucket",
    }
    assert not any(h.answer for h in listed)  # listed with --all, but no answer
    # With a word of its own the heading helps: it ranks the entry under it first.
    assert texts(store.recall("kubernetes staging nodes"))[0] == "Staging runs three nodes behind one ingress"
    # A link-only bullet of the section names what its entries are about: it may answer alone.
    assert texts(store.recall("event sourcing")) == ["Credits keep an append-only ledger"]


# -- confidence ---------------------------------------------------------------


@pytest.fixture
def known(store: MemoryStore) -> MemoryStore:
    write(
        store.root,
        "me.md",
        "# Me\n\n"
        "- Prefers pnpm over npm for JavaScript projects [by: user; added: 2025-01-01]\n"
        "- Works at Fjordline Labs in Stockholm [by: user; added: 2025-01-01]\n"
        "- Runs the Midnattsloppet 10k every August [by: user; added: 2025-01-01]\n",
    )
    return store


def test_a_question_with_no_answer_gets_nothing(known: MemoryStore) -> None:
    assert known.recall("what is the wifi password at the office") == []
    assert known.recall("which Kafka topics does the gateway publish to") == []


def test_hits_carry_their_confidence_and_a_lower_minimum_shows_weak_ones(known: MemoryStore) -> None:
    hits = known.recall("pnpm javascript")
    assert hits[0].text.startswith("Prefers pnpm") and hits[0].confidence == 1.0
    weak = known.recall("what is the wifi password in Stockholm", min_confidence=0.0)
    assert texts(weak) == ["Works at Fjordline Labs in Stockholm"]
    assert 0.0 < weak[0].confidence < MIN_CONFIDENCE


def test_a_long_conversational_question_is_not_punished_for_its_filler_words(known: MemoryStore) -> None:
    write(known.root, "lena.md", "# Lena\n\n- Lena is on night duty at the clinic every second week [by: user]\n")
    question = "how often do you usually get to know whether Lena is really on night duty now"
    hits = known.recall(question)  # held: lena, night, duty; the other seven terms are filler
    assert texts(hits) == ["Lena is on night duty at the clinic every second week"]
    assert hits[0].confidence == 1.0
    assert known.recall("how often is the office wifi password really changed now") == []


def test_confidence_weights_leave_out_filler_words_unless_nothing_else_is_left() -> None:
    weights = {index_term(w) or w: 2.0 for w in ("often", "use", "lena", "night")}
    assert confidence_weights(weights) == {"lena": 2.0, "night": 2.0}
    only = {index_term("use") or "use": 1.0, index_term("now") or "now": 3.0}
    assert confidence_weights(only) == only  # a query of filler alone counts them all
    assert index_term("use") == index_term("uses")  # still index terms: "use" ranks "Uses fish"


def test_the_minimum_is_scaled_by_the_share_of_cjk_bigrams() -> None:
    assert script_minimum(0.4, {"wifi": 2.0, "password": 2.0}) == 0.4
    assert script_minimum(0.4, {"先方": 2.0, "担当": 2.0}) == pytest.approx(0.4 * CJK_MIN_SHARE)
    assert script_minimum(0.4, {"先方": 1.0, "contact": 1.0}) == pytest.approx(0.4 * (1 + CJK_MIN_SHARE) / 2)
    assert script_minimum(0.0, {"先方": 1.0}) == 0.0  # --all keeps every match


@pytest.fixture
def tokyo(store: MemoryStore) -> MemoryStore:
    write(
        store.root,
        "tokyo.md",
        "# Tokyo kiosk\n\n"
        "- 東京の駅ナカ売店向けセルフレジ端末のプロジェクト。顧客は東日本リテール株式会社。 [by: user; added: 2025-01-15]\n"
        "- 先方の窓口は田中 健一さん（情報システム部）。メールは丁寧語で書くこと。 [by: user; added: 2025-01-15]\n"
        "- 画面の文言はすべて先方のレビューを通すこと。 [by: user; added: 2025-04-08]\n"
        "- Receipts print on Epson printers over Bluetooth. [by: user; added: 2025-04-01]\n"
        + "".join(
            f"- Kiosk build {n} passed the store test. [by: user; added: 2025-05-{n:02d}]\n" for n in range(1, 9)
        ),
    )
    return store


def test_a_cjk_question_in_other_words_is_kept_though_its_bigrams_hold_little(tokyo: MemoryStore) -> None:
    hits = tokyo.recall("窓口の担当者は誰")  # holds 窓口 of 窓口, 口担, 担当, 当者
    assert hits[0].text.startswith("先方の窓口は田中")
    assert max(h.confidence for h in hits) < MIN_CONFIDENCE  # kept by the per-script minimum alone


def test_a_cjk_question_with_no_answer_still_gets_nothing(tokyo: MemoryStore) -> None:
    assert tokyo.recall("大阪の店舗の住所は") == []


@pytest.fixture
def seoul(store: MemoryStore) -> MemoryStore:
    write(
        store.root,
        "seoul.md",
        "# Seoul partner\n\n"
        "- 담당자는 박지훈 과장님이며 카카오톡으로 연락한다. [by: user; added: 2025-03-01]\n"
        "- 회의가 끝나고 다들 하하 웃었다. [by: user; added: 2025-03-02]\n"
        "- The partner's tracking API sends signed webhooks. [by: user; added: 2025-03-15]\n",
    )
    return store


def test_a_query_of_one_repeated_syllable_needs_the_repeat_in_the_entry(seoul: MemoryStore) -> None:
    assert seoul.recall("하하하하") == []  # its only bigram, 하하, is in an entry: the old rule gave 1.0
    assert texts(seoul.recall("하하")) == ["회의가 끝나고 다들 하하 웃었다."]


def test_a_korean_name_does_not_answer_for_another_name_with_its_first_two_syllables(seoul: MemoryStore) -> None:
    assert seoul.recall("박지원") == []  # 박지훈 shares the bigram 박지 only: the old rule gave it 0.5
    assert texts(seoul.recall("박지훈")) == ["담당자는 박지훈 과장님이며 카카오톡으로 연락한다."]
    assert texts(seoul.recall("박지훈이 누구")) == ["담당자는 박지훈 과장님이며 카카오톡으로 연락한다."]
    assert seoul.recall("박지원", min_confidence=0.0)  # still ranked: only the confidence asks for the whole name


def test_a_cjk_question_in_other_words_still_finds_its_answer(seoul: MemoryStore) -> None:
    hits = seoul.recall("담당자는 누구")  # 담당자는 held whole, 누구 nowhere
    assert hits[0].text.startswith("담당자는 박지훈")


def test_cjk_pieces_are_asked_of_repeated_characters_and_korean_three_syllable_words() -> None:
    assert cjk_pieces("하하하하") == {"하하": frozenset({"하하하"})}
    assert cjk_pieces("哈哈哈的事") == {"哈哈": frozenset({"哈哈哈"})}  # cut at the function character 的
    assert cjk_pieces("하하 하하하") == {}  # 하하 is also a whole word of the query: it counts alone
    assert cjk_pieces("박지원") == {"박지": frozenset({"박지원"}), "지원": frozenset({"박지원"})}  # a Korean name
    assert cjk_pieces("김민준이") == {"김민": frozenset({"김민준"}), "민준": frozenset({"김민준"})}  # 이 cut off
    assert cjk_pieces("회의는 언제야") == {}  # 회의 + 는, 언제 + 야: two syllables each, counted as before
    assert cjk_pieces("東京の案件") == {}  # Han and kana words are not cut at endings
    assert cjk_pieces("which editor") == {}


# -- the index file -----------------------------------------------------------------


def test_an_index_of_the_previous_version_is_rebuilt(store: MemoryStore) -> None:
    store.remember(Candidate(text="Prefers fish shell", by="user"))
    index = RecallIndex(store.root)
    index.sync()
    path = index.path
    index.close()
    db = connect(path)
    db.execute("UPDATE info SET v='2' WHERE k='version'")
    db.close()
    again = RecallIndex(store.root)
    try:
        assert again._info("version") == SCHEMA_VERSION != "2"
        again.sync()
        assert [again.entry(i)[2] for i, _key in again.search("fish")] == ["Prefers fish shell"]
    finally:
        again.close()


def test_the_quick_check_sees_a_write_by_rename_and_leaves_an_edit_in_place_to_the_full_sync(
    store: MemoryStore,
) -> None:
    write(store.root, "me.md", "# Me\n\n- Prefers fish shell [by: user]\n")
    index = RecallIndex(store.root)
    try:
        index.sync()
        assert index.sync_quick() == 0  # nothing moved: no file read, no file stat
        fresh = store.root / "notes" / "new.md.tmp"
        write(store.root, "notes/new.md.tmp", "# New\n\n- Uses the zebra keyboard layout [by: user]\n")
        fresh.rename(store.root / "notes" / "new.md")  # as the writer replaces a file
        assert index.sync_quick() == 1
        assert [index.entry(i)[2] for i, _k in index.search("zebra keyboard")] == ["Uses the zebra keyboard layout"]
        with (store.root / "me.md").open("a", encoding="utf-8") as f:  # an editor writing in place
            f.write("- Likes walrus operators [by: user]\n")
        assert index.sync_quick() == 0 and index.search("walrus operators") == []
        assert index.sync(None) == 1 and index.search("walrus operators")  # the full sync sees it
    finally:
        index.close()
