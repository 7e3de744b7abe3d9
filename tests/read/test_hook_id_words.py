"""An identifier written as one word names one thing in the prompt hook (docs/recall.md, ``recallnear.id_parts_only``).

``SHOP-4417`` is the index terms shop and 4417; the line holding it answered, and so did every line holding "shop",
at half the prompt's weight (breaker6 B6-5: "Shop backend runs on Postgres 14", "Deploy shop with make deploy" sent
with the ticket's line). When a hit holds the identifier, a hit holding only its pieces is left out of the hook.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.read import coldrecall
from memrepo.engine.read.recall import RecallIndex

TICKET = "Checkout bug tracked in SHOP-4417: double charge on retry"
LINES = [
    "Shop backend runs on Postgres 14 on RDS instance shop-prod-db-1",
    TICKET,
    "Deploy shop with make deploy ENV=prod; staging via make deploy ENV=staging",
    "Shop frontend uses Next.js 14 with the app router",
    "Blog is built with Hugo 0.121 and deployed on Netlify",
    "On-call rotation: PagerDuty schedule PXYZ123",
]


def _repo(tmp_path: Path, lines: list[str]) -> Path:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    filler = [f"Note {n} about the {('sync', 'demo', 'retro')[n % 3]} meeting" for n in range(30)]
    (root / "lessons.md").write_text("".join(f"- {line}\n" for line in [*lines, *filler]), encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    index.close()
    return root


def test_an_identifier_word_gets_its_line_alone_in_the_hook(tmp_path: Path) -> None:
    root = _repo(tmp_path, LINES)
    for prompt in ("SHOP-4417", "what is SHOP-4417 about"):
        assert [h.text for h in coldrecall.recall(root, prompt, limit=3, quick=True)] == [TICKET]
    listed = coldrecall.recall(root, "SHOP-4417", limit=3)  # recall lists as before: the hook's rule only
    assert listed[0].text == TICKET and len(listed) > 1


def test_a_line_holding_another_word_of_the_prompt_stays(tmp_path: Path) -> None:
    root = _repo(tmp_path, LINES)
    texts = [h.text for h in coldrecall.recall(root, "SHOP-4417 deploy", limit=3, quick=True)]
    assert texts[0] == TICKET and any(t.startswith("Deploy shop") for t in texts)


def test_identifier_words_and_their_pieces() -> None:
    from memrepo.engine.read.recallnear import id_parts

    assert id_parts("fix SHOP-4417 and INC-2207 today") == {"shop", "4417", "inc", "2207"}
    assert id_parts("price_1PqZ8 on node lambda-a100-07") >= {"lambda", "a100", "07"}
    assert id_parts("the shop and the blog-posts") == frozenset()  # no digit: a hyphenated word, not an id
