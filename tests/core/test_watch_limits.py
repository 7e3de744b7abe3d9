"""At the kernel's real inotify limits the watcher polls and says so (engine/repo/watch.py,
docs/architecture.md §4): a change in any folder still arrives. Each case runs in a user namespace
of its own (``unshare -U -r``), whose ``/proc/sys/user/max_inotify_*`` limits bind only its processes."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

PROBE = textwrap.dedent(
    """
    import asyncio, json, os, sys, tempfile
    from pathlib import Path

    kind, limit = sys.argv[1], int(sys.argv[2])
    root = Path(tempfile.mkdtemp())
    for n in range(12):
        (root / f"folder{n}").mkdir()
        (root / f"folder{n}" / "notes.md").write_text("- a line\\n")
    (root / ".git").mkdir()
    with open(f"/proc/sys/user/max_inotify_{kind}", "w") as fh:
        fh.write(str(limit))
    from memrepo.engine.repo.watch import WatchMode, watch_changes

    mode, got = WatchMode(), []

    async def main():
        stop = asyncio.Event()
        armed = asyncio.Event()

        async def edit():
            await armed.wait()
            await asyncio.sleep(0.3)
            (root / "folder11" / "notes.md").write_text("- a line\\n- edited by hand\\n")
            for _ in range(300):  # polling looks every 0.5 s; a loaded machine may take longer
                await asyncio.sleep(0.1)
                if got:
                    break
            stop.set()

        task = asyncio.create_task(edit())
        async for event in watch_changes(root, stop, mode=mode, on_armed=lambda ok: ok and armed.set()):
            got.extend(event.paths)
        await task

    asyncio.run(main())
    print(json.dumps({"paths": got, "polling": mode.polling, "fix": mode.fix}))
    """
)


def run_limited(kind: str, limit: int) -> dict[str, object]:
    done = subprocess.run(
        ["unshare", "-U", "-r", sys.executable, "-c", PROBE, kind, str(limit)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode and "unshare" in done.stderr and "Operation not permitted" in done.stderr:
        pytest.skip(f"no user namespaces here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("kind", "limit", "why"),
    [("watches", 4, "watch limit leaves room for 4 of the"), ("instances", 0, "instance limit")],
)
def test_at_an_inotify_limit_the_watcher_polls_names_why_and_sees_the_edit(kind: str, limit: int, why: str) -> None:
    got = run_limited(kind, limit)
    assert got["paths"] == ["folder11/notes.md"], got
    polling = str(got["polling"])
    assert "polling the whole work tree" in polling and why in polling, polling
    assert "max_user_watches" in str(got["fix"])


def test_with_room_enough_the_watcher_watches_natively() -> None:
    got = run_limited("watches", 10_000)
    assert got["paths"] == ["folder11/notes.md"] and got["polling"] is None, got
