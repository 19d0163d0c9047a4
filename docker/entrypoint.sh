#!/bin/sh
# The container's entrypoint: starts `semcache serve` from environment variables, then becomes it (exec), so
# SIGTERM from `docker stop` reaches the server, which finishes the requests in flight and closes the store.
#
#   SEMCACHE_API_KEY             the admin API key clients send as `Authorization: Bearer KEY`; or
#   SEMCACHE_API_KEY_FILE        a file holding it (a Docker or Kubernetes secret)
#   SEMCACHE_HOST                address to listen on (default 0.0.0.0: refused without an API key)
#   SEMCACHE_PORT                port (default 8000)
#   SEMCACHE_DATA_DIR            the data folder: SQLite store, index files (default /data)
#   SEMCACHE_CONFIG              a GPTCache YAML config (optional; its server.api_keys count as keys)
#   SEMCACHE_LOG_LEVEL           fatal, error, warn, info (default), debug, trace, silent
#   SEMCACHE_ALLOW_UNAUTHENTICATED=true   serve anyone who reaches the port, with no key (not advised)
#   SEMCACHE_BIN                 the semcache command (default semcache; tests point it at a local build)
#
# SEMCACHE_CREDENTIAL_SECRET, SEMCACHE_POSTGRES_URL, SEMCACHE_MYSQL_URL, SEMCACHE_REDIS_URL and OPENAI_API_KEY
# may also be given as *_FILE. Any arguments are passed on to `semcache serve` after these (so they win).
set -eu

fail() {
  printf 'semcache: %s\n' "$1" >&2
  exit 2
}

# NAME_FILE -> NAME: the variable's value read from a file (trailing newlines dropped); both set is an error.
from_file() {
  eval "value=\${$1:-} file=\${$1_FILE:-}"
  [ -n "$file" ] || return 0
  [ -z "$value" ] || fail "set $1 or $1_FILE, not both."
  [ -r "$file" ] || fail "$1_FILE names $file, which cannot be read."
  value=$(cat "$file")
  [ -n "$value" ] || fail "$1_FILE names $file, which is empty."
  export "$1=$value"
  unset "$1_FILE"
}

for name in SEMCACHE_API_KEY SEMCACHE_CREDENTIAL_SECRET SEMCACHE_POSTGRES_URL SEMCACHE_MYSQL_URL SEMCACHE_REDIS_URL OPENAI_API_KEY; do
  from_file "$name"
done
unset value file

host=${SEMCACHE_HOST:-0.0.0.0}
if [ -n "${SEMCACHE_CONFIG:-}" ]; then
  set -- --config "$SEMCACHE_CONFIG" "$@"
fi
set -- serve --host "$host" --port "${SEMCACHE_PORT:-8000}" --data-dir "${SEMCACHE_DATA_DIR:-/data}" \
  --log-level "${SEMCACHE_LOG_LEVEL:-info}" "$@"

if [ -n "${SEMCACHE_API_KEY:-}" ]; then
  # The server reads the key from the environment: it never appears in the process list.
  set -- "$@" --api-key-env SEMCACHE_API_KEY
elif [ "${SEMCACHE_ALLOW_UNAUTHENTICATED:-}" = "true" ]; then
  set -- "$@" --allow-unauthenticated
elif [ -z "${SEMCACHE_CONFIG:-}" ]; then
  case "$host" in
    localhost | 127.* | ::1 | "[::1]") ;;
    *)
      fail "refusing to listen on $host with no API key: anyone who can reach the port could read and write the cache. \
Set SEMCACHE_API_KEY (or SEMCACHE_API_KEY_FILE, a file such as a Docker secret holding it); or listen on 127.0.0.1 \
(SEMCACHE_HOST); or set SEMCACHE_ALLOW_UNAUTHENTICATED=true."
      ;;
  esac
fi
# With a config file and no key here, `semcache serve` checks the file's server.api_keys itself.

exec "${SEMCACHE_BIN:-semcache}" "$@"
