#!/usr/bin/env bash
# Serves a built site with nginx on loopback under its base URL's sub-path and crawls it with
# linkchecker; exits non-zero when any link, stylesheet, script or image is broken.
# Usage: scripts/check-links.sh PUBLIC_DIR SUB_PATH   (e.g. public /catalogue/)
set -euo pipefail
work=$(mktemp -d)
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT

site=$("$(dirname "$0")/serve-site.sh" "$1" "$2" "$work")
status=$(curl -s -o /dev/null -w '%{http_code}' "${site}no-such-page/")
if [ "$status" != 404 ]; then echo "check-links: a missing page answered $status, not 404"; exit 1; fi
printf '[checking]\nmaxrequestspersecond=1000\nthreads=4\n' > "$work/linkcheckerrc"
# linkchecker follows every link, stylesheet, script and image within the site; it exits 1 on any broken one.
linkchecker --config "$work/linkcheckerrc" --no-status --no-warnings --no-robots "$site" 2>&1 | tail -n 30
