#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests, on 127.0.0.1 only, with trust authentication.
#
#   export LUDO_TEST_POSTGRES=$(scripts/test-postgres.sh start)   # prints the server's URL
#   cargo test -p ludo-server                                     # each test makes its own database
#   scripts/test-postgres.sh stop                                 # stops it and deletes its files
#
# `start` makes a cluster in $LUDO_TEST_POSTGRES_DIR (default /tmp/ludo-test-postgres) and starts
# it on the first free port from $LUDO_TEST_POSTGRES_PORT (default 55432), its socket in that
# directory too; started already, it prints the URL again. Run as root, the server runs as the
# `postgres` user (created if missing), since PostgreSQL refuses to run as root. The binaries are
# found on PATH or in Debian's /usr/lib/postgresql/<version>/bin.
set -euo pipefail

dir=${LUDO_TEST_POSTGRES_DIR:-/tmp/ludo-test-postgres}
first_port=${LUDO_TEST_POSTGRES_PORT:-55432}

say() { printf 'test-postgres: %s\n' "$*" >&2; }

bin_dir() {
  if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return
  fi
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$found" ]; then
    say "PostgreSQL is not installed (on Debian: apt-get install postgresql)"
    exit 1
  fi
  echo "$found"
}

# Runs a command as the user that owns the cluster.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

url() { echo "postgres://postgres@127.0.0.1:$(cat "$dir/port")/postgres"; }

running() { [ -f "$dir/port" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  if running; then
    url
    return
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    chown postgres "$dir"
  fi
  local port=$first_port
  while port_in_use "$port"; do
    port=$((port + 1))
    if [ "$port" -ge $((first_port + 50)) ]; then
      say "no free port from $first_port"
      exit 1
    fi
  done
  echo "$port" >"$dir/port"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-locale -E UTF8 \
    --no-instructions >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
  # Durability is not wanted here: no fsync makes the tests' many small databases quick.
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >&2 || { cat "$dir/server.log" >&2; exit 1; }
  say "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') serves on 127.0.0.1:$port (files in $dir)"
  url
}

stop() {
  if [ -d "$dir/data" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
  fi
  rm -rf "$dir"
}

bin=$(bin_dir)
case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) running && url ;;
  *)
    say "usage: $0 start|stop|url"
    exit 2
    ;;
esac
