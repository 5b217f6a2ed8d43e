#!/usr/bin/env bash
# Fuzzes parsing, validation and rendering (Fuzz/FuzzParseValidate) with libFuzzer for SECONDS (default 60), on one core.
# Not part of CI. Usage: scripts/fuzz.sh SECONDS [LIBFUZZER-FLAGS...], e.g. `scripts/fuzz.sh 600 -max_len=65536`
# to look for slow inputs among larger ones (later flags win).
# Seeds are every YAML and Markdown file of the example site and the test fixtures; the corpus libFuzzer
# grows is kept in .build-fuzz/corpus between runs. A crash or hang is saved in .build-fuzz/findings/: reproduce it with
# `.build-fuzz/release/FuzzParseValidate FILE`, fix it, and add it as a case under Tests/Fixtures/bad/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
scratch=.build-fuzz

# lld, because gold fails on the sanitized objects with an internal error.
NOTICEBOARD_FUZZ=1 swift build -c release --scratch-path "$scratch" --product FuzzParseValidate \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld

mkdir -p "$scratch/corpus" "$scratch/seeds" "$scratch/findings"
find content Tests/Fixtures -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.md' \) -size -64k | while read -r file; do
    cp "$file" "$scratch/seeds/$(printf '%s' "$file" | tr '/ ' '__')"
done

# -timeout: an input that takes over 5 s is reported as a hang. -rss_limit_mb: more than 2 GiB is a finding too, and
# -malloc_limit_mb: so is one allocation of 32 MB, 4,000 times the longest input (the target itself aborts when an
# input renders to more than 100 times its size plus 1 MB).
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
exec "$scratch/release/FuzzParseValidate" "$scratch/corpus" "$scratch/seeds" \
    -dict=Fuzz/yaml.dict -max_len=8192 -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=32 \
    -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$scratch/findings/" "${@:2}"
