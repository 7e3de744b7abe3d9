"""When two entry lines say the same thing (docs/architecture.md §6, the merge rule).

Two lines are **equal** only when nothing but form tells them apart: case,
spacing, punctuation, an article (a, an, the), a British or American spelling
("colour"/"color"), or where a compound is split ("key bindings"/"keybindings").
Every other difference is a difference of meaning: a negation, a name, a
place, a date, a number, an antonym ("enabled"/"disabled") or any other
content word. Only equal lines may be merged automatically.

Lines that are alike but not equal get a relation, for review only:

* ``replacement``: the same sentence with a word or two swapped, a negation
  added or an antonym: one line replaces the other (the user's, then the
  newer, stays).
* ``extension``: one line says all the other says and more.
* ``restatement``: the same fact in other words ("Use pnpm, not npm or yarn,
  in every JavaScript repo" / "Prefers pnpm over npm for JavaScript
  projects"), found by the rare words they share.

This module only compares texts; :mod:`memrepo.engine.dreams.rules` proposes the
operations and :mod:`memrepo.engine.dreams.ops` refuses an automatic merge of
lines that are not equal, whoever proposed it.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from memrepo.engine.format.cleantext import clean_in


def _words(text: str) -> frozenset[str]:
    """A set of words written as one string, space-separated."""
    return frozenset(text.split())


def _words_in_order(text: str) -> list[str]:
    """Words written as one string, space-separated, in order."""
    return text.split()


def _pairs(text: str, mark: str) -> list[tuple[str, str]]:
    """Word pairs written as ``a/b`` (or ``a:b``), space-separated."""
    out = []
    for item in text.split():
        a, _, b = item.partition(mark)
        out.append((a, b))
    return out


ARTICLES = frozenset({"a", "an", "the"})
"""Words whose presence never changes what an entry says."""

NEGATIONS = _words(
    "not no never none nothing neither nor without cannot cant dont doesnt didnt isnt arent wasnt werent "
    "wont shouldnt mustnt avoid avoids avoided stop stopped instead "
)
"""Words that turn a statement around (grammatical negation and its common verbs)."""

ANTONYMS: tuple[tuple[str, str], ...] = tuple(
    _pairs(
        "enable/disable enabled/disabled on/off true/false yes/no allow/deny allowed/denied allow/block "
        "always/never before/after include/exclude included/excluded with/without tabs/spaces tab/space "
        "start/stop open/closed public/private sync/async min/max minimum/maximum up/down accept/reject "
        "accepted/rejected add/remove like/dislike likes/dislikes prefer/avoid prefers/avoids use/avoid "
        "uses/avoids light/dark more/less most/least first/last early/late earlier/later old/new older/newer "
        "required/optional mandatory/optional lower/upper lowercase/uppercase internal/external local/remote "
        "success/failure pass/fail passes/fails keep/drop merge/rebase squash/rebase ",
        "/",
    )
)
"""Word pairs of opposite meaning: a line with one and a line with the other contradict each other."""

_ANTONYM_OF: dict[str, frozenset[str]] = {}
for _a, _b in ANTONYMS:
    _ANTONYM_OF[_a] = _ANTONYM_OF.get(_a, frozenset()) | {_b}
    _ANTONYM_OF[_b] = _ANTONYM_OF.get(_b, frozenset()) | {_a}

STOPWORDS = _words(
    "a an the and or but of in on at to for by from as is are was were be been it its this that these "
    "those there their they them we our i my me you your he she his her has have had do does did so if "
    "then than also only just very all any each every some into onto over under about which who what when "
    "where while should must can will would could may might user users please with through via one go "
    "goes get gets happen happens stay stays based being "
)
"""Words that carry no fact of their own: left out when measuring how alike two lines are."""

SYNONYMS = dict(
    _pairs(
        "repository:repo repositories:repo repos:repo project:repo projects:repo codebase:repo prefers:use "
        "prefer:use preferred:use uses:use using:use used:use wants:use want:use wanted:use likes:use "
        "like:use favours:use favors:use js:javascript ts:typescript py:python k8s:kubernetes db:database "
        "postgresql:postgres pg:postgres pr:pull prs:pull tests:test testing:test suite:test commits:commit "
        "committing:commit deploys:deploy deploying:deploy deployment:deploy deployments:deploy always: "
        "every: ",
        ":",
    )
)
"""Words folded together when looking for restatements (never for equality)."""

_OUR_STEMS = tuple(
    _words_in_order(
        "colour favour behaviour honour humour labour neighbour flavour harbour rumour vapour armour savour endeavour odour parlour valour vigour tumour rigour"
    )
)
_LL_STEMS = tuple(
    _words_in_order("cancel travel label model signal level fuel counsel total channel tunnel marshal dial enrol")
)
_WORD_VARIANTS = dict(
    _pairs(
        "grey:gray catalogue:catalog catalogues:catalogs dialogue:dialog dialogues:dialogs analogue:analog "
        "programme:program programmes:programs licence:license licences:licenses defence:defense "
        "offence:offense centre:center centres:centers metre:meter metres:meters litre:liter litres:liters "
        "theatre:theater fibre:fiber judgement:judgment acknowledgement:acknowledgment cheque:check "
        "aluminium:aluminum mould:mold plough:plow tyre:tire tyres:tires artefact:artifact "
        "artefacts:artifacts whilst:while amongst:among learnt:learned spelt:spelled towards:toward okay:ok ",
        ":",
    )
)
_ISE_KEEP = _words(
    "advise exercise otherwise promise premise surprise expertise franchise revise devise compromise "
    "enterprise merchandise precise concise treatise paradise disguise improvise supervise televise "
    "excise incise despise chastise comprise surmise demise arise noise raise praise cruise clockwise "
    "likewise wise rise sunrise "
)
_ISE_RE = re.compile(r"^(\w{3,}?)is(e|es|ed|ing|ation|ations|er|ers)$")
_YSE_RE = re.compile(r"^(analy|paraly|cataly|dialy)s(e|es|ed|ing)$")

_NUMBER_RE = re.compile(r"\d+(?:[.,:/]\d+)*")
_TOKEN_RE = re.compile(r"[^\W_]+|[+#<>=/@$%&*~^|\\]")
CACHED_TEXTS = 1 << 17
"""Texts whose tokens and content stems are kept (a dream compares one line with many: each is read once);
:func:`clear_caches` empties them when a dream is done."""
"""Words, and the symbols that change a meaning ("C++", "C#", "<", "/"): every other mark is form."""


@lru_cache(maxsize=65536)
def spelling(word: str) -> str:
    """One casefolded word in a single spelling: British forms become American ones.

    Args:
        word: a casefolded word.

    Returns:
        str: the American spelling ("colour" → "color", "organise" → "organize",
        "cancelled" → "canceled"), or the word itself.
    """
    if word in _WORD_VARIANTS:
        return _WORD_VARIANTS[word]
    for stem in _OUR_STEMS:
        if word.startswith(stem):
            return stem[:-2] + "r" + word[len(stem) :]
    for stem in _LL_STEMS:
        if word.startswith(stem + "l") and word[len(stem) + 1 :] in ("ed", "ing", "er", "ers"):
            return stem + word[len(stem) + 1 :]
    base = word[:-1] if word.endswith("s") and word[:-1] in _ISE_KEEP else word
    if base not in _ISE_KEEP:
        match = _ISE_RE.match(word)
        if match and len(word) >= 6:
            return f"{match.group(1)}iz{match.group(2)}"
    match = _YSE_RE.match(word)
    if match:
        return f"{match.group(1)}z{match.group(2)}"
    return word


def tokens(text: str) -> list[str]:
    """The words and meaningful symbols of an entry, folded for comparison.

    Invisible characters go (as on every write, :func:`memrepo.engine.format.cleantext.clean_in`);
    NFKC and case folding apply; an apostrophe inside a word goes ("don't" → "dont");
    each word takes its American spelling (:func:`spelling`).

    Args:
        text: an entry's text.

    Returns:
        list[str]: the tokens in order.
    """
    return list(_tokens(text))


@lru_cache(maxsize=CACHED_TEXTS)
def _tokens(text: str) -> tuple[str, ...]:
    folded = unicodedata.normalize("NFKC", clean_in(text)).casefold()
    folded = re.sub(r"(?<=\w)['’](?=\w)", "", folded)
    return tuple(spelling(t) for t in _TOKEN_RE.findall(folded))


def numbers(text: str) -> list[str]:
    """The numbers an entry names, in order ("1.5" stays one number, never "15")."""
    return _NUMBER_RE.findall(unicodedata.normalize("NFKC", text))


@lru_cache(maxsize=CACHED_TEXTS)
def equal_key(text: str) -> str:
    """A key that two entries share exactly when they are equal (the merge rule).

    Articles are dropped as whole words, then the tokens are joined without
    spaces, so a split compound ("key bindings") matches its joined form.

    Args:
        text: an entry's text.

    Returns:
        str: the key (numbers are compared apart: :func:`equal`).
    """
    key = "".join(t for t in _tokens(text) if t not in ARTICLES)
    # A text of no word (emoji, signs only) is equal only to itself, spaces aside.
    return key or "\x01" + "".join(unicodedata.normalize("NFKC", clean_in(text)).split())


def equal(a: str, b: str) -> bool:
    """True when two entries differ in form only: they may be merged automatically.

    Args:
        a: one entry's text.
        b: the other's.

    Returns:
        bool: the same key (:func:`equal_key`), the same numbers in the same order.
    """
    return equal_key(a) == equal_key(b) and numbers(a) == numbers(b)


def _stem(word: str) -> str:
    """A crude stem for likeness only (never for equality): plural and verb endings off."""
    word = SYNONYMS.get(word, word)
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and (
        word.endswith("ed") or (word.endswith("es") and (word[-3] in "sxz" or word[-4:-2] in ("ch", "sh")))
    ):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return SYNONYMS.get(word, word)


AUXILIARIES = frozenset(
    {
        "do",
        "does",
        "did",
        "is",
        "are",
        "was",
        "were",
        "be",
        "should",
        "must",
        "can",
        "will",
        "would",
        "could",
        "may",
        "might",
        "have",
        "has",
        "had",
        "to",
        "and",
        "or",
        "but",
        "why",
        "if",
        "it",
        "this",
        "that",
    }
)
"""Words after which "not" negates the verb; after any other word it sets one thing against another."""


def sense_tokens(text: str) -> list[str]:
    """:func:`tokens`, with contrast read as contrast, for likeness only.

    "pnpm, not npm", "pnpm rather than npm", "pnpm instead of npm" and "pnpm over npm"
    all say the same; only a "not" after a verb or auxiliary ("do not use") negates.
    """
    return list(_sense_tokens(text))


@lru_cache(maxsize=CACHED_TEXTS)
def _sense_tokens(text: str) -> tuple[str, ...]:
    raw = _tokens(text)
    out: list[str] = []
    i = 0
    while i < len(raw):
        word = raw[i]
        pair = " ".join(raw[i : i + 2])
        if pair in ("rather than", "instead of"):
            out.append("over")
            i += 2
            continue
        if word == "not" and out and out[-1] not in AUXILIARIES and out[-1] not in NEGATIONS:
            out.append("over")
        else:
            out.append(word)
        i += 1
    return tuple(out)


def content(text: str) -> list[str]:
    """The content stems of an entry: no stopwords, negations or numbers; synonyms folded (for likeness)."""
    return list(_content(text))


@lru_cache(maxsize=CACHED_TEXTS)
def _content(text: str) -> tuple[str, ...]:
    out = []
    for t in _sense_tokens(text):
        if t in STOPWORDS or t in NEGATIONS or not t[0].isalpha():
            continue
        stem = _stem(t)
        if stem:
            out.append(stem)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Relation:
    """How two alike lines relate.

    Attributes:
        kind: ``equal``, ``replacement``, ``extension``, ``restatement`` or ``different``.
        why: a few words for the reason ("they differ by a negation", "enabled / disabled").
        score: how alike they are, 0 to 1 (weighted by how rare the shared words are).
    """

    kind: str
    why: str
    score: float


SWAP_SAME = 0.6
"""Share of the longer line's words that must line up, in order, for two lines to be one sentence edited in one place."""
SWAP_MAX = 3
"""At most this many words may differ on either side of one sentence edited (a swap, an insertion)."""
RESTATEMENT_OVERLAP = 0.65
"""Share of the shorter line's weighted content words the two must share to be a restatement."""
RESTATEMENT_MIN_SHARED = 2
"""Content words two lines must share to be a restatement (one shared word is a topic, not a fact)."""
RARE_SHARE = 0.35
"""At most this share of the lines may hold a word for it to count as rare (a restatement needs one)."""


class Likeness:
    """Compares lines by content words weighted by rarity among the lines given.

    Args:
        texts: every line text the comparisons are among (the document
            frequencies come from them).
    """

    def __init__(self, texts: Iterable[str]) -> None:
        self.df: dict[str, int] = {}
        self.n = 0
        for text in texts:
            self.n += 1
            for stem in set(content(text)):
                self.df[stem] = self.df.get(stem, 0) + 1

    def weight(self, stem: str) -> float:
        """Inverse document frequency of a stem (a word no line holds weighs most)."""
        return math.log((self.n + 1) / (self.df.get(stem, 0) + 0.5))

    def rare(self, stem: str) -> bool:
        """True when at most :data:`RARE_SHARE` of the lines hold the stem (and at most 3 lines for small sets)."""
        return self.df.get(stem, 0) <= max(3, RARE_SHARE * self.n)

    def relate(self, a: str, b: str) -> Relation:
        """How ``a`` and ``b`` relate (:class:`Relation`); ``different`` when they are not alike.

        Args:
            a: one line's text.
            b: the other's.

        Returns:
            Relation: equal when they differ in form only (:func:`equal`).
        """
        if equal(a, b):
            return Relation("equal", "they differ in form only", 1.0)
        ca, cb = set(content(a)), set(content(b))
        sa = [t for t in sense_tokens(a) if t not in ARTICLES]
        sb = [t for t in sense_tokens(b) if t not in ARTICLES]
        num_a, num_b = numbers(a), numbers(b)
        if not ca or not cb:
            return Relation("different", "", 0.0)
        shared = ca & cb
        wa = {s: self.weight(s) for s in ca}
        wb = {s: self.weight(s) for s in cb}
        inter = sum(min(wa[s], wb[s]) for s in shared)
        overlap = inter / min(sum(wa.values()), sum(wb.values()))
        only_a, only_b, same, spans = _changed(sa, sb)
        negation = (set(only_a) & NEGATIONS) != (set(only_b) & NEGATIONS)
        flips = sorted(f"{x} / {y}" for x in only_a for y in only_b if y in _ANTONYM_OF.get(x, ()))
        swap = spans == 1 and same >= SWAP_SAME * max(len(sa), len(sb)) and max(len(only_a), len(only_b)) <= SWAP_MAX
        if swap:
            likeness = same / max(len(sa), len(sb))
            if flips:
                return Relation("replacement", f"they say opposite things ({flips[0]})", likeness)
            if negation:
                return Relation("replacement", "they differ by a negation", likeness)
            if only_a and only_b:
                what = f"{' '.join(only_a)} / {' '.join(only_b)}"
                return Relation("replacement", f"one word or sign replaces another ({what})", likeness)
            if not any(t[0].isalnum() for t in only_a + only_b):
                return Relation("replacement", f"a sign changes the meaning ({' '.join(only_a + only_b)})", likeness)
            return Relation("extension", "one says what the other says, and more", likeness)
        rare_shared = [s for s in shared if self.rare(s)]
        if len(shared) >= RESTATEMENT_MIN_SHARED and rare_shared and overlap >= RESTATEMENT_OVERLAP and num_a == num_b:
            words = ", ".join(sorted(shared)[:3])
            if flips:
                return Relation("replacement", f"they say opposite things ({flips[0]})", overlap)
            if negation:
                return Relation("restatement", f"alike ({words}), but one has a negation: read both", overlap)
            return Relation("restatement", f"the same fact in other words ({words})", overlap)
        return Relation("different", "", overlap)


_STATED_RE = re.compile(
    r"((?:[^\W\d_][\w-]*\s+){0,2})(?:is|are|was|were)\s+(?:(?:not|now|still|also|always|a|an|the|very)\s+)*([^\W\d_][\w-]*)"
)


def adds_fact(a: str, b: str) -> str:
    """A word one line states that the other lacks, or "": then the two are no restatement (breaker8 B8-14).

    A line states a fact as "<subject> is <value>" ("partner Sam is vegetarian", "my GitHub handle is
    mira-okafor"): the two words before "is" or "are" and the word after. When either line's subject or value
    is no content word (:func:`content`) of the other, it says another thing of the same words: "The user's
    partner Sam is vegetarian" adds a fact to "My partner is called Sam"; "my GitHub handle is mira-okafor" is not
    "My name is Mira Okafor". A passive verb after "is" ("are stored", "is called", "is based") names no value:
    other words say the same ("keeps", "named"). docs/dreams.md: restatements are "the same fact".

    Returns:
        str: the first such word (a stem), or "" when neither line states one the other lacks.
    """
    ca, cb = set(content(a)), set(content(b))
    added = sorted((_stated(a) - cb) | (_stated(b) - ca))
    return added[0] if added else ""


def _stated(text: str) -> frozenset[str]:
    """The content stems of the subjects and values ``text`` states with "is" or "are" (:func:`adds_fact`)."""
    out: set[str] = set()
    for subject, value in _STATED_RE.findall(unicodedata.normalize("NFKC", text).casefold()):
        out.update(content(subject))
        if not value.endswith("ed"):
            out.update(content(value))
    return frozenset(out)


def _changed(a: list[str], b: list[str]) -> tuple[list[str], list[str], int, int]:
    """The tokens only ``a`` has, those only ``b`` has (in order, by alignment), how many align, and in how many spans
    the two differ (one span: one sentence with one place edited)."""
    import difflib

    only_a: list[str] = []
    only_b: list[str] = []
    same = spans = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            same += i2 - i1
        else:
            spans += 1
            only_a += a[i1:i2]
            only_b += b[j1:j2]
    return only_a, only_b, same, spans


def clear_caches() -> None:
    """Forget the cached tokens, stems and keys (:data:`CACHED_TEXTS`): a long-running app keeps none of a dream's."""
    for cached in (_tokens, _sense_tokens, _content, equal_key):
        cached.cache_clear()


def _first(values: list[str]) -> str:
    return values[0] if values else "none"


__all__ = ["Likeness", "Relation", "clear_caches", "content", "equal", "equal_key", "numbers", "spelling", "tokens"]
