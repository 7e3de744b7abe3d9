"""A fork server for the kill test: imports the engine once, then runs each operation in a forked child.

Run as ``python kill_server.py``; one JSON request a line on stdin, one JSON
answer a line on stdout:

* ``{"run": op, "root": ..., "args": {...}, "acks": path}``: forks a child that
  opens the repo at ``root`` with the public API and runs ``op``; answers
  ``{"pid": n}`` at once. The child appends one JSON line to ``acks`` once the
  operation returned (its "printed success", with ``took``: its seconds), then exits 0; a memrepo error is
  acknowledged as ``{"error": ...}`` and exits 0 too; anything else exits 1
  with its traceback on stderr.
* ``{"wait": pid}``: reaps that child; answers ``{"signal": n}`` or ``{"exit": n}``,
  with ``"cpu"``: the seconds of CPU it used.

The test sends SIGKILL to the child between the two. A child is reaped only
when asked, so its pid is never reused before the kill lands. Forking from a
process that has imported everything makes each operation cost milliseconds
to start, not the second an interpreter takes, so 200 kills fit in a test.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from memrepo.engine.config import Settings
from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.errors import MemrepoError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync.sync import sync


def _settings() -> Settings:
    return Settings.model_validate({"writes": {"commit_hand_edits_after": 0}})


def _find(store: MemoryStore, text: str, only: str | None = None) -> str:
    for path, _size in store.list_files():
        if not path.endswith(".md") or (only is not None and path != only):
            continue
        for entry in store.read_file(path).entries:
            if entry.text == text:
                return entry.ref
    raise MemrepoError(f"no entry {text!r}")


def run(op: str, root: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one operation on the repo at ``root``; what it acknowledges."""
    store = MemoryStore.open(Path(root), _settings(), create=False)
    if op == "remember":
        store.agent_to_inbox = bool(args.get("inbox"))
        res = store.remember(Candidate(text=args["text"], kind=args.get("kind", "preference"), by=args["by"]))
        return {"action": res.action.value, "commit": res.commit, "path": res.path}
    if op == "forget":
        text = args["text"]
        res = store.forget(_find(store, text), expect=text)
        return {"action": res.action.value, "commit": res.commit}
    if op == "undo":
        res = store.undo(args["commit"])
        return {"action": res.action.value, "commit": res.commit}
    if op == "accept":
        res = store.accept(_find(store, args["text"], "inbox.md"))
        return {"action": res.action.value, "commit": res.commit, "path": res.path}
    if op == "dream":
        record = Dreamer(store).run()
        return {"status": record.status, "id": record.id}
    if op == "dream_accept":
        pending = [r for r in Dreamer(store).records.all() if r.status == "pending_review"]
        if not pending:
            return {"error": "no dream waiting"}
        record = Dreamer(store).accept(pending[-1].id)
        return {"status": record.status, "merge": record.merge_commit, "id": record.id}
    if op == "compact":
        res = store.compact()
        return {"head": store.head(), "ok": res is not None}
    if op == "sync":
        return {"action": sync(store).action, "head": store.head()}
    if op == "status":
        return {"state": store.status().state.value, "head": store.head()}
    raise ValueError(f"unknown op {op}")


def execute(req: dict[str, Any]) -> None:
    """Run one request's operation and append its acknowledgement (or its memrepo error) to ``req["acks"]``.

    The kill test runs the operations it does not kill this way, in its own process.
    """
    started = time.perf_counter()
    try:
        out = run(req["run"], req["root"], req.get("args", {}))
    except MemrepoError as exc:
        out = {"error": f"{type(exc).__name__}: {exc}"}
    out["took"] = time.perf_counter() - started
    line = json.dumps({"op": req["run"], "args": req.get("args", {}), **out}) + "\n"
    fd = os.open(req["acks"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


def _child(req: dict[str, Any]) -> None:
    code = 0
    try:
        execute(req)
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stderr.flush()
    os._exit(code)


def _warm_up() -> None:
    """Run each kind of operation once in a throwaway repo, so what the engine builds lazily
    (regular expressions, the secret detector, pydantic validators) is built before any fork."""
    with tempfile.TemporaryDirectory(prefix="memrepo-kill-warm-") as tmp:
        root = Path(tmp) / "memory"
        MemoryStore.open(root, _settings())
        for text in (
            "Always check the warm up notes before pushing",
            "Always check the warm up notes before pushing code",
        ):
            run("remember", str(root), {"text": text, "by": "user", "kind": "lesson"})
        run("dream", str(root), {})
        run("dream_accept", str(root), {})
        run("forget", str(root), {"text": "Always check the warm up notes before pushing code"})
        run("remember", str(root), {"text": "a warm up note for the inbox", "by": "agent", "inbox": True})
        run("accept", str(root), {"text": "a warm up note for the inbox"})
        run("status", str(root), {})
    gc.collect()
    gc.freeze()  # the children share these pages instead of copying them when the collector walks them


def main() -> None:
    _warm_up()
    print(json.dumps({"ready": os.getpid()}), flush=True)
    for raw in sys.stdin:
        req = json.loads(raw)
        if "wait" in req:
            _pid, status, usage = os.wait4(int(req["wait"]), 0)
            if os.WIFSIGNALED(status):
                answer: dict[str, float] = {"signal": os.WTERMSIG(status)}
            else:
                answer = {"exit": os.WEXITSTATUS(status)}
            answer["cpu"] = usage.ru_utime + usage.ru_stime
            print(json.dumps(answer), flush=True)
            continue
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            _child(req)
        print(json.dumps({"pid": pid}), flush=True)


if __name__ == "__main__":
    main()
