#!/bin/sh
# Byte-identity check for changes that should not change output: builds the example site and a generated
# S catalogue (1,000 cleaners, 1,000 rentals, 2,000 quotes, seed 1, as `make bench` makes it) with two
# executables and compares the two outputs file by file.
#
#   scripts/compare-output.sh BASELINE NEW_BIN [WORK]
#
# BASELINE is an executable, or a folder a former run left (WORK/baseline, holding example/ and S/), to
# compare against without building it again. WORK (default .build/compare-output) keeps both outputs.
# NEW_ONLY is a space-separated list of shell patterns for paths only the new output may have (an output
# added on purpose); their entries in api/manifest.json are left out of the comparison too.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 BASELINE_BIN_OR_FOLDER NEW_BIN [WORK]" >&2
    exit 2
fi
repository=$(cd "$(dirname "$0")/.." && pwd)
baseline=$1
new=$(realpath "$2")
work=${3:-$repository/.build/compare-output}
mkdir -p "$work"
work=$(realpath "$work")

# The two sites, made once: the example site's content and templates, and a generated catalogue.
sites=$work/sites
if [ ! -d "$sites/S" ]; then
    rm -rf "$sites"
    mkdir -p "$sites/example"
    cp -r "$repository/content" "$repository/templates" "$sites/example/"
    "$new" generate --output "$sites/S" --example "$repository" --seed 1 --cleaners=1000 --rentals=1000 --quotes=2000 >/dev/null
fi

# build BIN OUT: both sites into OUT/example and OUT/S, from scratch (no cache of a former build).
build() {
    rm -rf "$2"
    mkdir -p "$2"
    for site in example S; do
        rm -rf "$sites/$site/.noticeboard-cache/build-"* "$sites/$site/.noticeboard-cache/serve"
        "$1" build --root "$sites/$site" --output "$2/$site" --now 2026-11-23 --quiet
        rm -rf "$2/.$site.staging"
    done
}

if [ -d "$baseline" ]; then
    old=$(realpath "$baseline")
else
    old=$work/baseline
    build "$(realpath "$baseline")" "$old"
fi
build "$new" "$work/new"

python3 - "$old" "$work/new" "${NEW_ONLY:-}" <<'EOF'
import fnmatch, json, os, sys

old_root, new_root, new_only = sys.argv[1], sys.argv[2], sys.argv[3].split()

def tree(root):
    found = set()
    for folder, _, names in os.walk(root):
        found.update(os.path.relpath(os.path.join(folder, name), root) for name in names)
    return found

def expected_new(path):
    return any(fnmatch.fnmatch(path, pattern) for pattern in new_only)

def read(path, site_relative):
    with open(path, "rb") as handle:
        data = handle.read()
    if site_relative == "api/manifest.json" and new_only:
        manifest = json.loads(data)
        manifest["files"] = [entry for entry in manifest["files"] if not expected_new(entry["path"])]
        return json.dumps(manifest, sort_keys=True).encode()
    return data

problems, added, compared = [], [], 0
for site in ["example", "S"]:
    old, new = os.path.join(old_root, site), os.path.join(new_root, site)
    old_files, new_files = tree(old), tree(new)
    for path in sorted(old_files - new_files):
        problems.append(f"{site}: only in the baseline: {path}")
    for path in sorted(new_files - old_files):
        (added if expected_new(path) else problems).append(f"{site}: only in the new output: {path}")
    for path in sorted(old_files & new_files):
        compared += 1
        if read(os.path.join(old, path), path) != read(os.path.join(new, path), path):
            problems.append(f"{site}: differs: {path}")
for line in added:
    print(line + " (expected)")
for line in problems[:50]:
    print(line)
if len(problems) > 50:
    print(f"... and {len(problems) - 50} more")
print(f"{compared} files compared, {len(added)} expected new, {len(problems)} differences")
sys.exit(1 if problems else 0)
EOF
