"""What the user asked to remember in a task, for the offline ``rules`` dream (docs/architecture.md §6, §7).

A session whose Stop and SessionEnd hooks never ran (Claude Code killed, the
machine asleep, a hook timed out) was never checkpointed: the "remember that
X" it holds reached no file. The dream reads that session as a task, so the
``rules`` provider applies the checkpoint's own rule to it
(:func:`memrepo.engine.format.remembering.user_statements`):

* each statement the user asked to remember becomes an ``add`` citing the
  task and quoting the user's words, into the task's workspace file (me.md
  when the task has no workspace, or its workspace has no file yet, or the
  statement is about the user: "I ...", "my ...",
  :func:`memrepo.engine.format.remembering.about_user`);
* a statement already in the folder or the inbox (equal in form,
  :func:`memrepo.engine.dreams.same.equal_key`) is not proposed again: a
  session whose hooks did run adds nothing twice;
* a session the user forgot (``memrepo forget-session``, or its workspace
  purged since it started) is not read at all (:func:`forgotten`).

The adds go through the dream's validation like a model's: automatic only for
a quote the user typed in a short message (:func:`memrepo.engine.dreams.checks.add_reason`).
Such an add is written ``by: user`` only when its text is one of the task's
statements (:func:`said_by_user`), the checkpoint's trust rule.
"""

from __future__ import annotations

import json
from pathlib import Path

from memrepo.engine.agents.transcripts import Task
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.layout import LESSONS_MD, ME_MD
from memrepo.engine.format.pasted import handed_over_next
from memrepo.engine.format.paths import normalize_workspace
from memrepo.engine.format.remembering import about_user, user_statements
from memrepo.engine.format.standing import harmful, project_rule, rule_statements
from memrepo.engine.redaction import redact_text

from .input import DreamInput
from .same import equal_key, numbers

MAX_TEXT = 500
"""Characters an entry may hold (a longer statement is not proposed, as in the checkpoint)."""


def statements(task: Task) -> list[str]:
    """What the task's user asked to remember, read as the checkpoint reads it: secrets redacted first,
    so a clause about a secret is left out (:func:`memrepo.engine.format.remembering.without_secrets`); their
    standing rules first ("From now on, X": :func:`rules`), each once."""
    messages = _messages(task)  # redacted once for both readings
    found = rule_statements(messages)
    seen = {fmt.normalize_text(rule) for rule in found}  # a harmful one: not at all
    said = [rule for rule in found if not harmful(rule)]
    return said + [s for s in user_statements(messages) if fmt.normalize_text(s) not in seen]


def _messages(task: Task) -> list[str]:
    return handed_over_next([redact_text(text) for text in task.user_messages])  # "I'll paste it next" (B32-5)


def rules(task: Task) -> list[str]:
    """The task's user's standing rules (:func:`memrepo.engine.format.standing.rule_statements`: "From now on, X",
    "Please stop X-ing"), as the checkpoint reads them, less one that would do harm (it waits for the user in the
    checkpoint's inbox, never a dream's add; :func:`memrepo.engine.format.standing.harmful`)."""
    return [rule for rule in rule_statements(_messages(task)) if not harmful(rule)]


def _key(text: str) -> str:
    return equal_key(text) + "\0" + " ".join(numbers(text))


def _home(din: DreamInput, task: Task) -> tuple[str, str]:
    """The file a task's statements go to, and a few words saying why."""
    if not task.workspace:
        return ME_MD, "a session with no working folder"
    found = din.workspaces.get(normalize_workspace(task.workspace)[0])
    if found:
        return found, f"a session in {task.workspace}"
    return ME_MD, f"a session in {task.workspace}, whose workspace has no file yet"


def remembered_adds(din: DreamInput) -> list[dict[str, object]]:
    """An ``add`` for each statement a task's user asked to remember that the folder does not hold yet.

    Args:
        din: the dream's input (its tasks and every line it read, inbox included).

    Returns:
        list[dict]: ``add`` operations in the answer schema (docs/architecture.md §6),
        oldest task first, each with its evidence task, the user's words as
        its quote, and a reason.
    """
    held = {_key(ref.text) for ref in din.lines.values()}
    out: list[dict[str, object]] = []
    tasks = list(din.tasks.items())
    for n, (alias, task) in enumerate(reversed(tasks)):  # the input lists the newest first
        din.progress("what the tasks' users asked to remember, task", n, len(tasks))
        home, said_in = _home(din, task)
        mine = {fmt.normalize_text(rule) for rule in rules(task)}
        for fact in statements(task):
            path, where = (ME_MD, f"{said_in}; it is about the user") if about_user(fact) else (home, said_in)
            if fmt.normalize_text(fact) in mine and not project_rule(fact, task.workspace):
                path, where = LESSONS_MD, f"{said_in}; a rule of theirs for every project"  # corr11
            if len(fact) < 3 or len(fact) > MAX_TEXT:
                continue
            key = _key(fact)
            if key in held:
                continue  # the checkpoint (or the user) has it already
            held.add(key)
            out.append(
                {
                    "op": "add",
                    "path": path,
                    "text": fact[0].upper() + fact[1:],
                    "evidence": [alias],
                    "quote": fact,
                    "reason": f"the user asked to remember it in {where}; no checkpoint kept it",
                }
            )
    return out


def said_by_user(text: str, tasks: list[Task]) -> bool:
    """``text`` is a statement the user asked to remember in one of ``tasks`` (the checkpoint's trust rule).

    The tasks' user messages are the user's own: read from the transcript
    the harness wrote, without tool output, injected or sub-agent lines
    (:mod:`memrepo.engine.agents.transcripts`).

    Returns:
        bool: True when ``text`` equals (after :func:`memrepo.engine.format.entries.normalize_text`) one of
        :func:`memrepo.engine.format.remembering.user_statements` of their messages.
    """
    want = fmt.normalize_text(text)
    return any(fmt.normalize_text(fact) == want for task in tasks for fact in statements(task))


def said_as_rule(text: str, tasks: list[Task]) -> bool:
    """``text`` is a standing rule of the user's in one of ``tasks`` (:func:`rules`): written ``kind: rule``."""
    want = fmt.normalize_text(text)
    return any(fmt.normalize_text(rule) == want for task in tasks for rule in rules(task))


TOMBSTONES = "checkpoint-tombstones.json"
"""Forgotten session ids (``.git/memrepo``, written by the checkpoint buffers)."""
SCOPE_TOMBSTONES = "checkpoint-scope-tombstones.json"
"""Purged workspaces and when (``.git/memrepo``, written by the checkpoint buffers)."""


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def forgotten(tasks: list[Task], state_dir: Path) -> list[Task]:
    """The tasks the user forgot: their session was forgotten, or their workspace purged after they started.

    Args:
        tasks: the tasks a dream read.
        state_dir: the repo's ``.git/memrepo`` folder.

    Returns:
        list[Task]: the ones a dream must not read.
    """
    sessions = set(_load(state_dir / TOMBSTONES))
    scopes = _load(state_dir / SCOPE_TOMBSTONES)
    out = []
    for task in tasks:
        session = task.id.split(":", 1)[-1]
        gone = session in sessions
        if not gone and task.workspace and scopes:
            stone = scopes.get(normalize_workspace(task.workspace)[0])
            at = stone.get("at") if isinstance(stone, dict) else None
            gone = isinstance(at, int | float) and at >= task.started.timestamp()
        if gone:
            out.append(task)
    return out


__all__ = ["forgotten", "remembered_adds", "rules", "said_as_rule", "said_by_user"]
