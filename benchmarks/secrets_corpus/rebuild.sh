#!/usr/bin/env bash
# Rebuild every locally built part of the secrets benchmark (the parts licences keep out of the repo).
#
#   benchmarks/secrets_corpus/rebuild.sh MIRRORS OUT [WORK]
#
# MIRRORS holds one bare git snapshot per source repository as `owner+name/repo` (the layout the
# session's snapshot tool writes: /work/.mirror). Every source and its snapshot commit is listed in
# SOURCES.md beside this script; the commits below are the same. WORK (default OUT/src) receives the
# trees read at those commits (`git archive`) and, for the builders that read a git directory's HEAD,
# a pinned git directory per repository (`WORK/pinned/owner+name/repo`, sharing the mirror's objects).
# OUT receives one JSON file per part; `OUT/args.sh` then defines ALL_ARGS, the flags
# bench_secrets_sources.py needs to score every part built:
#
#   . OUT/args.sh && python benchmarks/bench_secrets_sources.py $ALL_ARGS
#
# ONLY="name1 name2" runs only those steps (names: the step functions below, without `step_`).
# A step that fails (a snapshot missing, a builder error) is reported and the others still run;
# the exit status is 1 when any step failed.
set -uo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 MIRRORS OUT [WORK]" >&2
    exit 2
fi
MIRRORS=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
WORK=${3:-$OUT/src}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PY=${PYTHON:-python3}
FAILED=()

# tree REPO COMMIT [PATH...]: the tree of owner/name at COMMIT (only PATHs, if given) in WORK/owner+name.
tree() {
    local name=$1 commit=$2
    shift 2
    local git="$MIRRORS/${name/\//+}/repo" dest="$WORK/${name/\//+}"
    if ! git --git-dir="$git" cat-file -e "$commit^{commit}" 2>/dev/null; then
        echo "no snapshot of $name at $commit in $MIRRORS" >&2
        return 1
    fi
    rm -rf "$dest" && mkdir -p "$dest"
    git --git-dir="$git" archive "$commit" "$@" | tar -x -C "$dest"
}

# blob REPO COMMIT PATH: that file of owner/name at COMMIT in WORK/owner+name/PATH (git show: an export-ignore
# attribute, which public-apis sets on its README.md, would leave it out of `git archive`).
blob() {
    local name=$1 commit=$2 path=$3
    local git="$MIRRORS/${name/\//+}/repo" dest="$WORK/${name/\//+}/$3"
    mkdir -p "$(dirname "$dest")" && git --git-dir="$git" show "$commit:$path" >"$dest"
}

# pinned REPO COMMIT: a git directory WORK/pinned/owner+name/repo whose HEAD is COMMIT (objects shared).
pinned() {
    local name=$1 commit=$2
    local git="$MIRRORS/${name/\//+}/repo" dest="$WORK/pinned/${name/\//+}/repo"
    if ! git --git-dir="$git" cat-file -e "$commit^{commit}" 2>/dev/null; then
        echo "no snapshot of $name at $commit in $MIRRORS" >&2
        return 1
    fi
    rm -rf "$dest" && mkdir -p "$dest"
    git init -q --bare "$dest"
    echo "$(cd "$git" && pwd -P)/objects" >"$dest/objects/info/alternates"
    git --git-dir="$dest" update-ref refs/heads/snapshot "$commit"
    git --git-dir="$dest" symbolic-ref HEAD refs/heads/snapshot
}

# pin_all "owner/name commit" ...: pinned for each pair; fails when one does.
pin_all() {
    local pair
    for pair in "$@"; do
        # shellcheck disable=SC2086
        pinned $pair || return 1
    done
}

# gitdirs "owner/name commit" ...: the pinned git directories of those pairs, in order.
gitdirs() {
    local pair
    for pair in "$@"; do
        set -- $pair
        printf '%s\n' "$WORK/pinned/${1/\//+}/repo"
    done
}

b() { "$PY" "$HERE/$1" "${@:2}"; }

# ---------------------------------------------------------------------------------------------------------------
# Snapshots (owner/name commit), the same as SOURCES.md.
SPDB="mazen160/secrets-patterns-db 24984df"
TRUFFLEHOG="trufflesecurity/trufflehog 3ab759f"
KINGFISHER="mongodb/kingfisher ee7c0db"
BETTERLEAKS="betterleaks/betterleaks 6381fa4"
WHISPERS="Skyscanner/whispers 5832bf7"
RIPSECRETS="sirwart/ripsecrets 416e9d0"
DETECT_SECRETS="Yelp/detect-secrets 5e14193"
NOSEYPARKER="praetorian-inc/noseyparker 2e6e7f36"
TITUS="praetorian-inc/titus 369d8dc4"
SECRETLINT="secretlint/secretlint 18346ba3"
TRIVY="aquasecurity/trivy dc3c56ee"
MSU="microsoft/security-utilities 638ad20e"
LEAKY="Plazmaz/leaky-repo 2e95135"
SEMGREP="semgrep/semgrep-rules 157ae47"
KICS="DataDog/kics d91e366"
SCALIBR="google/osv-scalibr c2094f2d"
CHECKOV="bridgecrewio/checkov 03d5fdad"
GHPATTERNS="advanced-security/secret-scanning-custom-patterns 9b84660d"
BEARER="Bearer/bearer-rules 82c335f7"
PUBLIC_APIS="public-apis/public-apis c045a2e"
MARCELSCRUZ="marcelscruz/public-apis be4f113"
CREDSWEEPER="Samsung/CredSweeper 1ed2ca5c"
TWOMS="Checkmarx/2ms e2fafb4a97"
# The file-harvest builders read HEAD of a git directory; these are the commits read when the parts were rebuilt
# in round 21 (the snapshots the tool had then; the first builds' commits were not recorded).
PUBFILES=(
    "kubernetes-sigs/kind fed268827e"
    "sharkdp/bat 2ba8db9c14"
    "keijiro/Lasp a18cf52188"
    "nix-community/nixos-generators 032decf9db"
    "JamesNK/Newtonsoft.Json 09bb545d72"
    "Alamofire/Alamofire 7595cbcf59"
    "ShareX/ShareX e9711f202c"
    "renovatebot/github-action 2e028a9e15"
)
CONFIGFILES=(
    "cert-manager/cert-manager 2d0d7f7f74"
    "open-telemetry/opentelemetry-demo 054282e318"
    "docker/awesome-compose 18f59bdb09"
    "GoogleCloudPlatform/microservices-demo 34ffea9175"
    "argoproj/argocd-example-apps 0d521c6e04"
    "spring-projects/spring-petclinic edf4db28af"
    "stefanprodan/podinfo eec06d1ea4"
    "prometheus-operator/kube-prometheus 4d719f1dea"
    "grafana/helm-charts 7a0ab96896"
    "hashicorp/learn-terraform-provision-eks-cluster c5c4d54a59"
)
CONFIGFILES2=(
    "actions/starter-workflows 1035244887"
    "traefik/traefik-helm-chart a8a66d0098"
    "fastapi/full-stack-fastapi-template 68adb40d37"
    "ansible/ansible-examples b50586543c"
    "jenkinsci/helm-charts 22055414e8"
    "dotnet/eShop 5624ad564d"
    "terraform-aws-modules/terraform-aws-vpc 82d1929e66"
    "prometheus-community/helm-charts cf408a290a"
)
PUBFORMATS=(
    "jakevdp/PythonDataScienceHandbook d66231454e"
    "drduh/config 9887996fa1"
    "prettier/prettier 4f84a93420"
    "Textualize/rich 42899d8a0a"
    "argoproj/argo-helm af0a9310ba"
    "mochajs/mocha e6b9ee7734"
    "vuejs/core e2bede9613"
    "drduh/YubiKey-Guide 7453578fb3"
    "junegunn/fzf 956562daaa"
    "ossf/scorecard 40c1e35996"
    "terraform-aws-modules/terraform-aws-eks bef29c4d95"
    "docker-library/python 4f07059567"
    "kubernetes-sigs/metrics-server 5ed5d3a2cf"
    "nextcloud/docker 4de1eed65a"
    "NixOS/infra facf006c17"
    "h5bp/server-configs-nginx 6630570068"
    "OAI/OpenAPI-Specification 46c1076ba6"
    "prometheus/node_exporter a7dcc3a015"
    "ajeetdsouza/zoxide e3ef7c9b41"
)
PUBFORMATS2=(
    "nginx-proxy/nginx-proxy 584073da6a"
    "docker-library/redis e92049967d"
    "terraform-aws-modules/terraform-aws-rds fa183b6b36"
    "NixOS/nixos-hardware 0471accf8d"
    "docker-library/postgres 6edb0a8c4d"
    "caddyserver/caddy 0cf03d32f7"
    "terraform-aws-modules/terraform-aws-s3-bucket dd0c434de5"
    "nix-community/disko 878ec37d6a"
)
PUBFORMATS3=(
    "cli/cli 44ee177607"
    "Adyen/adyen-android 956ab46301"
    "ARM-software/kleidiai 495f6524d9"
    "pypa/pipenv 3f1b272abd"
    "conda/conda-lock e29d5cf7dc"
    "hashicorp/homebrew-tap b7f5123d0d"
    "8gears/n8n-helm-chart 344f5e09fa"
    "CycloneDX/bom-examples aaa24717f3"
    "sigstore/sigstore-python 27db13db15"
    "spdx/spdx-examples 692c708f26"
    "pointfreeco/swift-composable-architecture d34c1dfe7a"
    "18F/identity-pki 5c86bb928d"
)
PUBFORMATS4=(
    "nodejs/release-keys b28073028e"
    "go-webauthn/webauthn bca8ebdd5c"
    "panva/jose afbc664914"
    "microsoft/sarif-tutorials 819b0f62f4"
    "sharkdp/fd ee20f426dd"
    "numtide/devshell 17ed8d9744"
    "FiloSottile/mkcert 1c1dc4ed27"
    "step-security/harden-runner b09bb98e06"
    "mail-in-a-box/mailinabox b162b96da2"
    "kyverno/policies b9c4317ce0"
    "swagger-api/swagger-petstore f1ed336a08"
    "internetstandards/toolbox-wiki b9c4a616b3"
    "eza-community/eza eed27ed05e"
    "charmbracelet/glow 53788271b3"
    "0-vortex/cloudflare-terraform-infra 88946d1da2"
    "Adventech/sabbath-school-android b7bc1c05ad"
)
HARVEST=(
    "1nval1dctf/terraform-aws-ctfd ed8fede0da"
    "AojdevStudio/dental-dashboard f6cab48aa9"
    "Azure/login 833e82333c"
    "BurntSushi/ripgrep 3fce3b5bb0"
    "FiloSottile/age 10561a774f"
    "JBMD-Creations/Supabase 3ea9d897c7"
    "Miness4/shadow-operator-model 6f4ab5984e"
    "NNTmux/newznab-tmux c74456bdf1"
    "NOAA-GSL/zyra 076a4eba01"
    "NOIR-Solution/NOIR 3be76e0fb9"
    "NixOS/nix 88b09c64fb"
    "PagerDuty/incident-response-docs e8a6182e03"
    "ai/nanoid 07a39d62d8"
    "algolia/docsearch 4ac53c423a"
    "anthropics/claude-code 5cfc0a1905"
    "app-gen-bot/gen-ecd88319-leo-v1 841368099d"
    "arthurdejong/python-stdnum 006192e59b"
    "astral-sh/uv 26a9dd4b21"
    "aws-samples/eks-workshop-v2 bb1b30007b"
    "aws/aws-cli 07c4fe366b"
    "axios/axios 23a25af068"
    "babel/babel 1da3cfa1a2"
    "bigskysoftware/htmx 4dd2685fbe"
    "bitcoin/bips 7fe0b034ec"
    "bitcoinjs/bitcoinjs-lib 248789d25b"
    "citation-file-format/citation-file-format 0c5b4aa070"
    "cli/cli 44ee177607"
    "codler/react-ga4 79368fe1c6"
    "composer/composer eba7baa59e"
    "danluu/post-mortems 696669c9db"
    "dhyana1984/kubernetes-in-action 2ad7c3dcde"
    "discord/discord-api-docs c98d64bc23"
    "docker-library/official-images 37079fb336"
    "ethereum/eth-utils c43ff81fc8"
    "fluxcd/flux2 da2d22d369"
    "getsentry/sentry-javascript f7a6cc0c22"
    "getsentry/sentry-python 064542dd2c"
    "git-lfs/git-lfs af13aa8f25"
    "googleapis/release-please fdaca293b5"
    "hCaptcha/react-hcaptcha d3e28807a0"
    "hashicorp/homebrew-tap b7f5123d0d"
    "helix-editor/helix 079a789e8c"
    "ipfs/ipfs-docs dc395c1beb"
    "jazzband/pip-tools c58d5d945c"
    "jedisct1/minisign e369d9447d"
    "jkeen/tracking_number_data b79ce4bfc0"
    "kelseyhightower/kubernetes-the-hard-way 52eb26dad1"
    "kubernetes/examples 279e8e4fe3"
    "kubernetes/ingress-nginx dbb11b92dd"
    "marsidev/react-turnstile 33f77503dc"
    "multiformats/cid 9eca1c5ba0"
    "multiformats/js-multiformats 079e760bb8"
    "nix-community/home-manager ec1a8fdf74"
    "nodejs/release-keys b28073028e"
    "octokit/webhooks 3a58428aa5"
    "oklog/ulid 75921a7395"
    "ollama/ollama fb30760996"
    "open-telemetry/opentelemetry-specification 1377f53b2b"
    "opencontainers/image-spec 13cff54902"
    "panva/jose afbc664914"
    "paralleldrive/cuid2 21a0e27c81"
    "phoenixframework/phoenix 167c46950c"
    "pnpm/pnpm 36e5ae6ac8"
    "pydantic/pydantic 2151025aa5"
    "pypa/pip 6d30920578"
    "pypa/setuptools-scm ffa8d49233"
    "python-poetry/poetry f467023368"
    "rubygems/rubygems.org 3c8ea0d4cb"
    "segmentio/ksuid d33724947f"
    "sigstore/cosign d6d86c224e"
    "sigstore/rekor eee7d8d644"
    "slackapi/bolt-js 9a45c3c9a3"
    "slackapi/python-slack-sdk ae87985e2c"
    "sony/sonyflake f167a9d531"
    "spotipy-dev/spotipy c52a29f6d2"
    "stripe/openapi f6c2a48fba"
    "stripe/stripe-node 663942164d"
    "tektoncd/pipeline 3ee1745ae5"
    "ulid/spec d0c7170df4"
    "vitejs/vite a98c8d95d5"
    "w3c/trace-context acab820be9"
    "webtorrent/magnet-uri 067ed063b2"
    "webtorrent/parse-torrent 67e05bb7ba"
    "webtorrent/webtorrent c168675161"
    "yt-dlp/yt-dlp 81ecd58b13"
)
# ---------------------------------------------------------------------------------------------------------------

step_patterns_db() {  # patterns-db (tuned), patterns-db-stable (tuned)
    tree $SPDB db datasets &&
        b build_patterns_db.py "$WORK/mazen160+secrets-patterns-db/datasets/trufflehog-v3.yml" >"$OUT/patterns-db.json" &&
        b build_rule_examples.py patterns-db "$WORK/mazen160+secrets-patterns-db/db/rules-stable.yml" \
            "$WORK/mazen160+secrets-patterns-db/datasets/trufflehog-v3.yml" >"$OUT/patterns-db-stable.json"
}

step_configsecrets2() {  # configsecrets2-tune (tuned), configsecrets2-held (held out)
    tree $SPDB db && b build_configsecrets2.py "$WORK/mazen160+secrets-patterns-db/db/rules-stable.yml" "$OUT"
}

step_trufflehog() {  # trufflehog-tests-{tune,held}[-v2], trufflehog-invalid-{tune,held}
    tree $TRUFFLEHOG pkg/detectors || return 1
    local det="$WORK/trufflesecurity+trufflehog/pkg/detectors" old="$WORK/build_trufflehog_tests_bfee044.py"
    b build_trufflehog_tests.py "$det" >"$WORK/trufflehog-tests.json" &&
        b build_trufflehog_tests.py --negatives "$det" >"$WORK/trufflehog-invalid.json" &&
        b build_trufflehog_tests.py --half tune "$WORK/trufflehog-tests.json" >"$OUT/trufflehog-tests-tune-v2.json" &&
        b build_trufflehog_tests.py --half held "$WORK/trufflehog-tests.json" >"$OUT/trufflehog-tests-held-v2.json" &&
        b build_trufflehog_tests.py --half tune "$WORK/trufflehog-invalid.json" >"$OUT/trufflehog-invalid-tune.json" &&
        b build_trufflehog_tests.py --half held "$WORK/trufflehog-invalid.json" >"$OUT/trufflehog-invalid-held.json" || return 1
    # The halves as first built (605 / 608 cases, URL tails and jdbc: strings still in): the builder of bfee044,
    # the commit before those were left out; published figures since round 16 give both.
    git -C "$REPO" show bfee044:benchmarks/secrets_corpus/build_trufflehog_tests.py >"$old" || return 1
    "$PY" "$old" "$det" >"$WORK/trufflehog-tests-bfee044.json" &&
        "$PY" "$old" --half tune "$WORK/trufflehog-tests-bfee044.json" >"$OUT/trufflehog-tests-tune.json" &&
        "$PY" "$old" --half held "$WORK/trufflehog-tests-bfee044.json" >"$OUT/trufflehog-tests-held.json"
}

step_kingfisher() {  # kingfisher-negative (held out), kingfisher-more (tuned), configsecrets-{tune,held}
    tree $KINGFISHER data/rules || return 1
    local rules="$WORK/mongodb+kingfisher/data/rules"
    b build_kingfisher_negatives.py "$rules" >"$OUT/kingfisher-negative.json" &&
        b build_rule_examples.py kingfisher "$rules" >"$OUT/kingfisher-more.json" &&
        b build_configsecrets.py "$rules" "$OUT"
}

step_betterleaks() {  # betterleaks-tune (tuned), betterleaks-held (held out)
    tree $BETTERLEAKS cmd config || return 1
    cp "$WORK/betterleaks+betterleaks/config/betterleaks.toml" "$WORK/betterleaks+betterleaks/config/gitleaks.toml" &&
        b build_betterleaks.py "$WORK/betterleaks+betterleaks" "$OUT"
}

step_scanners() {  # scan-whispers, scan-ripsecrets, scan-detect-secrets (+ -neg): held out (whispers, detect-secrets tuned)
    tree $WHISPERS tests && tree $RIPSECRETS test && tree $DETECT_SECRETS tests || return 1
    local roots=("$WORK/Skyscanner+whispers" "$WORK/sirwart+ripsecrets" "$WORK/Yelp+detect-secrets")
    b build_scanner_tests.py "${roots[@]}" >"$WORK/scanners.json" &&
        b build_scanner_tests.py --negatives "${roots[@]}" >"$WORK/scanners-negative.json" || return 1
    # One part per scanner, by the family's first word, as the figures since round 6 report them.
    "$PY" - "$WORK" "$OUT" <<'PYEOF'
import json, sys
from pathlib import Path

work, out = Path(sys.argv[1]), Path(sys.argv[2])
for src, suffix in (("scanners.json", ""), ("scanners-negative.json", "-neg")):
    doc = json.loads((work / src).read_text(encoding="utf-8"))
    for scanner in ("whispers", "ripsecrets", "detect-secrets"):
        rows = [s for s in doc["samples"] if s["family"].split("/")[0] == scanner]
        if rows:
            part = {"source": f"{doc['source']} ({scanner} only)", "samples": rows}
            (out / f"scan-{scanner}{suffix}.json").write_text(json.dumps(part, indent=1, ensure_ascii=False), encoding="utf-8")
PYEOF
}

step_upstream() {  # noseyparker(-negative), secretlint(-negative), trivy, msu: tuned
    tree $NOSEYPARKER crates/noseyparker/data/default/builtin/rules && tree $TITUS pkg/rule/rules &&
        tree $SECRETLINT packages/@secretlint && tree $TRIVY pkg/fanal/secret &&
        tree $MSU GeneratedRegexPatterns || return 1
    b build_upstream_tests.py noseyparker "$OUT" "$WORK/praetorian-inc+titus/pkg/rule/rules" \
        "$WORK/praetorian-inc+noseyparker/crates/noseyparker/data/default/builtin/rules" &&
        b build_upstream_tests.py secretlint "$OUT" "$WORK/secretlint+secretlint/packages/@secretlint" &&
        b build_upstream_tests.py trivy "$OUT" "$WORK/aquasecurity+trivy/pkg/fanal/secret" &&
        b build_upstream_tests.py msu "$OUT" "$WORK/microsoft+security-utilities/GeneratedRegexPatterns"
}

step_leakyrepo() {  # leakyrepo, leakyrepo-benign: tuned
    tree $LEAKY && b build_leakyrepo.py "$WORK/Plazmaz+leaky-repo" "$OUT"
}

step_semgrep() {  # semgrep, semgrep-negative: tuned
    tree $SEMGREP generic/secrets/security && b build_semgrep_secrets.py "$WORK/semgrep+semgrep-rules" "$OUT"
}

step_kics() {  # kics, kics-negative, kics-more, kics-more-negative: tuned
    tree $KICS assets/queries || return 1
    local q="$WORK/DataDog+kics/assets/queries"
    b build_kics.py "$q/common/passwords_and_secrets" "$OUT" && b build_kics.py --more "$q" "$OUT"
}

step_veles() {  # veles-tests, veles-neg: tuned
    tree $SCALIBR veles/secrets || return 1
    local s="$WORK/google+osv-scalibr/veles/secrets"
    b build_veles_tests.py "$s" >"$OUT/veles-tests.json" && b build_veles_tests.py --negatives "$s" >"$OUT/veles-neg.json"
}

step_checkov() {  # checkov, checkov-neg: tuned
    tree $CHECKOV tests/secrets || return 1
    local s="$WORK/bridgecrewio+checkov/tests/secrets"
    b build_checkov_secrets.py "$s" >"$OUT/checkov.json" && b build_checkov_secrets.py --negatives "$s" >"$OUT/checkov-neg.json"
}

step_ghpatterns() {  # ghpatterns, ghpatterns-neg: tuned
    tree $GHPATTERNS || return 1
    local s="$WORK/advanced-security+secret-scanning-custom-patterns"
    b build_custom_patterns.py "$s" >"$OUT/ghpatterns.json" && b build_custom_patterns.py --negatives "$s" >"$OUT/ghpatterns-neg.json"
}

step_bearer() {  # bearer, bearer-neg: tuned
    tree $BEARER tests || return 1
    local s="$WORK/Bearer+bearer-rules/tests"
    b build_bearer_secrets.py "$s" >"$OUT/bearer.json" && b build_bearer_secrets.py --negatives "$s" >"$OUT/bearer-neg.json"
}

step_publicapis() {  # publicapis, publicapis-short, publicapis-benign: tuned
    blob $PUBLIC_APIS README.md && blob $MARCELSCRUZ db/resources.json &&
        b build_publicapis.py "$WORK/public-apis+public-apis/README.md" "$WORK/marcelscruz+public-apis/db/resources.json" "$OUT"
}

step_credsweeper() {  # credsweeper-tune, credsweeper-neg-tune (tuned); credsweeper-held, credsweeper-neg-held (held out)
    tree $CREDSWEEPER tests/samples tests/data && b build_credsweeper.py "$WORK/Samsung+CredSweeper" "$OUT"
}

step_twoms() {  # twoms-tune, twoms-neg-tune (tuned); twoms-held, twoms-neg-held (held out)
    tree $TWOMS engine/rules/ruledefine && b build_twoms.py "$WORK/Checkmarx+2ms/engine/rules/ruledefine" "$OUT"
}

step_pubfiles() {  # pubfiles-tune (tuned), pubfiles-held (held out)
    pin_all "${PUBFILES[@]}" && b build_pubfiles.py "$OUT" $(gitdirs "${PUBFILES[@]}")
}

step_configfiles() {  # configfiles-{tune,held}, configfiles2-{tune,held}: the -held halves held out
    pin_all "${CONFIGFILES[@]}" "${CONFIGFILES2[@]}" &&
        b build_configfiles.py "$OUT" $(gitdirs "${CONFIGFILES[@]}") &&
        b build_configfiles.py --name=configfiles2 "$OUT" $(gitdirs "${CONFIGFILES2[@]}")
}

step_pubformats() {  # pubformats{,2,3}-{tune,held}: the -held halves held out
    pin_all "${PUBFORMATS[@]}" "${PUBFORMATS2[@]}" "${PUBFORMATS3[@]}" "${PUBFORMATS4[@]}" &&
        b build_pubformats.py "$OUT" $(gitdirs "${PUBFORMATS[@]}") &&
        b build_pubformats.py --name=pubformats2 "$OUT" $(gitdirs "${PUBFORMATS2[@]}") &&
        b build_pubformats.py --name=pubformats3 --ecosystems "$OUT" $(gitdirs "${PUBFORMATS3[@]}") &&
        b build_pubformats.py --name=pubformats4 --formats4 "$OUT" $(gitdirs "${PUBFORMATS4[@]}")
}

step_harvest() {  # public2, memnotes, idfiles: tuned (each builder names its repositories; all are in HARVEST)
    pin_all "${HARVEST[@]}" || return 1
    b build_public2.py --mirrors "$WORK/pinned" >"$OUT/public2.json" &&
        b build_memnotes.py --mirrors "$WORK/pinned" >"$OUT/memnotes.json" &&
        b build_idfiles.py --mirrors "$WORK/pinned" >"$OUT/idfiles.json"
}

STEPS=(patterns_db configsecrets2 trufflehog kingfisher betterleaks scanners upstream leakyrepo semgrep kics veles
    checkov ghpatterns bearer publicapis credsweeper twoms pubfiles configfiles pubformats harvest)
for step in ${ONLY:-${STEPS[@]}}; do
    start=$SECONDS
    if "step_$step"; then
        echo "ok   $step ($((SECONDS - start)) s)" >&2
    else
        echo "FAIL $step ($((SECONDS - start)) s)" >&2
        FAILED+=("$step")
    fi
done

# OUT/args.sh: --extra / --extra-benign for every part file present, --tuned for the tuned ones the benchmark's
# own list (TUNED) does not name. Whole files (trufflehog-tests.json, scanners.json) stay in WORK, not scored.
SECRET_PARTS="patterns-db patterns-db-stable kingfisher-more configsecrets-tune configsecrets-held configsecrets2-tune
configsecrets2-held trufflehog-tests-tune trufflehog-tests-held trufflehog-tests-tune-v2 trufflehog-tests-held-v2
betterleaks-tune betterleaks-held scan-whispers scan-ripsecrets scan-detect-secrets noseyparker secretlint trivy msu
leakyrepo semgrep kics kics-more veles-tests checkov ghpatterns bearer publicapis publicapis-short credsweeper-tune
credsweeper-held twoms-tune twoms-held"
BENIGN_PARTS="kingfisher-negative trufflehog-invalid-tune trufflehog-invalid-held scan-whispers-neg scan-ripsecrets-neg
noseyparker-negative secretlint-negative leakyrepo-benign semgrep-negative kics-negative kics-more-negative veles-neg
checkov-neg ghpatterns-neg bearer-neg publicapis-benign public2 memnotes idfiles prose-ids pubfiles-tune pubfiles-held
configfiles-tune configfiles-held configfiles2-tune configfiles2-held pubformats-tune pubformats-held pubformats2-tune
pubformats2-held pubformats3-tune pubformats3-held pubformats4-tune pubformats4-held credsweeper-neg-tune
credsweeper-neg-held twoms-neg-tune twoms-neg-held"
# scan-whispers and scan-detect-secrets were read in round 6 (docs/benchmarks.md) but every final run since has
# printed them beside the held-out parts ("no"); they stay so here, so the figures compare.
TUNED_EXTRA="trufflehog-tests-tune-v2 betterleaks-tune configsecrets-tune
configsecrets2-tune leakyrepo leakyrepo-benign semgrep semgrep-negative kics kics-negative kics-more kics-more-negative
veles-tests veles-neg checkov checkov-neg ghpatterns ghpatterns-neg bearer bearer-neg publicapis publicapis-short
publicapis-benign pubfiles-tune configfiles-tune configfiles2-tune pubformats-tune pubformats2-tune pubformats3-tune
pubformats4-tune credsweeper-tune credsweeper-neg-tune twoms-tune twoms-neg-tune"
{
    echo "# Written by benchmarks/secrets_corpus/rebuild.sh: every locally built part in $OUT."
    printf 'ALL_ARGS="'
    for p in $SECRET_PARTS; do [ -f "$OUT/$p.json" ] && printf -- '--extra %s ' "$OUT/$p.json"; done
    for p in $BENIGN_PARTS; do [ -f "$OUT/$p.json" ] && printf -- '--extra-benign %s ' "$OUT/$p.json"; done
    for p in $TUNED_EXTRA; do [ -f "$OUT/$p.json" ] && printf -- '--tuned %s ' "$p"; done
    echo '"'
} >"$OUT/args.sh"
echo "wrote $OUT/args.sh" >&2
if [ ${#FAILED[@]} -gt 0 ]; then
    echo "failed steps: ${FAILED[*]}" >&2
    exit 1
fi
