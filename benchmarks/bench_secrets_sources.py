"""Secret redaction per source: what was tuned on, what was held out, and public formats that must survive.

Each source is a file in ``benchmarks/secrets_corpus/`` (or ``--corpus DIR``),
built by the script named in its ``source`` field:

==================  =====  ===================================================================
part                tuned  where its samples come from
==================  =====  ===================================================================
kingfisher          yes    Kingfisher's rule examples (``corpus.json`` ``vendor``, issue 14)
named, hard         yes    hand-written formats and hard cases (``corpus.json``, issue 14)
speech-tune         yes    passwords in prose and on command lines, even templates (``speech.json``)
speech-held         no     the odd templates of ``speech.json``, never looked at while writing rules
speech2-tune        yes    other phrasings, five languages, PINs, tokens, 22 tools (``speech2.json``, issue 32 round 4)
speech2-held        no     ``speech2.json``'s held-out phrasings, written before the rules were tuned
speech3-tune        yes    eleven languages, command lines, seed phrases, recovery codes (``speech3.json``, round 7)
speech3b-tune       yes    a second batch in other phrasings, written after the first batch's rules (``speech3.json``)
vendordocs-tune     yes    keys of invented vendors in the shapes vendor docs print (``vendordocs.json``, round 5)
vendordocs-held     no     its other templates and vendors, written before round 5's rules, run once at the end
vendordocs2         yes    177 real vendors' keys in the shapes their own docs state, each with its page (``vendordocs2.json``, round 9)
shapes              yes    random values in the places keys sit, no vendor named: ``prefix_`` keys, env vars, JSON/YAML
                           fields, URL userinfo and queries, headers, connection strings, flags (``build_shapes.py``, round 10)
gitleaks            no     every true-positive line of gitleaks' rules (``gitleaks.json``)
patterns-db         yes    trufflehog's formats via ``build_patterns_db.py`` (``--extra``; AGPL: not shipped)
kingfisher-more     yes    Kingfisher's examples not in ``corpus.json``, via ``build_rule_examples.py`` (``--extra``, round 7)
patterns-db-stable  yes    secrets-patterns-db's curated rules via ``build_rule_examples.py`` (``--extra``; CC BY-SA: not shipped)
noseyparker         yes    Nosey Parker's and Titus's rule examples via ``build_upstream_tests.py`` (``--extra``, round 11;
                           their negative examples as ``noseyparker-negative``, ``--extra-benign``)
secretlint          yes    secretlint's rule snapshots via ``build_upstream_tests.py`` (``--extra``, round 11;
                           ``ok.*`` snapshots as ``secretlint-negative``, ``--extra-benign``)
trivy               yes    Trivy's secret scanner tests' masked matches via ``build_upstream_tests.py`` (``--extra``, round 11)
msu                 yes    Microsoft security-utilities' high-confidence patterns, one generated line each (``--extra``, round 11)
trufflehog-tests-  yes    trufflehog's detector tests (below), the half of the detectors whose name's SHA-256 ends in an even
tune                       byte (``build_trufflehog_tests.py --half tune``, round 16, split before any result of a half was
                           read; ``trufflehog-invalid-tune`` the same half of its invalid patterns, ``--extra-benign``); the
                           ``-held`` halves stay held out
(``--extra``)       no     e.g. trufflehog's detector tests via ``build_trufflehog_tests.py`` (AGPL: not shipped),
                           built before round 3's rules and measured once; whispers', ripsecrets' and
                           detect-secrets' tests via ``build_scanner_tests.py`` (round 6, built before its rules)
benign              yes    what memory holds (``corpus.json`` ``benign``): must come out unchanged
speech2-benign-tune yes    the same styles without a secret (``speech2.json``): must come out unchanged
speech2-benign-held no     ditto, held out
speech3-benign-tune yes    talk about passwords, code reading one, pinned versions, issue keys, tables (``speech3.json``)
vendordocs-benign-* yes/no public ids, hashes and talk about keys beside the invented vendors (``vendordocs.json``)
vendordocs2-benign  yes    the look-alikes the same docs call public (``phc_``, ``sb_publishable_``, ``age1``, ``FLWPUBK-`` ...)
public              no     public formats: digests, public keys, certificates, SRI ... (``public.json``)
speech4-*,          tune:  written blind by three helpers (round 24) that read no rule, corpus or test and ran no
vendorkeys-*,       yes,   redaction: passwords in speech and on command lines in 17 languages (``speech4.json``), keys of
public3-*           held:  69 real and invented vendors where vendor docs print them (``vendorkeys.json``), public formats
                    no     in memory notes (``public3.json``); each split by template, vendor or family before writing values
notes5-*            tune:  written blind by a helper (round 25) that read no rule, corpus or test: 177 secret and 170
                           look-alike templates of memory notes (configs, commands, code in eight languages, vendor
                           keys with their checksums, BIP39 seeds, 12 languages), split odd/even by template before any
                           value was drawn (``build_notes5.py``, needs ``mnemonic``); both halves ran once untuned
                           (round 25), then the tune halves were tuned on (round 26)
notes6-*            tune:  written blind by a helper (round 26) that read no rule, corpus or test: 188 secret and 159
                    yes,   look-alike templates (agent memory bullets, CI and infrastructure configs, dotfiles, code in
                    held:  twelve languages, keys and wallets with real checksums, chat in 21 languages), split
                    no     odd/even by template before any value was drawn (``build_notes6.py``, needs ``mnemonic``)
identifiers-tune    yes    public ids people keep in notes, documented shapes, even templates (``identifiers.json``, round 6)
identifiers-held    no     its odd templates, built before round 6's rules, alterations never read
formats-tune        yes    45 more public families (Stripe object ids, checksums as tools print them, phone,
                           tracking and device numbers, DNS records, DIDs ...; ``formats.json``, round 7)
families-tune       yes    identifiers.json's families in other words, from each format's docs (trace
                           contexts, Slack/Discord/Jira ids, cloud ids, lockfiles ...; ``families.json``, round 8)
public2             yes    real public identifiers from public repositories' docs, fixtures and lockfiles, each with
                           its source URL (``build_public2.py``, round 9; ``--extra-benign``: built locally, not shipped)
prose-ids           yes    identifiers as people quote them in issue threads (checksums compared, GnuPG and SSH messages,
                           request and lock ids, pod names ...), each line with its thread's URL (``build_proseids.py``,
                           round 10; ``--extra-benign``: built locally, not shipped)
memnotes            yes    project notes with identifiers: changelogs, ``CLAUDE.md``/``AGENTS.md`` memory files, runbooks,
                           postmortems, docs quoting ``kubectl``, each line with its file's URL and line (``build_memnotes.py``,
                           round 11; ``--extra-benign``: built locally, not shipped)
idfiles             yes    identifiers in other projects' own files: lockfiles, manifests pinning digests, CI workflows
                           pinning actions, changelogs, API and spec docs (KSUID, ULID, CUID, snowflakes, CIDs, trace
                           ids, JOSE ...), each line with its file's URL (``build_idfiles.py``, round 12;
                           ``--extra-benign``: built locally, not shipped)
leakyrepo           yes    credential files as they sit on disk (dotfiles, tool configs, ``wp-config.php``, ``.env``,
                           ``.pgpass`` ...) from Plazmaz/leaky-repo, labelled by hand (``build_leakyrepo.py``, round 13;
                           ``--extra``, its other lines as ``leakyrepo-benign``, ``--extra-benign``: local, not shipped)
semgrep             yes    semgrep-rules' ``generic/secrets/security`` tests, each ``ruleid`` line scored by its rule's
                           own regex (``build_semgrep_secrets.py``, round 13; ``ok`` lines as ``semgrep-negative``;
                           gitleaks' ported folder left out; local, not shipped)
configsecrets-tune  yes    Kingfisher's example keys placed where configs put them: ``.env``, YAML (block scalars too), TOML,
                           JSON, XML, ``.properties``, HCL, INI, URL userinfo, a label on the line above, flags
                           (``build_configsecrets.py``, round 15; split by vendor: ``configsecrets-held`` is held out;
                           ``--extra``, local, not shipped)
configsecrets2-tune yes    secrets-patterns-db's rules-stable values in 20 deployment and code places (Actions ``env:``,
                           ``docker run -e``, ``kubectl --from-literal``, a container's ``env`` list, ``appsettings.json``,
                           ``ENV``, systemd, ``.npmrc``, ``.netrc`` ...; ``build_configsecrets2.py``, round 15; split by rule:
                           ``configsecrets2-held`` is held out; CC BY-SA: local, not shipped)
configfiles-tune    yes    two-line windows of public config files: manifests, compose, Dockerfiles, lockfiles, CI files
                           (``build_configfiles.py``, round 15, two batches ``configfiles`` (ten) and ``configfiles2`` (eight
                           repositories), split by repository: the ``-held`` halves are held out; ``--extra-benign``)
(``--extra-benign``) no    look-alikes: Kingfisher's negative examples (``build_kingfisher_negatives.py``),
                           trufflehog's invalid test patterns (``build_trufflehog_tests.py --negatives``),
                           whispers' compliant lines and ripsecrets' ``test/none`` (``build_scanner_tests.py --negatives``)
==================  =====  ===================================================================

Every locally built part, its source repository and snapshot commit: ``secrets_corpus/SOURCES.md``; ``secrets_corpus/rebuild.sh
MIRRORS OUT`` rebuilds them all and writes ``OUT/args.sh`` (``ALL_ARGS``, every flag needed to score them).

A secret sample counts as redacted when none of its secret pieces survives the
redacted text and every ``keep`` piece does; a benign or public text counts as
altered when redaction changes it at all. Run::

    python benchmarks/bench_secrets_sources.py            # one line per part
    python benchmarks/bench_secrets_sources.py --misses   # and each miss and alteration
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned NEW --extra NEW.json --misses  # tuning runs
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

CORPUS = Path(__file__).parent / "secrets_corpus"
TUNED = {
    *("kingfisher", "named", "hard", "speech-tune", "speech2-tune", "speech2-benign-tune", "benign", "patterns-db"),
    *("vendordocs-tune", "vendordocs-benign-tune", "identifiers-tune", "formats-tune", "families-tune"),
    *("kingfisher-more", "patterns-db-stable", "speech3-tune", "speech3-benign-tune"),
    *("speech3b-tune", "speech3b-benign-tune", "public2"),
    *("vendordocs2", "vendordocs2-benign", "prose-ids", "shapes", "memnotes"),
    *("noseyparker", "noseyparker-negative", "secretlint", "secretlint-negative", "trivy", "msu"),
    "idfiles",
    *("trufflehog-tests-tune", "trufflehog-invalid-tune"),
    *("speech4-tune", "speech4-benign-tune", "vendorkeys-tune", "vendorkeys-benign-tune", "public3-tune"),
    *("notes5-tune", "notes5-benign-tune", "notes6-tune", "notes6-benign-tune"),
}
"""Parts whose misses were read while writing rules (``patterns-db``: ``--extra`` named so, issue 32 round 3;
``kingfisher-more``, ``patterns-db-stable``, ``formats-tune`` and the ``speech3`` parts: round 7;
``families-tune``: round 8; ``public2``, ``--extra-benign`` named so, and ``vendordocs2``: round 9; ``prose-ids``,
``--extra-benign`` named so, and ``shapes``: round 10; ``memnotes`` and ``build_upstream_tests.py``'s parts,
``--extra`` and ``--extra-benign`` named so: round 11; ``idfiles``, ``--extra-benign`` named so: round 12; the trufflehog halves ``build_trufflehog_tests.py --half tune`` writes:
round 16; the blind halves ``speech4``/``vendorkeys``/``public3`` tune: round 24; ``notes5`` and ``notes6`` tune: round 26)."""


def load(folder: Path) -> tuple[dict[str, list[dict]], dict[str, list[dict]]]:
    """(secret samples per part, harmless samples per part) of the corpus in ``folder``."""
    secret: dict[str, list[dict]] = {}
    harmless: dict[str, list[dict]] = {}
    old = json.loads((folder / "corpus.json").read_text(encoding="utf-8"))
    secret["kingfisher"] = old["vendor"]
    secret["named"] = old["named"]
    secret["hard"] = old["hard"]
    harmless["benign"] = [{"family": "benign", "text": t} for t in old["benign"]]
    if (folder / "speech.json").exists():
        speech = json.loads((folder / "speech.json").read_text(encoding="utf-8"))
        secret["speech-tune"] = speech["speech-tune"]
        secret["speech-held"] = speech["speech-held"]
    if (folder / "speech2.json").exists():
        speech2 = json.loads((folder / "speech2.json").read_text(encoding="utf-8"))
        secret["speech2-tune"] = speech2["speech2-tune"]
        secret["speech2-held"] = speech2["speech2-held"]
        harmless["speech2-benign-tune"] = speech2["speech2-benign-tune"]
        harmless["speech2-benign-held"] = speech2["speech2-benign-held"]
    if (folder / "speech3.json").exists():
        speech3 = json.loads((folder / "speech3.json").read_text(encoding="utf-8"))
        secret["speech3-tune"] = speech3["speech3-tune"]
        harmless["speech3-benign-tune"] = speech3["speech3-benign-tune"]
        secret["speech3b-tune"] = speech3["speech3b-tune"]
        harmless["speech3b-benign-tune"] = speech3["speech3b-benign-tune"]
    if (folder / "vendordocs.json").exists():
        docs = json.loads((folder / "vendordocs.json").read_text(encoding="utf-8"))
        secret["vendordocs-tune"] = docs["vendordocs-tune"]
        secret["vendordocs-held"] = docs["vendordocs-held"]
        harmless["vendordocs-benign-tune"] = docs["vendordocs-benign-tune"]
        harmless["vendordocs-benign-held"] = docs["vendordocs-benign-held"]
    if (folder / "vendordocs2.json").exists():
        docs2 = json.loads((folder / "vendordocs2.json").read_text(encoding="utf-8"))
        secret["vendordocs2"] = docs2["vendordocs2"]
        harmless["vendordocs2-benign"] = docs2["vendordocs2-benign"]
    if (folder / "shapes.json").exists():
        secret["shapes"] = json.loads((folder / "shapes.json").read_text(encoding="utf-8"))["samples"]
    if (folder / "gitleaks.json").exists():
        secret["gitleaks"] = json.loads((folder / "gitleaks.json").read_text(encoding="utf-8"))["samples"]
    if (folder / "identifiers.json").exists():
        ids = json.loads((folder / "identifiers.json").read_text(encoding="utf-8"))
        harmless["identifiers-tune"] = ids["identifiers-tune"]
        harmless["identifiers-held"] = ids["identifiers-held"]
    if (folder / "formats.json").exists():
        harmless["formats-tune"] = json.loads((folder / "formats.json").read_text(encoding="utf-8"))["formats-tune"]
    if (folder / "families.json").exists():
        harmless["families-tune"] = json.loads((folder / "families.json").read_text(encoding="utf-8"))["families-tune"]
    for blind in ("speech4", "vendorkeys", "public3", "notes5", "notes6"):  # rounds 24-26: written blind, split first
        if (folder / f"{blind}.json").exists():
            parts = json.loads((folder / f"{blind}.json").read_text(encoding="utf-8"))
            for part, samples in parts.items():
                if part != "source" and isinstance(samples, list):
                    for sample in samples:  # notes5 numbers templates; a family is its template
                        sample.setdefault("family", f"t{sample.get('template', 0):03d}")
                    (secret if samples and "secrets" in samples[0] else harmless)[part] = samples
    if (folder / "public.json").exists():
        harmless["public"] = json.loads((folder / "public.json").read_text(encoding="utf-8"))["samples"]
    return secret, harmless


def passes(sample: dict, out: str) -> bool:
    """Whether every secret piece of ``sample`` is gone from ``out`` and every ``keep`` piece is still there."""
    return not any(p in out for p in sample["secrets"]) and all(k in out for k in sample.get("keep", []))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder holding the corpus files")
    parser.add_argument("--misses", action="store_true", help="print each miss and each altered harmless text")
    parser.add_argument(
        "--extra",
        type=Path,
        action="append",
        default=[],
        help="another held-out secrets file ({source, samples}), e.g. build_patterns_db.py's output",
    )
    parser.add_argument(
        "--extra-benign",
        type=Path,
        action="append",
        default=[],
        help="another held-out look-alike file ({source, samples}) that must come out unchanged",
    )
    parser.add_argument(
        "--tuned-only",
        action="store_true",
        help="run only the tuned parts (and those named by --tuned): held-out parts have a run budget",
    )
    parser.add_argument(
        "--tuned",
        action="append",
        default=[],
        help="an --extra or --extra-benign part (file stem) to count as tuned: a new source built this round",
    )
    args = parser.parse_args()
    from memrepo.engine import redaction

    secret, harmless = load(args.corpus)
    for extra in args.extra:
        secret[extra.stem] = json.loads(extra.read_text(encoding="utf-8"))["samples"]
    for extra in args.extra_benign:
        harmless[extra.stem] = json.loads(extra.read_text(encoding="utf-8"))["samples"]
    tuned_parts = TUNED | set(args.tuned)
    if args.tuned_only:
        secret = {k: v for k, v in secret.items() if k in tuned_parts}
        harmless = {k: v for k, v in harmless.items() if k in tuned_parts}
    print(f"{'part':19s} {'tuned':5s} {'redacted':>16s}  rules/families fully redacted")
    misses: list[tuple[str, dict, str]] = []
    for part, samples in secret.items():
        fam, fam_ok = collections.Counter(), collections.Counter()
        ok_n = 0
        for s in samples:
            out, _ = redaction.redact(s["text"])
            ok = passes(s, out)
            ok_n += ok
            fam[s["family"]] += 1
            fam_ok[s["family"]] += ok
            if not ok:
                misses.append((part, s, out))
        full = sum(1 for f in fam if fam_ok[f] == fam[f])
        tuned = "yes" if part in tuned_parts else "no"
        print(
            f"{part:19s} {tuned:5s} {ok_n:5d}/{len(samples):<5d} {ok_n / len(samples) * 100:5.1f}%  {full}/{len(fam)}"
        )
    altered: list[tuple[str, dict, str]] = []
    for part, samples in harmless.items():
        bad = 0
        for s in samples:
            out, _ = redaction.redact(s["text"])
            if out != s["text"]:
                bad += 1
                altered.append((part, s, out))
        tuned = "yes" if part in tuned_parts else "no"
        print(f"{part:19s} {tuned:5s} altered {bad:3d}/{len(samples):<4d} {bad / len(samples) * 100:5.1f}%")
    if args.misses:
        print("\nsecrets that survive:")
        for part, s, out in misses:
            print(f"  [{part}/{s['family']}] {s['text'][:140]!r}\n      -> {out[:140]!r}")
        print("\nharmless texts altered:")
        for part, s, out in altered:
            print(f"  [{part}/{s['family']}] {s['text'][:140]!r}\n      -> {out[:140]!r}")


if __name__ == "__main__":
    main()
