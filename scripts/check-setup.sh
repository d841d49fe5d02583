#!/usr/bin/env bash
# Checks the set-up steps of scripts/test.sh (scripts/setup.sh) where no
# PostgreSQL runs and SEQUENCE_TEST_POSTGRES_URL is not set:
#  1. without the URL (and not in quick mode) a PostgreSQL test fails, it
#     does not skip;
#  2. in a network namespace of its own (nothing listens there, not even a
#     PostgreSQL the machine runs) and without the URL, start_postgres makes
#     a private cluster and the PostgreSQL tests run against it and pass.
# Run by scripts/test.sh (not in quick mode); needs root for the namespace
# (without it, step 2 runs beside whatever the machine runs, still checking
# that the tests used the private cluster).
set -euo pipefail
cd "$(dirname "$0")/.."
log=target/check-setup.log
mkdir -p target
fail() {
  echo "error: set-up check: $*" >&2
  exit 1
}

if [ "${1:-}" != --inside ]; then
  echo "-- without SEQUENCE_TEST_POSTGRES_URL the PostgreSQL tests fail"
  if env -u SEQUENCE_TEST_POSTGRES_URL -u SEQUENCE_TEST_QUICK \
    cargo test --quiet --workspace --test it postgres:: >"$log" 2>&1; then
    cat "$log" >&2
    fail "the PostgreSQL tests passed without a database"
  fi
  grep -q "SEQUENCE_TEST_POSTGRES_URL is not set" "$log" || { cat "$log" >&2; fail "no message naming SEQUENCE_TEST_POSTGRES_URL"; }
  echo "-- a private PostgreSQL where none runs, then the PostgreSQL tests"
  command -v ip >/dev/null 2>&1 || fail "no ip command (apt-get install iproute2)"
  if [ "$(id -u)" = 0 ] && unshare --net true 2>/dev/null; then
    exec env -u SEQUENCE_TEST_POSTGRES_URL -u SEQUENCE_TEST_QUICK unshare --net "$0" --inside netns
  fi
  echo "   (no network namespace here: checking beside the machine's own services)"
  exec env -u SEQUENCE_TEST_POSTGRES_URL -u SEQUENCE_TEST_QUICK "$0" --inside
fi

if [ "${2:-}" = netns ]; then
  ip link set lo up
  if (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
    fail "something listens on 127.0.0.1:5432 in a fresh network namespace"
  fi
fi
[ -z "${SEQUENCE_TEST_POSTGRES_URL:-}" ] || fail "SEQUENCE_TEST_POSTGRES_URL is set"
# shellcheck source=scripts/setup.sh
. scripts/setup.sh
start_postgres
[ -n "${SEQUENCE_TEST_POSTGRES_URL:-}" ] || fail "start_postgres set no SEQUENCE_TEST_POSTGRES_URL"
dir=$(PGPASSWORD=sequence "$(_pg_bin)/psql" -XAtq "$SEQUENCE_TEST_POSTGRES_URL" -c 'SHOW data_directory') \
  || fail "cannot connect to $SEQUENCE_TEST_POSTGRES_URL"
[ "$dir" = "$SETUP_PG_DIR/data" ] || fail "the URL reaches $dir, not the private cluster"
cargo test --offline --workspace --test it postgres:: -- --nocapture >"$log" 2>&1 || { cat "$log" >&2; fail "the PostgreSQL tests failed"; }
passed=$(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' "$log" | awk '{n += $1} END {print n + 0}')
[ "$passed" -ge 1 ] || { cat "$log" >&2; fail "no PostgreSQL test ran"; }
if grep -Eiq "skipped|left out" "$log"; then
  cat "$log" >&2
  fail "a PostgreSQL test was skipped"
fi
echo "-- $passed PostgreSQL test(s) ran and passed on a private cluster ($dir)"
