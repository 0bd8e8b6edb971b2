#!/usr/bin/env bash
# A local cluster of ludo-server nodes behind HAProxy, sharing one PostgreSQL database: for trying
# failover, rolling restarts and load tests on one machine.
#
#   URL=$(scripts/cluster.sh start [NODES])  # NODES nodes (default 3); prints the balancer's URL
#   scripts/cluster.sh status                # each node's pid and health, and the balancer's
#   scripts/cluster.sh kill N                # SIGKILL node N (a crash, for failover tests)
#   scripts/cluster.sh start-node N          # start node N again, as it was started
#   scripts/cluster.sh restart-node N        # drain node N, stop it (SIGTERM), start it again
#   scripts/cluster.sh rolling-restart       # restart-node for each node in turn
#   scripts/cluster.sh stop                  # stop the balancer, the nodes and PostgreSQL
#
# Nothing is built: the nodes run ${LUDO_SERVER:-target/release/ludo-server} (the workspace's
# target directory, or $CARGO_TARGET_DIR's), so run `cargo build --release -p ludo-server` first.
# A restarted node runs the binary found there then: rebuild, then `rolling-restart`.
#
# The database: the PostgreSQL server named by LUDO_DB if it is a postgres:// or postgresql:// URL,
# else a throwaway one started with scripts/test-postgres.sh (its files under the state directory,
# on the first free port from 55432), which `stop` stops and deletes.
#
# The nodes listen on 127.0.0.1, ports $LUDO_CLUSTER_NODE_PORT (default 8081), +1, +2...; node N is
# started with `--node nodeN`, so it keeps its name across restarts. The balancer listens on
# $LUDO_CLUSTER_BIND:$LUDO_CLUSTER_PORT (default 127.0.0.1:8080; 0.0.0.0 opens it to the network)
# and shows its stats page on 127.0.0.1:$LUDO_CLUSTER_STATS_PORT (default 8404). Its configuration
# is made from scripts/haproxy.cfg; it refuses a client address more than
# $LUDO_CLUSTER_MAX_CONNECTIONS_PER_IP open connections (default 100000: on one machine every
# client has the same address).
#
# Every LUDO_* variable set when `start` runs (LUDO_CPU_DELAY_MS, LUDO_LEASE_MS, LUDO_LOG...) is
# passed to the nodes, and saved: nodes started later by this script get the same ones, whatever
# the environment then (edit $LUDO_CLUSTER_DIR/env to change them for the next restarts).
#
# Files, in $LUDO_CLUSTER_DIR (default /tmp/ludo-cluster): nodeN.log (each node's output, kept
# across its restarts), haproxy.log, haproxy.cfg, *.pid, and postgres/ (the throwaway database,
# its log in postgres/server.log). `start` empties the logs; `stop` keeps them.
#
# Only the URL goes to stdout (`status` prints to stdout too); all messages go to stderr.
# Works as root or as a normal user (PostgreSQL then runs as the `postgres` user, see
# scripts/test-postgres.sh). Needs bash, HAProxy, and curl or bash's /dev/tcp.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${LUDO_CLUSTER_DIR:-/tmp/ludo-cluster}
# How long to wait for a node or the balancer to answer, and for a stopping node to exit.
wait_secs=${LUDO_CLUSTER_WAIT_SECS:-30}
stop_secs=${LUDO_CLUSTER_STOP_SECS:-15}

say() { printf 'cluster: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

usage() {
  grep -E '^#   (URL=\$\()?scripts/cluster.sh ' "${BASH_SOURCE[0]}" | sed 's/^#   /usage: /' >&2
  exit 2
}

# ---------------------------------------------------------------------------------------------
# HTTP, with curl or else bash's /dev/tcp.

# The HTTP status of GET URL (http://HOST:PORT/PATH), or 000 when nothing answers.
http_code() {
  if command -v curl >/dev/null; then
    curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$1" || true
  else
    http_raw "$1" | head -n 1 | awk '{ print $2 }' | grep . || echo 000
  fi
}

# The body of GET URL, empty when nothing answers.
http_body() {
  if command -v curl >/dev/null; then
    curl -s --max-time 2 "$1" || true
  else
    http_raw "$1" | sed '1,/^\r\?$/d'
  fi
}

# The whole HTTP/1.0 response to GET URL, headers included.
http_raw() {
  local rest=${1#http://}
  local hostport=${rest%%/*} path=/${rest#*/}
  [ "$rest" = "$hostport" ] && path=/
  timeout 3 bash -c '
    exec 3<>"/dev/tcp/${1%:*}/${1##*:}" || exit 0
    printf "GET %s HTTP/1.0\r\nHost: %s\r\n\r\n" "$2" "$1" >&3
    cat <&3' _ "$hostport" "$path" 2>/dev/null || true
}

# Whether something listens on 127.0.0.1:PORT.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Waits until URL answers 200; false after $wait_secs seconds, or at once when process PID (if
# given) is gone.
wait_healthy() {
  local url=$1 pid=${2:-} deadline=$((SECONDS + wait_secs))
  while [ "$(http_code "$url")" != 200 ]; do
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
    if [ "$SECONDS" -ge "$deadline" ]; then return 1; fi
    sleep 0.2
  done
}

# ---------------------------------------------------------------------------------------------
# The state directory: cluster.conf (what `start` decided), env (the nodes' LUDO_* variables),
# pid files and logs.

load_conf() {
  [ -f "$dir/cluster.conf" ] || die "no cluster in $dir (start one with: $0 start)"
  # shellcheck source=/dev/null
  . "$dir/cluster.conf"
}

node_url() { echo "http://127.0.0.1:$((node_port + $1 - 1))"; }

# The pid in FILE if that process is alive and still the one that was started (its command line
# holds WORD as a whole argument), else nothing.
live_pid() {
  local file=$1 word=$2 pid
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  kill -0 "$pid" 2>/dev/null || return 0
  if [ -r "/proc/$pid/cmdline" ] && ! tr '\0' '\n' <"/proc/$pid/cmdline" | grep -xF -- "$word" >/dev/null; then
    return 0
  fi
  echo "$pid"
}

node_pid() { live_pid "$dir/node$1.pid" "node$1"; }
haproxy_pid() { live_pid "$dir/haproxy.pid" "$dir/haproxy.cfg"; }

check_node_number() {
  [[ ${1:-} =~ ^[1-9][0-9]*$ ]] && [ "$1" -le "$nodes" ] ||
    die "no node '${1:-}': nodes are numbered 1 to $nodes"
}

# Runs a command in the background, in a session of its own (so that the caller's Ctrl-C or
# hang-up does not reach it), with no terminal and its output appended to LOG; writes its pid to
# PIDFILE. The lock's descriptor is closed in it, or the lock would live as long as the process.
launch() {
  local pidfile=$1 log=$2
  shift 2
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@" </dev/null >>"$log" 2>&1 9>&- &
  local i
  for i in $(seq 50); do
    [ -s "$pidfile" ] && return
    sleep 0.1
  done
  die "could not start $1"
}

# Sends SIGTERM to the PIDs, waits up to $stop_secs seconds for them to exit, then sends SIGKILL
# to those left.
terminate() {
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  local deadline=$((SECONDS + stop_secs)) pid left
  while :; do
    left=()
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && left+=("$pid"); done
    [ ${#left[@]} -eq 0 ] && return
    if [ "$SECONDS" -ge "$deadline" ]; then
      say "still running after ${stop_secs}s, killing: ${left[*]}"
      kill -KILL "${left[@]}" 2>/dev/null || true
      return
    fi
    sleep 0.1
  done
}

# ---------------------------------------------------------------------------------------------
# Nodes.

# Starts node N in the environment saved by `start` and waits for its /healthz.
start_node() {
  local n=$1 port=$((node_port + $1 - 1)) pid
  pid=$(node_pid "$n")
  [ -z "$pid" ] || die "node$n is running already (pid $pid)"
  port_in_use "$port" && die "port $port (node$n's) is in use by another program"
  [ -x "$server" ] || die "$server is missing: build it with cargo build --release -p ludo-server"
  rm -f "$dir/node$n.pid"
  printf '\n=== cluster.sh: node%s starting at %s ===\n' "$n" "$(date -Is)" >>"$dir/node$n.log"
  (
    # The LUDO_* variables of `start`, and no others.
    for var in $(compgen -e); do [[ $var == LUDO_* ]] && unset "$var"; done
    # shellcheck source=/dev/null
    . "$dir/env"
    launch "$dir/node$n.pid" "$dir/node$n.log" "$server" --addr "127.0.0.1:$port" --node "node$n"
  )
  pid=$(cat "$dir/node$n.pid")
  if ! wait_healthy "$(node_url "$n")/healthz" "$pid"; then
    say "node$n did not become healthy; the end of $dir/node$n.log:"
    tail -n 20 "$dir/node$n.log" >&2
    return 1
  fi
  say "node$n is up on 127.0.0.1:$port (pid $pid)"
  # Undoes the drain of restart_node (or of an operator), if any.
  haproxy_cmd "set server nodes/node$n state ready" >&2 || true
}

# Restarts node N, and waits until the balancer sends it connections again. The balancer first
# stops sending it new connections ("drain"), so that its rooms' clients, told goodbye when it
# stops, go straight to the node that takes its place on the hash ring. Without that, they would
# meet a node refusing connections until the health checks mark it down, and be redispatched to
# some other node first.
restart_node() {
  local n=$1
  if haproxy_cmd "set server nodes/node$n state drain" >&2; then
    say "the balancer sends node$n no new connections"
  fi
  stop_node "$n"
  start_node "$n"
  wait_balancer_sees "$n"
  say "the balancer sees node$n up"
}

# Stops node N gently (SIGTERM: it refuses new connections, says goodbye to its clients, hands
# its rooms over, and exits), or kills it after $stop_secs seconds.
stop_node() {
  local n=$1 pid
  pid=$(node_pid "$n")
  if [ -z "$pid" ]; then
    say "node$n is not running"
  else
    say "stopping node$n (pid $pid)"
    terminate "$pid"
  fi
  rm -f "$dir/node$n.pid"
}

# Sends one command to HAProxy's admin socket (with perl, which Debian always has, or socat) and
# prints the answer; false when HAProxy does not run or neither program is there.
haproxy_cmd() {
  local sock=$dir/haproxy.sock answer
  [ -S "$sock" ] && [ -n "$(haproxy_pid)" ] || return 1
  if command -v perl >/dev/null; then
    answer=$(perl -MIO::Socket::UNIX -e '
      my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "cannot reach $ARGV[0]: $!\n";
      print $s "$ARGV[1]\n";
      print while <$s>;' "$sock" "$1")
  elif command -v socat >/dev/null; then
    answer=$(echo "$1" | socat stdio "UNIX-CONNECT:$sock")
  else
    return 1
  fi
  # Commands that succeed answer an empty line.
  if [ -n "${answer//[[:space:]]/}" ]; then printf '%s\n' "$answer"; fi
}

# HAProxy's view of node N (UP, DOWN, "UP 1/2" while changing, MAINT...), from its stats CSV.
haproxy_view() {
  http_body "http://127.0.0.1:$stats_port/;csv" |
    awk -F, -v s="node$1" '$1 == "nodes" && $2 == s { print $18 }'
}

# Waits until HAProxy marks node N up; with no answer from its stats page, waits two seconds
# (more than two health checks).
wait_balancer_sees() {
  local n=$1 deadline=$((SECONDS + wait_secs)) view
  while :; do
    view=$(haproxy_view "$n")
    if [ -z "$view" ]; then
      sleep 2
      return
    fi
    [ "$view" = UP ] && return
    [ "$SECONDS" -ge "$deadline" ] && die "the balancer still sees node$n as '$view'"
    sleep 0.2
  done
}

# ---------------------------------------------------------------------------------------------
# Commands.

cmd_start() {
  local want=${1:-3}
  [[ $want =~ ^[1-9][0-9]*$ ]] || die "NODES must be a positive number, not '$want'"
  command -v haproxy >/dev/null || die "HAProxy is not installed (on Debian: apt-get install haproxy)"
  command -v setsid >/dev/null || die "setsid (util-linux) is needed"

  mkdir -p "$dir"
  exec 9>"$dir/lock"
  flock -n 9 || die "another cluster.sh command is running on $dir"
  if [ -f "$dir/cluster.conf" ]; then
    load_conf
    local n running=
    for n in $(seq "$nodes"); do [ -n "$(node_pid "$n")" ] && running=1; done
    [ -n "$(haproxy_pid)" ] && running=1
    [ -z "$running" ] || die "a cluster is running already in $dir (see: $0 status; stop it with: $0 stop)"
    say "cleaning up after a cluster that is no longer running"
    cmd_stop_locked
  fi

  nodes=$want
  node_port=${LUDO_CLUSTER_NODE_PORT:-8081}
  port=${LUDO_CLUSTER_PORT:-8080}
  bind=${LUDO_CLUSTER_BIND:-127.0.0.1}
  stats_port=${LUDO_CLUSTER_STATS_PORT:-8404}
  server=${LUDO_SERVER:-${CARGO_TARGET_DIR:-$repo/target}/release/ludo-server}
  [[ $server == /* ]] || server=$PWD/$server
  [ -x "$server" ] || die "$server is missing: build it first with cargo build --release -p ludo-server (or set LUDO_SERVER)"
  [[ $dir != *[[:space:]]* ]] || die "the state directory's path may not contain spaces: $dir"
  local p
  for p in "$port" "$stats_port" $(seq "$node_port" $((node_port + nodes - 1))); do
    port_in_use "$p" && die "port $p is in use (see LUDO_CLUSTER_PORT, LUDO_CLUSTER_NODE_PORT, LUDO_CLUSTER_STATS_PORT)"
  done

  # From here on, a failure stops whatever was started.
  trap start_failed EXIT
  rm -f "$dir"/*.log "$dir"/*.pid

  # The database.
  own_postgres=
  if [[ ${LUDO_DB:-} =~ ^postgres(ql)?:// ]]; then
    say "using the database in LUDO_DB"
  else
    # PostgreSQL, run as the `postgres` user when we are root, must be able to reach its
    # directory under ours.
    [ "$(id -u)" = 0 ] && chmod a+x "$dir"
    own_postgres=1
    write_conf # so that `stop` can stop it should the rest fail
    LUDO_DB=$(LUDO_TEST_POSTGRES_DIR="$dir/postgres" "$repo/scripts/test-postgres.sh" start 9>&-)
    export LUDO_DB
  fi

  # The nodes believe the balancer's X-Forwarded-For (it is on this machine), so their limits
  # on new rooms, identities, room codes and ranked searches apply to each client's own address. Connections per address
  # are capped in the balancer instead (LUDO_CLUSTER_MAX_CONNECTIONS_PER_IP), since the nodes see
  # every connection come from the balancer. On one machine every client has the same address:
  # unless told otherwise, the limits are high enough not to get in the way of a load test, and
  # ranked search may match people "from the same address". Keep the servers' own defaults on a
  # real deployment (see docs/operations.md).
  export LUDO_TRUSTED_PROXIES=${LUDO_TRUSTED_PROXIES:-127.0.0.1}
  export LUDO_MAX_CONNECTIONS_PER_IP=${LUDO_MAX_CONNECTIONS_PER_IP:-100000}
  export LUDO_ROOMS_PER_MINUTE=${LUDO_ROOMS_PER_MINUTE:-100000}
  export LUDO_SEEKS_PER_MINUTE=${LUDO_SEEKS_PER_MINUTE:-100000}
  export LUDO_IDENTITIES_PER_MINUTE=${LUDO_IDENTITIES_PER_MINUTE:-100000}
  export LUDO_MISSED_CODES_PER_MINUTE=${LUDO_MISSED_CODES_PER_MINUTE:-100000}
  export LUDO_MATCH_SAME_ADDRESS=${LUDO_MATCH_SAME_ADDRESS:-true}

  # The nodes' environment: every LUDO_* variable but this script's own.
  (
    umask 077
    local var
    for var in $(compgen -e); do
      if [[ $var == LUDO_* && $var != LUDO_CLUSTER_* && $var != LUDO_SERVER ]]; then
        printf 'export %s=%q\n' "$var" "${!var}"
      fi
    done >"$dir/env"
  )
  write_conf

  local n
  for n in $(seq "$nodes"); do start_node "$n"; done

  render_haproxy_cfg >"$dir/haproxy.cfg"
  haproxy -c -q -f "$dir/haproxy.cfg" || die "HAProxy refuses $dir/haproxy.cfg"
  launch "$dir/haproxy.pid" "$dir/haproxy.log" haproxy -db -f "$dir/haproxy.cfg"
  local host=$bind
  [ "$host" = 0.0.0.0 ] && host=127.0.0.1
  local url="http://$host:$port"
  if ! wait_healthy "$url/healthz" "$(cat "$dir/haproxy.pid")"; then
    say "the balancer does not answer on $url; the end of $dir/haproxy.log:"
    tail -n 20 "$dir/haproxy.log" >&2
    false
  fi
  trap - EXIT
  say "$nodes nodes behind $url (stats: http://127.0.0.1:$stats_port/, files: $dir)"
  echo "$url"
}

# On leaving `start` before its end: stops what it started.
start_failed() {
  local status=$?
  [ "$status" = 0 ] && return
  say "start failed; stopping what was started"
  cmd_stop_locked || true
  exit "$status"
}

write_conf() {
  cat >"$dir/cluster.conf" <<EOF
nodes=$nodes
node_port=$node_port
port=$port
bind=$bind
stats_port=$stats_port
server=$(printf %q "$server")
own_postgres=${own_postgres:-}
EOF
}

# scripts/haproxy.cfg with its placeholders filled, and its opening comment (on filling it in)
# replaced.
render_haproxy_cfg() {
  local line n header=1
  echo "# Made by scripts/cluster.sh from scripts/haproxy.cfg on $(date -Is)."
  while IFS= read -r line || [ -n "$line" ]; do
    if [ -n "$header" ]; then
      [[ $line == '#'* ]] && continue
      header=
    fi
    if [[ $line =~ ^[[:space:]]*@SERVERS@[[:space:]]*$ ]]; then
      for n in $(seq "$nodes"); do
        printf '    server node%s 127.0.0.1:%s id %s\n' "$n" $((node_port + n - 1)) "$n"
      done
      continue
    fi
    line=${line//@BIND@/$bind}
    line=${line//@PORT@/$port}
    line=${line//@STATS_PORT@/$stats_port}
    line=${line//@MAX_PER_IP@/${LUDO_CLUSTER_MAX_CONNECTIONS_PER_IP:-100000}}
    line=${line//@STATE_DIR@/$dir}
    printf '%s\n' "$line"
  done <"$repo/scripts/haproxy.cfg"
}

cmd_stop() {
  [ -d "$dir" ] || {
    say "nothing to stop in $dir"
    return
  }
  exec 9>"$dir/lock"
  flock -n 9 || die "another cluster.sh command is running on $dir"
  if [ ! -f "$dir/cluster.conf" ]; then
    say "nothing to stop in $dir"
    return
  fi
  load_conf
  cmd_stop_locked
}

# Stops everything that cluster.conf names; keeps the logs.
cmd_stop_locked() {
  local pid n pids=()
  pid=$(haproxy_pid)
  if [ -n "$pid" ]; then
    say "stopping the balancer (pid $pid)"
    terminate "$pid"
  fi
  for n in $(seq "${nodes:-0}"); do
    pid=$(node_pid "$n")
    [ -n "$pid" ] && pids+=("$pid")
  done
  if [ ${#pids[@]} -gt 0 ]; then
    say "stopping the nodes (pids ${pids[*]})"
    terminate "${pids[@]}"
  fi
  if [ -n "${own_postgres:-}" ]; then
    say "stopping PostgreSQL"
    LUDO_TEST_POSTGRES_DIR="$dir/postgres" "$repo/scripts/test-postgres.sh" stop 9>&-
  fi
  rm -f "$dir"/*.pid "$dir/cluster.conf" "$dir/env" "$dir/haproxy.sock"
  say "stopped (logs kept in $dir)"
}

cmd_status() {
  load_conf
  local n pid alive health view
  for n in $(seq "$nodes"); do
    pid=$(node_pid "$n")
    if [ -n "$pid" ]; then alive=running; else alive=down pid=-; fi
    health=$(http_code "$(node_url "$n")/healthz")
    view=$(haproxy_view "$n")
    printf 'node%-3s 127.0.0.1:%-6s pid %-8s %-8s healthz %s   balancer sees: %s\n' \
      "$n" $((node_port + n - 1)) "$pid" "$alive" "$health" "${view:-?}"
  done
  pid=$(haproxy_pid)
  if [ -n "$pid" ]; then alive=running; else alive=down pid=-; fi
  local host=$bind
  [ "$host" = 0.0.0.0 ] && host=127.0.0.1
  printf 'balancer %s:%-6s pid %-8s %-8s healthz %s   stats: http://127.0.0.1:%s/\n' \
    "$bind" "$port" "$pid" "$alive" "$(http_code "http://$host:$port/healthz")" "$stats_port"
  if [ -n "$own_postgres" ]; then
    printf 'database %s (throwaway, in %s/postgres)\n' \
      "$(LUDO_TEST_POSTGRES_DIR="$dir/postgres" "$repo/scripts/test-postgres.sh" url || echo 'not running')" "$dir"
  else
    echo "database: the one in LUDO_DB at start"
  fi
}

# The commands that act on running nodes take the lock, so that two of them do not mix.
lock() {
  exec 9>"$dir/lock"
  flock -n 9 || die "another cluster.sh command is running on $dir"
}

cmd_kill() {
  load_conf
  check_node_number "${1:-}"
  lock
  local pid
  pid=$(node_pid "$1")
  [ -n "$pid" ] || die "node$1 is not running"
  kill -KILL "$pid"
  say "node$1 (pid $pid) killed"
}

cmd_start_node() {
  load_conf
  check_node_number "${1:-}"
  lock
  start_node "$1"
}

cmd_restart_node() {
  load_conf
  check_node_number "${1:-}"
  lock
  restart_node "$1"
}

cmd_rolling_restart() {
  load_conf
  lock
  local n
  for n in $(seq "$nodes"); do
    [ -n "$(node_pid "$n")" ] || die "node$n is down: start it first ($0 start-node $n)"
  done
  for n in $(seq "$nodes"); do
    restart_node "$n"
  done
  say "rolling restart done"
}

case "${1:-}" in
  start) cmd_start "${@:2}" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  kill) cmd_kill "${2:-}" ;;
  start-node) cmd_start_node "${2:-}" ;;
  restart-node) cmd_restart_node "${2:-}" ;;
  rolling-restart) cmd_rolling_restart ;;
  *) usage ;;
esac
