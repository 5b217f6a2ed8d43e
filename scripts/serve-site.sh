#!/usr/bin/env bash
# Starts nginx on a free loopback port serving a built site under its base URL's sub-path, with the site's
# 404.html for missing pages, gzip and ETags as hosts serve them, and prints the site's address once it
# answers. WORK_DIR/logs/access.log has a line per request: status, bytes sent in the body (compressed when
# gzipped), the request line, and bytes sent with the headers. nginx keeps running in the
# background; stop it with `kill "$(cat WORK_DIR/nginx.pid)"`.
# Usage: scripts/serve-site.sh PUBLIC_DIR SUB_PATH WORK_DIR   (e.g. public /catalogue/ "$(mktemp -d)")
set -euo pipefail
public=$(cd "$1" && pwd)
sub_path=$2
work=$3

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
    # Types the site writes that Debian's table leaves out (it would send them as text/plain, and gzip_types
    # would not match them); a second types block adds to the first.
    types { application/geo+json geojson; text/csv csv; }
    # Each request's status, body bytes sent (compressed when gzipped), request line, and bytes sent with the
    # headers (what a browser's resource timing counts; bench/run.py reads it for Pagefind's requests from a web
    # worker, which the page's own timing cannot see).
    log_format sent '\$status \$body_bytes_sent "\$request" \$bytes_sent';
    access_log $work/logs/access.log sent;
    # Compressed as hosts serve text.
    gzip on;
    gzip_vary on;
    gzip_types application/json application/geo+json application/atom+xml application/xml text/xml text/css text/csv
        application/javascript image/svg+xml;
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
# nginx keeps running, so it gets none of the caller's open files: a caller that waits for this script's
# output, or its end, would wait for nginx too.
if ! (
    for fd in /proc/$BASHPID/fd/*; do
        fd=${fd##*/}
        if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi
    done
    exec nginx -c "$work/nginx.conf" -p "$work"
) </dev/null >"$work/logs/start.log" 2>&1; then
    cat "$work/logs/start.log" >&2
    exit 1
fi
for _ in $(seq 50); do
    curl -fs -o /dev/null "http://127.0.0.1:$port$sub_path" && break
    sleep 0.1
done
echo "http://127.0.0.1:$port$sub_path"
