"""The words the context block's replacement rule reads: change words and function words (docs/architecture.md §4).

Data only, kept apart from :mod:`memrepo.engine.read.contextselect` (which imports both) so the rule's module stays small.
"""

from __future__ import annotations

import re

CHANGE_WORDS = frozenset(
    {
        # English: a newer line that says something changed
        "now",
        "moved",
        "switched",
        "migrated",
        "upgraded",
        "downgraded",
        "bumped",
        "replaced",
        "replaces",
        "replacing",
        "relocated",
        "retired",
        "renamed",
        "changed",
        "longer",  # "no longer"
        "stopped",
        "anymore",
        "took",  # "took over"
        "since",
        "became",
        "deprecated",
        # Chinese and Japanese (CJK bigrams, as :func:`memrepo.engine.terms.terms` cuts them)
        "现在",
        "改用",
        "改为",
        "迁移",
        "不再",
        "换成",
        "現在",
        "変更",
        "移行",
        "切替",
        "替え",
        # Chinese, more (breaker8 B8-12 checked the three scripts): "changed to", "moved to", "replaced",
        # "upgraded" (simplified and traditional); not 目前 ("at present"): a first statement says it as often as
        # English "currently", which is none either
        "改成",
        "搬到",
        "替换",
        "升级",
        "改為",
        "遷移",
        "換成",
        "替換",
        "升級",
        # Japanese, more: 今は "now", 変わった "changed", 引っ越した "moved (house)", 乗り換えた "switched", やめた
        # "stopped"
        "今は",
        "変わ",
        "っ越",
        "換え",
        "やめ",
        # Korean (breaker8 B8-12: "kimchi-bot 배포는 이제 ..." was never seen as a correction): 이제 "now", 지금 "now"
        # (지금은), 바뀌/바꿨 "changed/changed it", 변경 "change", 옮겼/옮김 "moved", 교체 "replaced", 전환
        # "switched", 업그 (업그레이드 "upgrade"); not 바꾸 ("바꾸지 말 것" is a rule) nor 그만 (그만큼 "that
        # much"); "더 이상 ... 않" ("no longer") is the pair in :data:`CHANGE_PAIRS`, since 이상 alone means "more
        # than" or "abnormal"
        "이제",
        "지금",
        "바뀌",
        "바꿨",
        "변경",
        "옮겼",
        "옮김",
        "교체",
        "전환",
        "업그",
    }
)
"""Words by which a newer line says it replaces what was true before (folded, as :func:`terms` gives them).
"instead" is none: "rebase instead of merge", "pnpm instead of npm" state a preference as often as a change;
with a change word, "instead of X" still names X as the older value (:data:`WAS_MARKERS`)."""

CHANGE_PAIRS = frozenset({("더", "이상"), ("going", "forward")})
"""Two neighbouring words that say a change together where neither does alone: Korean 더 이상 ("no longer",
"any more"; 이상 alone is "more than" or "abnormal"); "going forward" (breaker14 B14-6)."""

STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "not",
        "no",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "we",
        "our",
        "you",
        "your",
        "i",
        "my",
        "me",
        "he",
        "she",
        "they",
        "them",
        "their",
        "as",
        "into",
        "than",
        "then",
        "so",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "will",
        "would",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
        "all",
        "any",
        "every",
        "each",
        "us",
        "also",
        "only",
        "just",
        "there",
        "here",
        "what",
        "which",
        "who",
        "when",
        "where",
        "how",
        "up",
        "out",
        "about",
        "over",
        "under",
        "after",
        "before",
        "again",
        "very",
        "more",
        "most",
        "some",
        "such",
        "own",
        "same",
        "too",
        "via",
        "through",
        "go",
        "goes",
        "per",
        "if",
        "but",
        "one",
        "new",
        "use",
        "uses",
        "used",
        "using",
    ]
)
"""Function words, never topic words."""

# What an agent most needs of a file about the user when it cannot show all of it (docs/architecture.md §4,
# "What the block picks"): who the user is, and what keeps them safe, before rules and preferences, before trivia.
# Small, closed word classes matched on the folded text (stems, so "allergic" and "allergy" meet); not a classifier.

IDENTITY_RE = re.compile(
    r"\bmy name\b|^name is\b|\b(?:my|user'?s|his|her|their)\b[^.;,:]{0,30}?\b(?:name is|named)\b|\bi'?m named\b"
    r"|\bi am named\b|\bgo(?:es)? by\b|\bcall me\b|\bpronouns?\b|\b(?:she/her|he/him|they/them)\b"
    r"|\btime ?zone\b|\bi live\b|^(?:the user |user )?lives? in\b|\b(?:my|user'?s|his|her|their) [\w' -]{1,30}?\blives? in\b"
    r"|\bbased in\b|\b(?:i|we) (?:just )?(?:moved|relocated) to\b"
    r"|我叫|名字|名前|이름|住在|住んで|살고|时区|時區|タイムゾーン|시간대"
)
"""Identity: the user's name and pronouns, where they live and their timezone (and the names of their family).
A name or a home counts only of a person ("my", "her", the line's start): "The S3 bucket name is ...", "... is
named Checkout Golden Signals", "The config lives in services/api" are no identity (breaker13 B13-24)."""

SAFETY_RE = re.compile(
    r"allerg|anaphyla|epipen|intoleran|c(?:o)?eliac|gluten|lactose|vegetarian|vegan|halal|kosher|\bdiet"
    r"|diabet|asthma|epilep|\bmedic(?:al|ation|ine)|prescri|disabilit|wheelchair|pregnan|blood type|emergency contact"
    r"|过敏|アレルギー|알레르기|알러지|素食|菜食|채식|糖尿|당뇨"
)
"""Health and safety: allergies, diet, medical conditions and medicines, accessibility, emergency contacts."""

PREFERENCE_RE = re.compile(
    r"\bprefers?\b|\balways\b|\bnever\b|\bdislikes?\b|\bdon't\b|\bdo not\b|\bavoid|\bplease\b|\bi (?:like|want|hate)\b"
    r"|喜欢|偏好|总是|不要|好き|嫌い|좋아|싫어|선호"
)
"""Preferences and standing instructions said in words (a ``kind:`` of rule, decision, correction or preference
says so too)."""

REDACTED_RE = re.compile(r"\[REDACTED:[a-z0-9-]+\]")
"""A redaction marker as the writer leaves it; a line that is more than half markers tells an agent nothing."""

SHORT_FORMS = {
    "documentation": "doc",
    "database": "db",
    "dbs": "db",
    "repository": "repo",
    "repositorie": "repo",
    "configuration": "config",
    "environment": "env",
    "production": "prod",
    "development": "dev",
    "dependency": "dep",
    "dependencie": "dep",
    "application": "app",
    "directory": "dir",
    "directorie": "dir",
    "authentication": "auth",
    "infrastructure": "infra",
    "kubernete": "k8s",
    "javascript": "js",
    "typescript": "ts",
    "prs": "pr",
    "mrs": "mr",
}
"""A word's stem (as :func:`.contextselect._stem` cuts it) -> the short form engineers write for it, so a line
restated with the other form shares the word ("PRs need two approvals" / "Two approvals are required on every pull
request"; "docs" / "documentation"). "pull request" and "merge request" are cut to "pr" and "mr" before the words are
split (:data:`SHORT_PHRASES_RE`)."""

SHORT_PHRASES_RE = re.compile(r"\b(?:(pull)|merge)[ -]requests?\b")
"""Two-word names with a short form: "pull request(s)" -> "pr", "merge request(s)" -> "mr"."""

_GO_RE = re.compile(r"\bgo(?=\s+v?\d+\.\d)")


def named_versions(folded: str) -> str:
    """A folded line with a name that is also a function word written as the name it is when a version follows it:
    "go 1.22" -> "golang 1.22" ("Language: Go 1.21" / "We upgraded to Go 1.22": "go" is a stop word, so the line named
    no value the older one holds)."""
    return _GO_RE.sub("golang", folded) if "go " in folded else folded
