#!/usr/bin/env bash
# Starts two instances of the sample behind nginx (round-robin, loopback only) for manual testing:
#
#   scripts/scale-out.sh            # nginx on http://127.0.0.1:8080/mcp, instances on 3001 and 3002
#   PORT=9000 A_PORT=4001 B_PORT=4002 scripts/scale-out.sh
#
# Both instances share one MOCAPI_MRTR_SECRET (generated unless set), so an MRTR round trip may land on
# either. Every response carries X-Upstream (the instance's address, added by nginx). Ctrl-C stops all.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PORT="${PORT:-8080}"
A_PORT="${A_PORT:-3001}"
B_PORT="${B_PORT:-3002}"
NGINX="$(command -v nginx || true)"
[ -z "$NGINX" ] && [ -x /usr/sbin/nginx ] && NGINX=/usr/sbin/nginx
if [ -z "$NGINX" ]; then
  echo "nginx not found: install nginx: apt-get install -y nginx" >&2
  exit 1
fi
export MOCAPI_MRTR_SECRET="${MOCAPI_MRTR_SECRET:-$(node -e 'console.log(require("crypto").randomBytes(32).toString("base64"))')}"

if [ ! -f "$ROOT/dist/sample/main.js" ] || [ -n "$(find "$ROOT/lib" "$ROOT/sample" -name '*.ts' -newer "$ROOT/dist/sample/main.js" -print -quit)" ]; then
  echo "building (npx tsc -p tsconfig.build.json)…"
  (cd "$ROOT" && npx tsc -p tsconfig.build.json)
fi

DIR="$(mktemp -d -t nest-mcp-scale-out.XXXXXX)"
mkdir -p "$DIR"/{client_body,proxy,fastcgi,uwsgi,scgi}
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$DIR"
}
trap cleanup EXIT INT TERM

USER_LINE=""
[ "$(id -u)" = "0" ] && USER_LINE="user root;"
cat >"$DIR/nginx.conf" <<CONF
$USER_LINE
daemon off;
worker_processes 1;
pid $DIR/nginx.pid;
error_log $DIR/error.log warn;
events { worker_connections 512; }
http {
  access_log $DIR/access.log;
  client_body_temp_path $DIR/client_body;
  proxy_temp_path $DIR/proxy;
  fastcgi_temp_path $DIR/fastcgi;
  uwsgi_temp_path $DIR/uwsgi;
  scgi_temp_path $DIR/scgi;
  client_max_body_size 2m;

  upstream mcp {
    server 127.0.0.1:$A_PORT;
    server 127.0.0.1:$B_PORT;
    keepalive 16;
  }

  server {
    listen 127.0.0.1:$PORT;
    location /mcp {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      add_header X-Upstream \$upstream_addr always;
    }
  }
}
CONF

(cd "$ROOT" && PORT="$A_PORT" HOST=127.0.0.1 node dist/sample/main.js) & PIDS+=($!)
(cd "$ROOT" && PORT="$B_PORT" HOST=127.0.0.1 node dist/sample/main.js) & PIDS+=($!)
"$NGINX" -t -c "$DIR/nginx.conf" -p "$DIR"
"$NGINX" -c "$DIR/nginx.conf" -p "$DIR" & PIDS+=($!)

echo "nginx: http://127.0.0.1:$PORT/mcp → 127.0.0.1:$A_PORT, 127.0.0.1:$B_PORT (config: $DIR/nginx.conf). Ctrl-C to stop."
wait
