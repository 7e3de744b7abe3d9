"""Many hits of one big file: what the replacement rule reads of the file is read once a recall (engine/read/maychange.py).

A file of hundreds of similar lines (readings, a log kept by hand) made ``memrepo recall gauge -n 200`` take 6-8 s
at 400 entries: for each of the 200 hits, three times, the rule's quick test (:func:`~memrepo.engine.read.maychange.may_change`)
parsed every entry's metadata and folded every newer line again (539,700 metadata parses in one recall). Each file
is now read once (cached by its entries' digest), and the answer is the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.read import coldrecall, maychange, recallnewer
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.repo.store import MemoryStore

ENTRIES = 300


@pytest.fixture
def root(tmp_path: Path) -> Path:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    lines = "".join(
        f"- Gauge reading {n} for the boiler room [by: user; added: 2025-03-0{1 + n % 9}]\n" for n in range(ENTRIES)
    )
    lines += "- The boiler gauge is analog [by: user; subject: boiler gauge; added: 2025-03-01]\n"
    lines += "- The boiler gauge is digital now [by: user; subject: boiler gauge; added: 2025-03-09]\n"
    (store.root / "me.md").write_text(f"# Me\n\n{lines}", encoding="utf-8")
    store.close()
    return store.root


def test_many_hits_of_one_file_parse_its_metadata_once_each(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    coldrecall.recall(root, "gauge", limit=5)  # builds the index: not what is counted
    parsed = 0
    real = maychange._meta

    def counted(meta_json: str) -> dict:
        nonlocal parsed
        parsed += 1
        return real(meta_json)

    monkeypatch.setattr(maychange, "_meta", counted)
    maychange._lines_cache.clear()  # another test may have read this same file
    hits = coldrecall.recall(root, "gauge", limit=200, max_bytes=900_000)
    assert len(hits) == 200
    assert 0 < parsed <= 2 * (ENTRIES + 2), f"{parsed} metadata parses for a file of {ENTRIES + 2} entries"


def test_the_answer_is_the_rules_answer_for_every_hit(root: Path) -> None:
    """The quick test read once a file answers as the rule does: a line it says cannot change has no replacement."""
    index = RecallIndex(root)
    index.sync()
    try:
        iids = [iid for iid, _key in index.search("gauge", limit=400)]
        assert len(iids) > 200
        entries = index.file_entries(index.row(iids[0])[0])
        replaced = recallnewer.replaced_in(entries)
        assert replaced  # the rule does replace lines here: the test compares something
        for iid in iids:
            if iid in replaced:
                assert maychange.may_change(entries, iid), entries[iid][1]
    finally:
        index.close()
