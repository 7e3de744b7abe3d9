"""Whether an agent's ``supersedes:`` names a rule of the user's: such a line waits in the inbox (breaker20 B20-13).

The user's own opposite of a stored rule waits in the inbox as a proposal (docs/agents.md); an agent's line that
turns a user's rule around ("Committing directly to main is fine for small fixes" with ``supersedes:`` naming
"Never commit directly to main") was committed at once and recalled right under the rule, unmarked. The
governed writer's routing (:meth:`~.remember.EntryWriter.route`) sends it to the inbox instead.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.errors import MemrepoError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.paths import parse_ref


def names_users_rule(root: Path, named: str, rel: str) -> bool:
    """Whether ``named`` (a ``supersedes:``) names a ``by: user`` entry of kind ``rule``.

    Args:
        root: the work tree.
        named: a ref (``repo:<path>#L<n>``: that line), else a subject or a piece of 8+ characters of the line.
        rel: the file the write goes to, searched for a subject or a piece.
    """
    named = named.strip()
    number = None
    if named.startswith("repo:"):
        try:
            rel, number = parse_ref(fmt.split_seen(named)[0])
        except MemrepoError:
            return False
    try:
        parsed = fmt.parse(read_work_file(root / rel), rel)
    except (OSError, MemrepoError, ValueError):
        return False
    piece = " ".join(named.casefold().split())
    for n, entry in parsed.entries():
        if entry.meta.get("by") != "user" or entry.meta.get("kind", "").casefold() != "rule":
            continue
        if number is not None:
            if n == number:
                return True
            continue
        text = " ".join(entry.text.casefold().split())
        if piece == entry.meta.get("subject", "").casefold() or (len(piece) >= 8 and piece in text):
            return True
    return False
