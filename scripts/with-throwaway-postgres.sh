#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throwaway PostgreSQL server started in a
# temporary folder on a free loopback port, and removes the server afterwards.
# Usage: scripts/with-throwaway-postgres.sh <command> [args...]
set -euo pipefail

pg_bin=""
for candidate in "$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent)")" /usr/lib/postgresql/*/bin; do
  if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then pg_bin="$candidate"; break; fi
done
if [ -z "$pg_bin" ]; then
  echo "PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install -y postgresql" >&2
  exit 1
fi

data_dir=$(mktemp -d /tmp/shop-pg-XXXXXX)
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
as_postgres=()
# The server refuses to run as root (stack notes).
if [ "$(id -u)" = "0" ]; then
  chown postgres:postgres "$data_dir" 2>/dev/null || { useradd -r postgres && chown postgres:postgres "$data_dir"; }
  as_postgres=(runuser -u postgres --)
fi

cleanup() {
  "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$data_dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$data_dir"
}
trap cleanup EXIT

"${as_postgres[@]}" "$pg_bin/initdb" -D "$data_dir/data" -U postgres -A trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
"${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$data_dir/data" -l "$data_dir/server.log" -w \
  -o "-p $port -k $data_dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null

export DATABASE_URL="postgresql://postgres@127.0.0.1:$port/postgres"
echo "Throwaway PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on port $port"
set +e
"$@"
status=$?
set -e
exit $status
