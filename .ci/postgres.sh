#!/usr/bin/env bash
# Sourced by .ci/run: starts a throwaway PostgreSQL cluster on loopback for
# the queue tests and exports DOCREVIEW_TEST_DATABASE_URL. Installs the
# Debian postgresql package when no server binaries are found. The cluster
# lives in a temporary directory and is stopped when the calling shell exits.
pg_bin=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && pg_bin=$d
done
if [ -z "$pg_bin" ]; then
  apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && pg_bin=$d
  done
fi
[ -n "$pg_bin" ] || { echo ".ci/postgres.sh: no PostgreSQL server binaries" >&2; return 1; }

pg_dir=$(mktemp -d /tmp/docreview-pg.XXXXXX)
pg_port=${DOCREVIEW_PG_PORT:-55432}
run_pg() {
  # initdb and postgres refuse to run as root.
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown -R postgres "$pg_dir"
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}
run_pg "$pg_bin/initdb" -D "$pg_dir/data" -U docreview --auth=trust >/dev/null
run_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w \
  -o "-h 127.0.0.1 -p $pg_port -k $pg_dir -c fsync=off -c max_connections=200" start >/dev/null
trap 'run_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$pg_dir"' EXIT
run_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U docreview docreview_test
export DOCREVIEW_TEST_DATABASE_URL="postgres://docreview@127.0.0.1:$pg_port/docreview_test?sslmode=disable"
export DOCREVIEW_REQUIRE_POSTGRES=1
echo ".ci/postgres.sh: PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port"
