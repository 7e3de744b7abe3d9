"""The prompt hook keeps the line that holds the whole prompt (engine/read/recallnear.py ``whole_kept``).

Fused by rank with the semantic list, a line holding every word of a short prompt could fall past the hook's three
places when the model reads the prompt's numbers or script by their look (repo K of the recall benchmark:
"서버 3호기" showed "서버 5호기" and two other neighbours, never "서버 3호기는 ..."). It now takes the last place.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from memrepo.engine.config import SemanticSettings
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallnear import whole_kept
from memrepo.engine.read.semantic_build import build_vectors

WHOLE = "서버 3호기는 디스크가 자주 차서 매일 새벽 2시에 로그를 정리한다."
NEAR = (
    "서버 5호기는 GPU가 있는 유일한 서버다.",
    "캐시는 Redis 7 클러스터(3노드)로 옮겼다.",
    "서버 배포는 ArgoCD에서 태그를 동기화한다.",
    "서버실 출입은 보안팀 승인이 필요하다.",
)
QUERY = "서버 3호기"


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


class LooksAlike:
    """Vectors as a model reading numbers by their look: the neighbours at cosine 1.0 to 0.9, the line that
    holds the prompt at 0 (under ``min_similarity``), every other line at 0."""

    model_id = "test:looks-alike"

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        out = []
        for text in texts:
            if query:
                out.append([1.0, 0.0])
            elif text in NEAR:
                c = 1.0 - 0.03 * NEAR.index(text)
                out.append([c, (1.0 - c * c) ** 0.5])
            else:
                out.append([0.0, 1.0])
        return out


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    lines = [WHOLE, *NEAR] + [f"회의 메모 {n}: 주간 회고와 데모 일정" for n in range(30)]
    (root / "lessons.md").write_text("".join(f"- {line}\n" for line in lines), encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    index.close()
    emb = LooksAlike()
    build_vectors(root, emb, 100)
    return root


def test_the_hook_keeps_the_line_holding_the_whole_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repo(tmp_path)
    monkeypatch.setattr("memrepo.engine.read.semantic_once.make_embedder", lambda _settings: LooksAlike())
    settings = SemanticSettings.model_validate({"min_similarity": 0.5, "answer_similarity": 0.8, "size_slope": 0.0})
    lexical = coldrecall.recall(root, QUERY, limit=3)
    assert lexical[0].text == WHOLE  # lexical recall alone answers it first
    fused = coldrecall.recall(root, QUERY, limit=10, semantic=settings)
    assert fused[0].mode == "hybrid" and [h.text for h in fused].index(WHOLE) >= 3  # fusion puts it past 3
    hook = coldrecall.recall(root, QUERY, limit=3, quick=True, semantic=settings)
    assert [h.text for h in hook] == [*[h.text for h in fused if h.text != WHOLE][:2], WHOLE]


def test_a_line_holding_part_of_the_prompt_or_one_of_two_holding_it_takes_no_place() -> None:
    found = [(1, (3.0, 0.5, 0)), (2, (2.0, 0.5, 0)), (3, (1.0, 0.5, 0))]
    part = [(9, (5.0, 0.99, 0))]
    assert whole_kept(found, part, 3) == found
    whole = [(9, (5.0, 1.0, 0))]
    assert whole_kept(found, whole, 3) == [*found[:2], whole[0]]
    assert whole_kept(found, [(2, (5.0, 1.0, 0))], 3) == found  # already in a place: the order stands
    assert whole_kept(found, [], 3) == found
    two = [(9, (5.0, 1.0, 0)), (8, (4.0, 1.0, 0))]
    assert whole_kept(found, two, 3) == found  # two lines hold the whole prompt: the words single out neither
