#!/usr/bin/env bash
# Starts nginx on a free loopback port serving a built site under its base URL's sub-path, with the site's
# 404.html for missing pages, text gzipped, and prints the site's address once it answers. nginx keeps running in the
# background; stop it with `kill "$(cat WORK_DIR/nginx.pid)"`. WORK_DIR/logs/access.log lists each request's path
# and bytes sent.
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
    # Each request's path and bytes sent (headers included), for measurements that the browser's resource
    # timing cannot see (requests from web workers: bench/run.py's Pagefind query).
    log_format sizes '\$request_uri \$bytes_sent';
    access_log $work/logs/access.log sizes;
    # Compressed as a host serves text (measured by the search checks: scripts/site_check/search_weight.py).
    gzip on; gzip_comp_level 6; gzip_min_length 256;
    gzip_types text/css application/javascript application/json image/svg+xml application/xml text/xml application/atom+xml;
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
echo "http://127.0.0.1:$port$sub_path"
