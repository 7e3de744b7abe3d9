"""Two ways a newer line says it changed an older one without sharing most of its words (docs/architecture.md §4).

The context block's replacement rule (:func:`.contextselect.replaced`) wants two shared topic words, most of the
older line's. A change often keeps the sentence and swaps its value, which is all the older line says besides one
word: "Deploys of infra go through Heroku" -> "Deploys of infra now go through Fly.io" (one topic word, "deploy",
beside the value), "Standup is at 9:30" -> "Standup is now at 10:00", "部署使用 Jenkins 流水线" -> "部署现在改用
GitHub Actions 流水线". And a move names no word of the place it left: "I live in Lyon" -> "I moved to Montreal".

- :func:`swapped_frame`: the newer line, less its change words, is the older one with one short stretch (the value)
  swapped: the words before and after it are the same, hold a topic word, and are at least half the older line.
- :func:`moved_home`: both lines say where the user lives (at the line's start, the user's own: "Lives in",
  "I live in", "Based in", "I moved to"), and the newer one says it changed, to a home: after "live in" or "based
  in" any name, after "moved to" or "relocated to" a place on GeoNames' list (:func:`is_place`: "I moved to Stripe"
  is a job, breaker22 B22-6).

Both are asked only of a newer line holding a change word (:data:`.changewords.CHANGE_WORDS`). A third,
:func:`reversed_value`, is asked of every newer line: it turns the older one's value around and says so ("Use npm
instead of pnpm" after "Use pnpm"; "Deploy from the release branch again; main is frozen until January" after
"Deploy from main"), whatever clause it adds after ";" or "," (breaker23 B23-8, B23-12).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from memrepo.engine.format.terms import _unicode_res, fold, is_cjk, split_folded

from .changewords import CHANGE_WORDS, STOP_WORDS

SLOT_MAX = 4
"""The most words (or CJK characters) of the older line the swapped stretch may hold: a value, not a sentence."""

_CJK_CHANGE = sorted((w for w in CHANGE_WORDS if not w.isascii()), key=len, reverse=True)

RESIDENCE_RE = re.compile(
    r"^(?:(?:i|we|the user|user)(?:['’](?:ve|m))?\s+)?(?:(?:just|recently|now|have|has|am|is|are)\s+)*"
    r"(?:lives?|living|based|resides?|residing|moved|relocated)\s+(?:now\s+)?(?:in|to)\b"
)
"""A line about where the user lives, said of the user (the line starts with it, or with "I", "we", "the user"; "I've
moved to Paris": breaker15 B15-30)."""


CHANGE_PHRASE_RE = re.compile(r"\b(?:from now on|going forward|from (?:today|here) on|as of (?:now|today))\b")
"""Phrases that say from when a line holds, wherever they stand ("Use tabs from now on", "From now on I use tabs"):
read past, as a change word is, when a newer line is set against an older one (breaker14 B14-6)."""

LEAD_ADVERBS = frozenset({"always", "please", "generally", "usually"})
"""A rule's leading adverb ("Always use spaces ..."): it says how firmly, not what; read past at a line's head when
two lines are set side by side (:func:`swapped_frame`)."""


@lru_cache(maxsize=4096)
def frame_tokens(text: str, drop_change: bool) -> tuple[str, ...]:
    """The words of ``text`` (folded; each CJK character a token of its own), without its change words with
    ``drop_change``."""
    folded = fold(text)
    if drop_change:
        folded = CHANGE_PHRASE_RE.sub(" ", folded)  # "from now on" says when, as "now" does: no word of the sentence
    if folded.isascii():
        return tuple(w for w in split_folded(folded) if not (drop_change and w in CHANGE_WORDS))
    if drop_change:
        for word in _CJK_CHANGE:
            folded = folded.replace(word, " ")
    token_re, _cjk = _unicode_res()  # compiled once, as for any non-ASCII text's terms
    out: list[str] = []
    for tok in token_re.findall(folded):  # runs of CJK characters, or of other letters and digits
        if is_cjk(tok):
            out.extend(tok)
        elif not (drop_change and tok in CHANGE_WORDS):
            out.append(tok)
    return tuple(out)


def swapped_frame(old_text: str, new_text: str) -> tuple[str, ...] | None:
    """The words ``new_text`` (a line holding a change word) keeps of ``old_text`` around one swapped stretch, or None
    (module docstring).

    Args:
        old_text: the older line.
        new_text: the newer line.

    Returns:
        tuple[str, ...] | None: the older line's words before and after the stretch (the frame), when they are the
        same in the newer line, at least half the older line's words, and the older line's stretch is 1 to
        :data:`SLOT_MAX` words and the newer one's not empty; else None. The caller asks whether the frame holds
        a topic word (:func:`cjk_count` for CJK characters).
    """
    old, new = unled(frame_tokens(old_text, False)), unled(frame_tokens(new_text, True))
    if not old or not new or old == new:
        return None
    head, tail = common_ends(old, new)
    slot_old = len(old) - head - tail
    if not (1 <= slot_old <= SLOT_MAX) or len(new) - head - tail < 1 or 2 * (head + tail) < len(old):
        return None
    if head == 0 or ADDED_RE.search(fold(new_text)):
        return None  # the subject swapped ("Staging uses Redis" / "Prod no longer uses Redis"), or a value added
    return old[:head] + old[len(old) - tail :]


def unled(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """The tokens without a leading adverb (:data:`LEAD_ADVERBS`)."""
    return tokens[1:] if tokens[:1] and tokens[0] in LEAD_ADVERBS else tokens


def common_ends(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[int, int]:
    """How many words two token lists share at their head, then at their tail (never overlapping the head)."""
    most = min(len(old), len(new))
    head = 0
    while head < most and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < most - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


def one_frame(texts: list[str]) -> bool:
    """Whether every later line of ``texts`` (oldest first) is the first with one value swapped
    (:func:`swapped_frame`): a fact changed again and again ("Deploy window is Tuesday", "... Thursday", "... now
    Monday"). Its words are then the fact's own, however many lines hold them (breaker11 B11-11)."""
    return len(texts) > 1 and all(swapped_frame(texts[0], text) is not None for text in texts[1:])


ADDED_RE = re.compile(r"\b(?:as well|also|too|in addition|additionally|both)\b|也|还|も")
"""Words that add a value beside the older one ("I now speak Spanish as well": breaker13 B13-27), not replace it."""


def cjk_count(tokens: tuple[str, ...]) -> int:
    """How many of ``tokens`` are CJK characters."""
    return sum(1 for t in tokens if is_cjk(t))


PLACE_RE = re.compile(
    r"\b(?i:lives?|living|based|resides?|residing|moved|relocated)\s+(?i:now\s+)?(?i:in|to)\s+(?!The\b)[A-Z][\w.'’-]+"
)
"""A place named after the verb: a capitalised name ("moved to Montreal"), not "moved to the platform team"."""
_YEAR_RE = re.compile(r"\b(?:19|20)\d\d\b")
_PARTICLES = r"de|do|da|dos|das|del|la|le|am|sur|upon"
"""Small words inside a place's name ("Rio de Janeiro", "Frankfurt am Main", "Stratford upon Avon")."""
_HOME_TAIL_RE = re.compile(
    rf"(?:\s+(?:[A-Z][\w.'’-]*|(?:{_PARTICLES})(?=\s+[A-Z]))){{0,3}}(?:,\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)?"
    r"(?:\s+(?i:with|last|this|recently|now|earlier|permanently|for good|a (?:few|couple)|in (?:the )?(?:spring|summer"
    r"|autumn|fall|winter|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*)\b[^\d]*)?[\s.!]*$"
)
"""What may follow the place of a move of home: the rest of its name, a region ("Paris, France"), with whom or when
("with my partner", "last month"). Anything else is a scope, a stay or a tool ("... for the summer", "... for tickets",
"... temporarily", "... from Apple Music", "Python 3.13"): unsure, the older line stays (breaker19 B19-3)."""


HOME_VERB_RE = re.compile(r"\b(?:lives?|living|based|resides?|residing)\s+(?:now\s+)?in\b")
"""A verb that says where someone lives ("I now live in Annecy", "I'm now based in Cork"): what follows is a home,
whatever its name. "Moved to" and "relocated to" are said of jobs, teams and tools too ("I moved to Stripe"): what
follows them must read as a place (:func:`is_place`)."""

_RUN_RE = re.compile(rf"[A-Z][\w.'’-]*(?:\s+(?:[A-Z][\w.'’-]*|(?:{_PARTICLES})(?=\s+[A-Z])))*")
_REGION_RE = re.compile(r"^[^,]*,\s*([A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)?)")


@lru_cache(maxsize=1)
def _places() -> str:
    """``places.txt`` (GeoNames' cities of 15,000 people or more, countries, US states, continents, folded, one a
    line; generated by ``tools/gen_places.py``), read once: a name is looked up as ``"\\n<name>\\n"`` in it (a
    set of its 39,000 lines would cost a new process 30-80 ms; a look-up is rare and takes well under 1 ms)."""
    return (Path(__file__).with_name("places.txt")).read_text("utf-8")


def is_place(after: str) -> bool:
    """Whether the words after "moved to" name a place (:func:`_places`): the run of capitalised words there, whole
    ("Nice", "São Paulo", "New York"; "Spring Boot", "Platform Engineering" are none), or the region after its comma
    ("Boulder Creek, California"). A known place only: "I moved to Google / Stripe / Payments / Windsurf" name none
    (breaker22 B22-6)."""
    run = _RUN_RE.match(after)
    if run is None:
        return False
    places = _places()
    if f"\n{fold(run[0])}\n" in places:
        return True
    region = _REGION_RE.match(after)
    return region is not None and f"\n{fold(region[1])}\n" in places


def moved_home(old_text: str, new_text: str) -> bool:
    """Whether both lines say where the user lives (:data:`RESIDENCE_RE`): the newer one, holding a change word,
    replaces the older ("I live in Lyon" -> "I moved to Montreal").

    The newer line must be the user's own ("I", not "we": "We moved to Linear"), name a place (:data:`PLACE_RE`)
    and give no year ("I moved to Berlin in 2015 for my first job" is a story, not where the user lives now):
    breaker13 B13-1, B13-18."""
    folded = fold(new_text)
    place = PLACE_RE.search(new_text)
    if re.match(r"we\b", folded) or not place or _YEAR_RE.search(new_text):
        return False
    if not _HOME_TAIL_RE.match(new_text[place.end() :]) or re.search(r"[a-z][A-Z]", place[0].split()[-1]):
        return False  # "I've moved to Linear for tickets", "... to Python 3.13", "... to GitHub" (breaker19 B19-3)
    name_at = place.end() - len(place[0].split()[-1])
    if not HOME_VERB_RE.search(place[0].casefold()) and not is_place(new_text[name_at:]):
        return False  # "I've moved to Google / Neovim / Team Platform": a job, a tool or a team (B19-3, B22-6)
    return bool(RESIDENCE_RE.match(fold(old_text))) and bool(RESIDENCE_RE.match(folded))


_WEEK_TIME_RE = re.compile(
    r"\b(?:on|at|during|over|for|in)\s+(?:the\s+)?(week(?:end|day)?s?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
    r"|mornings?|afternoons?|evenings?|nights?)\b"
)
"""A time of the week or day a statement holds for ("on weekends", "during the week", "on Mondays", "in the
mornings")."""


def _week_times(folded: str) -> tuple[frozenset[str], str]:
    """The times of :data:`_WEEK_TIME_RE` in a folded line (singular), and the line without them."""
    times = frozenset(m.group(1).removesuffix("s") for m in _WEEK_TIME_RE.finditer(folded))
    return times, _WEEK_TIME_RE.sub(" ", folded)


def times_differ(old_text: str, new_text: str) -> bool:
    """Whether the newer line holds for another time of the week than the older one and changes something else too:
    two facts at two times ("I live in Lyon during the week" / "I now live in Annecy on weekends", "I work from home
    on Fridays" / "I now work from the office on Mondays": breaker19 B19-15), not one moved ("We deploy on
    Thursdays" -> "We now deploy on Fridays": the time is the value, nothing else differs)."""
    new_times, new_rest = _week_times(fold(new_text))
    if not new_times:
        return False
    old_times, old_rest = _week_times(fold(old_text))
    if new_times == old_times:
        return False
    change = CHANGE_WORDS | {"now"}
    old_words = {w for w in split_folded(old_rest) if w not in change}
    return old_words != {w for w in split_folded(new_rest) if w not in change}


_MARKER_RE = re.compile(r"^(?:instead of|rather than|not)\s+(?:the\s+|a\s+|an\s+)?")
_INSTEAD_RE = re.compile(r"(?<!\s)\s+(?:instead of|rather than)\s+(?:the\s+|a\s+|an\s+)?(\S+)")
_AGAIN_RE = re.compile(r"(?<!\s)\s+(?:again|back)\b")  # from a run's start: docs/architecture.md §3
_WAS_CLAUSE_RE = re.compile(r"^(?:the\s+)?(\S+(?:\s+\S+)?)\s+(?:was|were)\b")


def _clauses(folded: str) -> list[str]:
    """A folded line's clauses, cut at ";" and ","."""
    return [c.strip() for c in re.split(r"[;,]", folded) if c.strip()]


@lru_cache(maxsize=8192)
def _reversal(text: str) -> tuple[str, tuple[str, ...], bool, tuple[str, ...]]:
    """A line's main clause less its reversal words, the values it says it turns away from ("instead of X", "rather
    than X", ", not X", leading "Instead of X,"), whether it says "again" / "back", and its later clauses (cached:
    :func:`reversed_value` asks it of each line of a file once per other line)."""
    parts = _clauses(CHANGE_PHRASE_RE.sub(" ", fold(text)))
    if not parts:
        return "", (), False, ()
    was: list[str] = []
    if _MARKER_RE.match(parts[0]) and not parts[0].startswith("not") and len(parts) > 1:  # "Instead of X, use Y"
        was.append(_MARKER_RE.sub("", parts[0]))
        parts = parts[1:]
    main, rest = parts[0], parts[1:]
    while rest and _MARKER_RE.match(rest[0]):  # "Deploy from the release branch, not main"
        was.append(_MARKER_RE.sub("", rest.pop(0)))
    found = _INSTEAD_RE.search(main)
    if found:  # "Use npm instead of pnpm": the value it names, the rest of the clause kept
        was.append(found[1])
        main = main[: found.start()] + main[found.end() :]
    again = _AGAIN_RE.search(main) is not None
    main = _AGAIN_RE.sub("", main)
    return main, tuple(was), again, tuple(rest)


@lru_cache(maxsize=8192)
def _main_frame(main: str) -> tuple[str, ...]:
    """The frame tokens of a main clause (:func:`_reversal`), without a leading adverb."""
    return unled(frame_tokens(main, True))


def _value(text: str) -> list[str]:
    """The words of a value a line turns away from, less function words ("on Mondays": mondays)."""
    return [w for w in split_folded(text) if w not in STOP_WORDS or w.isdigit()]


def reversed_value(old_text: str, new_text: str) -> tuple[tuple[str, ...], bool] | None:
    """The frame of an older line a newer one turns around and whether it names the older value, or None: the newer line's main clause (before its first
    ";" or ",": an added clause, "...; main is frozen until January", does not stop the match) is the older line's
    main clause with its value swapped, and it names the turn: the older value after "instead of", "rather than" or
    ", not" ("Use npm instead of pnpm" after "Use pnpm"), "again" or "back" ("Deploy from the release branch again"
    after "Deploy from main"), or a later clause saying the older value "was" ("Indent with 4 spaces; 2 was too
    cramped"). The same head word (the same owner and verb: "Bob reviews ... again" is not "Alice reviews ...")
    and a frame of at least half the older clause, as :func:`swapped_frame` asks. The caller asks the frame for a
    topic word when only "again" names the turn (breaker23 B23-8, B23-12)."""
    new_main, was, again, rest = _reversal(new_text)
    if not again and not was and not any(_WAS_CLAUSE_RE.match(c) for c in rest):
        return None  # it names no turn: no older value, no "again" (most pairs of a file; asked first, it is cheap)
    old_main, old_was, _old_again, _rest = _reversal(old_text)
    old, new = _main_frame(old_main), _main_frame(new_main)
    if not old or not new or old == new:
        return None
    head, tail = common_ends(old, new)
    slot_old, slot_new = old[head : len(old) - tail], new[head : len(new) - tail]
    if head == 0 or not 1 <= len(slot_old) <= SLOT_MAX or not 1 <= len(slot_new) <= SLOT_MAX:
        return None
    if 2 * (head + tail) < len(old) or ADDED_RE.search(new_main):  # "2 was too cramped" adds nothing
        return None
    named = [_value(v) for v in was]
    named += [_value(m[1]) for c in rest if (m := _WAS_CLAUSE_RE.match(c))]
    in_slot = any(v and set(v) <= set(slot_old) and set(v).isdisjoint(slot_new) for v in named)
    if any(v and set(v) & set(_value(" ".join(old_was))) for v in named):
        return None  # the older line turned away from the same value itself: two areas' preferences
    if not in_slot and not again:
        return None
    return old[:head] + old[len(old) - tail :], in_slot
