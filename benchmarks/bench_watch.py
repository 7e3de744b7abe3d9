#!/usr/bin/env python3
"""Benchmark: how soon a hand edit is seen while the watcher runs.

The tests check that an outside edit reaches ``changes()`` subscribers, the
context block and recall (tests/core/test_repo_async.py, tests/read/); they
assert no time. This reports the times, on a private copy of a corpus:

- ``event``: from writing a file to its :class:`ChangeEvent` reaching a subscriber.
- ``context``: from writing MEMORY.md to the first ``context()`` that shows the edit.
- ``recall``: from writing a file to the first ``recall()`` that finds the new entry.

Prints p50/p95 in milliseconds for each (the debounce window of
``memrepo.engine.repo.watch`` is most of it).

Usage:
    python benchmarks/bench_watch.py --corpus PATH [--edits 20]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import percentile  # noqa: E402

from memrepo.engine.config import Settings  # noqa: E402
from memrepo.engine.repo.repo import MemoryRepo  # noqa: E402
from memrepo.engine.repo.store import MemoryStore  # noqa: E402


async def until(check, poll: float = 0.005, limit: float = 30.0) -> float:  # type: ignore[no-untyped-def]
    """Seconds until ``await check()`` is true (polling), or SystemExit after ``limit``."""
    started = time.perf_counter()
    while not await check():
        if time.perf_counter() - started > limit:
            raise SystemExit(f"not seen within {limit} s")
        await asyncio.sleep(poll)
    return time.perf_counter() - started


async def run(root: Path, edits: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"event": [], "context": [], "recall": []}
    repo = await MemoryRepo.open(root, Settings(), create=False)
    queue: asyncio.Queue = asyncio.Queue()

    async def pump() -> None:
        async for event in repo.changes():
            queue.put_nowait(event)

    task = asyncio.create_task(pump())
    await asyncio.sleep(MemoryStore.WATCH_SETTLE_S + 0.5)  # a benchmark may wait: the watcher is trusted by then
    await repo.recall("warm")  # the index is built before timing
    try:
        memory = root / "MEMORY.md"
        for i in range(edits):
            while not queue.empty():
                queue.get_nowait()
            word = f"zq{uuid.uuid4().hex[:10]}"
            target = root / "me.md"
            started = time.perf_counter()
            with target.open("a", encoding="utf-8") as fh:
                fh.write(f"- Benchmark edit {i} {word} [by: user]\n")
            while True:
                event = await asyncio.wait_for(queue.get(), 30)
                if "me.md" in event.paths:
                    break
            out["event"].append(time.perf_counter() - started)

            async def found(word: str = word) -> bool:
                return bool(await repo.recall(word))

            await until(found)
            out["recall"].append(time.perf_counter() - started)

            marker = f"zm{uuid.uuid4().hex[:10]}"
            await repo.context()  # the block is cached again before the edit
            started = time.perf_counter()
            # Near the top, as a person adds a rule: index lines claim the block's budget first and
            # entries follow in file order, so a line appended under make_corpus.py's long index
            # may never be shown (the block says how many entries it left out).
            head, _, rest = memory.read_text(encoding="utf-8").partition("\n")
            memory.write_text(f"{head}\n- Context edit {i} {marker} [by: user]\n{rest}", encoding="utf-8")

            async def shown(marker: str = marker) -> bool:
                return marker in (await repo.context()).text

            await until(shown)
            out["context"].append(time.perf_counter() - started)
    finally:
        task.cancel()
        await repo.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True, help="a memory repo (copied, never changed)")
    parser.add_argument("--edits", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-watch-") as tmp:
        root = Path(tmp) / "memory"
        shutil.copytree(args.corpus, root, symlinks=True)
        times = asyncio.run(run(root, args.edits))
    print(f"watcher latency over {args.edits} edits (ms):")
    for name, values in times.items():
        ms = [v * 1000 for v in values]
        print(f"  {name:<8} p50 {percentile(ms, 0.5):7.1f}   p95 {percentile(ms, 0.95):7.1f}")


if __name__ == "__main__":
    main()
