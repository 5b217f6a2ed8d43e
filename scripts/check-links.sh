#!/usr/bin/env bash
# Serves a built site with nginx on loopback under its base URL's sub-path and crawls it with
# linkchecker; exits non-zero when any link, stylesheet, script or image is broken.
# Usage: scripts/check-links.sh PUBLIC_DIR SUB_PATH   (e.g. public /catalogue/)
set -euo pipefail
public=$(cd "$1" && pwd)
sub_path=$2
work=$(mktemp -d)
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT

# A free loopback port, chosen by the kernel.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/logs" "$work/tmp"
cat > "$work/nginx.conf" <<CONF
daemon on;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events {}
http {
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp;
    uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
    server {
        listen 127.0.0.1:$port;
        location $sub_path {
            alias $public/;
            # LinkChecker goes past 10 requests a second only to servers that answer with this header.
            add_header LinkChecker allowed;
            error_page 404 ${sub_path}404.html;
        }
    }
}
CONF
nginx -c "$work/nginx.conf" -p "$work"
for _ in $(seq 50); do
    curl -fs -o /dev/null "http://127.0.0.1:$port$sub_path" && break
    sleep 0.1
done
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port${sub_path}no-such-page/")
if [ "$status" != 404 ]; then echo "check-links: a missing page answered $status, not 404"; exit 1; fi
printf '[checking]\nmaxrequestspersecond=1000\nthreads=4\n' > "$work/linkcheckerrc"
# linkchecker follows every link, stylesheet, script and image within the site; it exits 1 on any broken one.
linkchecker --config "$work/linkcheckerrc" --no-status --no-warnings --no-robots "http://127.0.0.1:$port$sub_path" 2>&1 | tail -n 30
