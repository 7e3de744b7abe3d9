"""The prompt hook judges a long prompt by what a line holds (docs/recall.md, engine/read/recallnear.py ``long_prompt``).

Confidence is the share of the query's term weight a line holds; one line holds a few terms, so a task-style prompt
("Can you fix the flaky test ...? It fails on CI when ...") put its answer under the minimum the short questions were
tuned on and the hook added nothing (breaker6 B6-12: 0 of 7). A prompt of more than ``LONG_TERMS`` counted terms now
needs ``minimum x LONG_TERMS / n``, each hit alone; a short question and ``memrepo recall`` are judged as before.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.read import coldrecall
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallabsent import SMALL_REPO
from memrepo.engine.read.recallnear import LONG_TERMS, long_minimum
from memrepo.engine.read.recallrank import MIN_CONFIDENCE

LINES = [
    "Prefers pnpm over npm for JavaScript projects",
    "Never force-push to main; open a PR instead",
    "Always run the test suite before committing",
    "Works from Seoul, timezone KST (UTC+9)",
    "Shop backend runs on Postgres 14 on RDS instance shop-prod-db-1",
    "Stripe price id for the Pro plan is price_1PqZ8sLkd93JxPro",
    "Checkout bug tracked in SHOP-4417: double charge on retry",
    "Deploy shop with make deploy ENV=prod; staging via make deploy ENV=staging",
    "Shop frontend uses Next.js 14 with the app router",
    "Blog is built with Hugo 0.121 and deployed on Netlify",
    "mlpipe trains on 4x A100 on Lambda Labs node lambda-a100-07",
    "Terraform state lives in S3 bucket jlee-tfstate-eu with DynamoDB lock table tf-locks",
    "k8s cluster is k3s on Hetzner, 3 nodes, namespace prod-apps",
    "On-call rotation: PagerDuty schedule PXYZ123",
]
ANSWER = LINES[6]
PROMPT = (
    "Can you fix the flaky test in tests/test_checkout.py? It fails on CI when the retry fires twice, "
    "I think it's the double charge bug we tracked."
)
"""breaker6 B6-12's prompt: its line holds a third of its weight, a clear winner under the question's minimum."""


def _repo(tmp_path: Path, lines: list[str]) -> Path:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    # more than SMALL_REPO entries: a small repo's own rule (.recallabsent) would lift the question's share
    filler = [f"Note {n} about the {('sync', 'demo', 'retro')[n % 3]} meeting" for n in range(SMALL_REPO)]
    (root / "lessons.md").write_text("".join(f"- {line}\n" for line in [*lines, *filler]), encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    index.close()
    return root


def test_a_long_prompt_gets_the_line_that_holds_it_in_the_hook_only(tmp_path: Path) -> None:
    root = _repo(tmp_path, LINES)
    listed = coldrecall.recall(root, PROMPT, limit=3, min_confidence=0.0)
    assert listed[0].text == ANSWER and listed[0].confidence < MIN_CONFIDENCE  # under the question's minimum
    hook = coldrecall.recall(root, PROMPT, limit=3, quick=True)
    assert [h.text for h in hook] == [ANSWER]  # the other lines hold a word or two: under the long minimum
    assert coldrecall.recall(root, PROMPT, limit=3) == []  # recall (CLI, MCP) keeps the question's minimum


def test_a_long_prompt_memory_has_nothing_for_stays_silent(tmp_path: Path) -> None:
    root = _repo(tmp_path, LINES)
    prompt = "Add a loading spinner to the checkout page while the payment request is pending, with a short fade."
    assert coldrecall.recall(root, prompt, limit=3, min_confidence=0.0)  # some line holds a word of it
    assert coldrecall.recall(root, prompt, limit=3, quick=True) == []


def test_the_long_minimum_scales_with_the_counted_terms_and_spares_questions() -> None:
    assert long_minimum("what terraform version are we on", MIN_CONFIDENCE) is None  # a question: as before
    assert long_minimum(" ".join(f"word{c}" for c in "abcdef"), MIN_CONFIDENCE) is None  # LONG_TERMS terms exactly
    twelve = " ".join(f"term{c}" for c in "abcdefghijkl")
    assert long_minimum(twelve, MIN_CONFIDENCE) == MIN_CONFIDENCE * LONG_TERMS / 12
    padded = twelve + " the and please can you it is"  # filler words are not counted, as the confidence has it
    assert long_minimum(padded, MIN_CONFIDENCE) == long_minimum(twelve, MIN_CONFIDENCE)
