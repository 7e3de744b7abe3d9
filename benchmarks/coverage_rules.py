"""Rules replayed on coverage_study's dump (rec10): leave-one-repo-out over the tuning splits."""

from __future__ import annotations

import re as _re
from collections.abc import Callable
from typing import Any

import bench_recall_quality as bench

REPO_OF = {"tune": "A", "t-tune": "A", "c-tune": "C", "d-heldout": "D", "e-heldout": "E", "g-tune": "G", "k-tune": "K"}


def gate_hit(row: dict[str, Any]) -> dict[str, Any] | None:
    """The lexical hit that makes the answer (the most confident of the best 5 that hold a term)."""
    best = None
    for h in row["hits"][:5]:
        if h["held"] and (best is None or h["conf"] > best["conf"]):
            best = h
    return best


def judged(row: dict[str, Any], veto: bool, system: str = "hybrid") -> dict[str, float]:
    q = row["q"]
    if system == "lexical":
        ids = [] if veto else row["lexids"]
        return bench.judge(q, ids)
    ids, answered = row["veto"] if (veto and row["lexgate"]) else row["today"]
    return bench.judge(q, ids if answered else [])


def right(row: dict[str, Any], veto: bool, system: str = "hybrid") -> float:
    got = judged(row, veto, system)
    return got["empty"] if row["q"].kind == "none" else got["hit5"]


def table(rows: list[dict[str, Any]], rule: Callable[[dict[str, Any]], bool] | None, system: str = "hybrid") -> None:
    for split in dict.fromkeys(r["split"] for r in rows):
        part = [r for r in rows if r["split"] == split]
        got = [(r, judged(r, bool(rule and r["lexgate"] and rule(r)), system)) for r in part]
        ans = [g for r, g in got if r["q"].kind != "none"]
        none = [g for r, g in got if r["q"].kind == "none"]
        para = [g for r, g in got if r["q"].kind == "paraphrase"]

        def m(vals: list[dict[str, float]], k: str) -> str:
            return f"{sum(v[k] for v in vals) / len(vals):.3f}" if vals else "-"

        print(
            f"| {split} | {system} | {m(ans, 'hit1')} / {m(ans, 'hit5')} / {m(ans, 'mrr')} | {m(para, 'hit5')} | "
            f"{m(none, 'empty')} |"
        )


def cases(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        if r["q"].kind != "none" or not r["lexgate"] or not r["today"][1]:
            continue
        h = gate_hit(r)
        c = r["counted"]
        mass = sum(c.values())
        unheld = {t: (round(c[t] / mass, 2), r["df"][t]) for t in c if h is None or t not in h["held"]}
        print(
            f"{REPO_OF[r['split']]} | {r['q'].text} | conf {h and h['conf']:.2f} cos {h and h['cos']} | "
            f"held {sorted(h['held']) if h else None} | unheld {unheld} | {h['text'][:70] if h else ''}"
        )


def loo(
    rows: list[dict[str, Any]],
    family: str,
    make: Callable[..., Callable[[dict[str, Any]], bool]],
    grid: list[tuple],
    system: str = "hybrid",
) -> None:
    repos = sorted(set(REPO_OF.values()))
    base = {rp: sum(right(r, False, system) for r in rows if REPO_OF[r["split"]] == rp) for rp in repos}
    scored = {}
    for params in grid:
        rule = make(*params)
        scored[params] = {
            rp: sum(right(r, bool(r["lexgate"] and rule(r)), system) for r in rows if REPO_OF[r["split"]] == rp)
            for rp in repos
        }
    gains, losing, picks = [], 0, []
    for held in repos:
        best = max(grid, key=lambda p: sum(scored[p][rp] - base[rp] for rp in repos if rp != held))
        picks.append(best)
        g = scored[best][held] - base[held]
        gains.append(g)
        losing += g < 0
    cells = " | ".join(f"{base[rp]:.0f} -> {scored[p][rp]:.0f}" for rp, p in zip(repos, picks, strict=True))
    print(f"| {family} ({system}) | {sorted(set(picks))} | {cells} | {sum(gains) / len(gains):+.2f} | {losing} |")


def report(rows: list[dict[str, Any]]) -> None:
    """The 47 cases, then every rule family leave-one-repo-out (module docstring of coverage_study)."""
    cases(rows)
    print("\n| family | picks | A | C | D | E | G | K | mean gain per held-out repo | folds losing |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    alphas = [(a,) for a in (1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0)]
    for system in ("hybrid", "lexical"):
        loo(rows, "absent words x alpha (veto the lexical answer)", absent_rule, alphas, system)
    grid = [(x, y) for x in (0.82, 0.84, 0.85, 0.86, 0.87, 0.88, 0.89, 0.9) for y in (1.25, 1.5, 2.0, 2.5, 3.0)]
    for system in ("hybrid", "lexical"):
        loo(rows, "the hit's own cosine agrees (veto)", agree_rule, grid, system)
    quiet = _quiet
    quiet(
        loo_empty,
        rows,
        "leave-absent-words-out cosine drop",
        delta_rule,
        [(a, d, k) for a in (0.2, 0.3, 0.4, 0.5) for d in (-0.02, -0.01, -0.005, 0.0, 0.005) for k in (1, 3)],
    )
    quiet(
        loo_empty,
        rows,
        "each absent word embedded alone: a top hit near it",
        word_rule,
        [
            (p, u, k)
            for p in (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3)
            for u in (0.15, 0.2, 0.3, 0.4, 0.5, 0.6)
            for k in (1, 3, 5)
        ],
    )
    quiet(
        loo_empty,
        rows,
        "answer type, study lists (q quantity, t time)",
        typed_rule,
        [(k, kinds) for k in (1, 2, 3) for kinds in ("q", "t", "qt")],
    )
    quiet(
        loo_empty,
        rows,
        "answer type, recalltype (q quantity, p phone, e e-mail)",
        type_rule,
        [("q",), ("pe",), ("qpe",)],
    )


def _quiet(fn: Callable[..., None], *args: Any) -> None:
    """Run a loo_empty family printing its table row only."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn(*args)
    print(buf.getvalue().splitlines()[0])


def absent_share(row: dict[str, Any]) -> float:
    c = row["counted"]
    mass = sum(c.values()) or 1.0
    return sum(w for t, w in c.items() if row["df"][t] == 0) / mass


def delta(row: dict[str, Any], k: int) -> float | None:
    """The most any of today's top ``k`` hits loses in cosine when the query's absent words are taken out."""
    if row["cosm"] is None:
        return None
    ids = row["today_ids"][:k]
    if not ids:
        return None
    return max(row["cos"][i] - row["cosm"][i] for i in ids)


def judged_empty(row: dict[str, Any], empty: bool) -> dict[str, float]:
    ids, answered = row["today"]
    return bench.judge(row["q"], ids if answered and not empty else [])


def right_empty(row: dict[str, Any], empty: bool) -> float:
    got = judged_empty(row, empty)
    return got["empty"] if row["q"].kind == "none" else got["hit5"]


def deltas(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        a = absent_share(r)
        if r["cosm"] is None or not r["today"][1]:
            continue
        ok = right_empty(r, False)
        d1, d3, d5 = delta(r, 1), delta(r, 3), delta(r, 5)
        print(
            f"{REPO_OF[r['split']]} {r['q'].kind[:4]:4} right={ok:.0f} A={a:.2f} d1={d1:+.3f} d3={d3:+.3f} "
            f"d5={d5:+.3f} lex={int(r['lexgate'])} | {r['q'].text} -> {r['minus']}"
        )


def best_conf(row: dict[str, Any]) -> float:
    h = gate_hit(row)
    return h["conf"] if h else 0.0


def absent_rule(alpha: float) -> Callable[[dict[str, Any]], bool]:
    """Veto the lexical answer when its confidence, absent terms counted ``alpha`` times, is under the minimum."""

    def rule(row: dict[str, Any]) -> bool:
        return best_conf(row) / (1.0 + (alpha - 1.0) * absent_share(row)) < row["minimum"]

    return rule


def loo_empty(
    rows: list[dict[str, Any]], family: str, make: Callable[..., Callable[[dict[str, Any]], bool]], grid: list[tuple]
) -> None:
    """As :func:`loo`, but the rule empties the answer (hybrid's list, whatever answered it)."""
    repos = sorted(set(REPO_OF.values()))
    base = {rp: sum(right_empty(r, False) for r in rows if REPO_OF[r["split"]] == rp) for rp in repos}
    scored = {}
    for params in grid:
        rule = make(*params)
        scored[params] = {rp: sum(right_empty(r, rule(r)) for r in rows if REPO_OF[r["split"]] == rp) for rp in repos}
    gains, losing, picks = [], 0, []
    for held in repos:
        best = max(grid, key=lambda p: sum(scored[p][rp] - base[rp] for rp in repos if rp != held))
        picks.append(best)
        g = scored[best][held] - base[held]
        gains.append(g)
        losing += g < 0
    cells = " | ".join(f"{base[rp]:.0f} -> {scored[p][rp]:.0f}" for rp, p in zip(repos, picks, strict=True))
    print(f"| {family} (hybrid, empty) | {sorted(set(picks))} | {cells} | {sum(gains) / len(gains):+.2f} | {losing} |")
    for params in grid:
        print("   ", params, {rp: scored[params][rp] - base[rp] for rp in repos})


def uncovered(row: dict[str, Any], p: float, k: int, ids_key: str = "today_ids") -> float:
    """The share of the query's counted weight in absent terms that none of the top ``k`` hits is near
    (each term embedded alone; a hit is near when it ranks in the best ``p`` of all entries for it)."""
    c = row["counted"]
    mass = sum(c.values()) or 1.0
    ids = row[ids_key][:k]
    if not ids:
        return 0.0
    out = 0.0
    for t, ranks in row.get("wrank", {}).items():
        best = min((ranks[i] for i in ids if i in ranks), default=1.0)
        if best > p:
            out += c.get(t, 0.0)
    return out / mass


def word_rule(p: float, u: float, k: int) -> Callable[[dict[str, Any]], bool]:
    return lambda row: bool(row["today"][1]) and uncovered(row, p, k) >= u


def delta_rule(a: float, d: float, k: int) -> Callable[[dict[str, Any]], bool]:
    """Empty when the absent words hold ``a`` of the weight and no top-``k`` hit loses ``d`` of cosine without them."""

    def rule(row: dict[str, Any]) -> bool:
        got = delta(row, k)
        return bool(row["today"][1]) and got is not None and absent_share(row) >= a and got < d

    return rule


def agree_rule(x: float, y: float) -> Callable[[dict[str, Any]], bool]:
    """Veto the lexical answer when its hit's own cosine is under ``x`` and its confidence under ``y`` x the minimum."""

    def rule(row: dict[str, Any]) -> bool:
        h = gate_hit(row)
        if h is None or h["cos"] is None:
            return False
        return h["cos"] < x and h["conf"] < y * row["minimum"]

    return rule


QUANTITY_Q = _re.compile(r"\bhow (many|much)\b|多少|几|幾|얼마|몇|いくら|何人|何個|何台|何本", _re.I)
TIME_Q = _re.compile(r"^\s*when\b|\bwhat time\b|\bwhich day\b|\bwhat date\b|什么时候|何时|いつ|何時|언제", _re.I)
NUMBER_WORDS = (
    r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|dozen|"
    r"half|once|twice|single|double|none|no)\b|[一二三四五六七八九十百千万两半]"
)
NUMBER_A = _re.compile(r"\d|" + NUMBER_WORDS, _re.I)
TIME_A = _re.compile(
    r"\d|\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(january|february|march|april|may|june|july|august|"
    r"september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b|"
    r"\b(daily|weekly|monthly|yearly|annually|nightly|hourly|every|each|morning|mornings|afternoon|afternoons|"
    r"evening|evenings|night|nights|noon|midnight|weekend|weekends|weekday|weekdays|today|tomorrow|tonight|"
    r"spring|summer|autumn|fall|winter|week|month|year|quarter|before|after|until|since|during|always|never)\b|"
    r"[月日周週曜时時点點]|요일|[월일시]|오전|오후|매일|매주|아침|저녁|주말|여름|겨울",
    _re.I,
)


def typed_rule(k: int, kinds: str = "qt") -> Callable[[dict[str, Any]], bool]:
    """Empty when the question asks for a quantity (a time) and none of the top ``k`` answers holds one."""

    def rule(row: dict[str, Any]) -> bool:
        if not row["today"][1]:
            return False
        text = row["q"].text
        texts = [row["texts"].get(int(i), "") for i in row["today_ids"][:k]]
        if "q" in kinds and QUANTITY_Q.search(text) and not any(NUMBER_A.search(t) for t in texts):
            return True
        return bool("t" in kinds and TIME_Q.search(text) and not any(TIME_A.search(t) for t in texts))

    return rule


def type_rule(kinds: str) -> Callable[[dict[str, Any]], bool]:
    """Empty when the question asks for a type of ``kinds`` (q quantity, p phone, e e-mail) that today's best hit
    does not hold (:mod:`memrepo.engine.read.recalltype`, one type at a time)."""
    from memrepo.engine.read import recalltype as rt

    pairs = {"q": (rt.ASKS_QUANTITY, rt.NUMBER), "p": (rt.ASKS_PHONE, rt.PHONE), "e": (rt.ASKS_EMAIL, rt.EMAIL)}

    def rule(row: dict[str, Any]) -> bool:
        if not row["today"][1] or not row["today_ids"]:
            return False
        best = row["texts"].get(int(row["today_ids"][0]), "")
        return any(asks.search(row["q"].text) and not holds.search(best) for asks, holds in (pairs[k] for k in kinds))

    return rule
