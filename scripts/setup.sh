# Set-up steps of scripts/test.sh, sourced by it and by
# scripts/check-setup.sh (bash; `set -euo pipefail` is the caller's).
#
#   install_missing [--no-browser]  installs what the tests need and is
#                                   missing: Debian packages (apt, as root),
#                                   the Python tools (pip), rustfmt and clippy
#   start_postgres                  a private PostgreSQL cluster for this
#                                   run: initdb in a temporary folder, a free
#                                   port on 127.0.0.1, run by a user that is
#                                   not root (PostgreSQL refuses root);
#                                   exports SEQUENCE_TEST_POSTGRES_URL and
#                                   stops and removes it at exit
#
# Each step fails with a message naming what could not be set up.

setup_note() { echo "== $*"; }
setup_fail() {
  echo "error: $*" >&2
  exit 1
}

# The Python tools scripts/test.sh needs (PyPI), as pip requirements.
SETUP_PIP=("maturin>=1.9.4,<2" pytest numpy pettingzoo gymnasium open-spiel)

# _pg_bin: the newest installed PostgreSQL's bin directory, or nothing.
_pg_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then
    echo "$d"
  elif command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
  fi
}

# _python_ok: the Python tools are importable and maturin is 1.9.4 or newer, below 2.
_python_ok() {
  python3 - <<'PY' 2>/dev/null
import importlib.metadata as m
import maturin, pytest, numpy, pettingzoo, gymnasium, pyspiel  # noqa: F401
v = tuple(int(x) for x in m.version("maturin").split(".")[:3])
raise SystemExit(0 if (1, 9, 4) <= v < (2,) else 1)
PY
}

install_missing() {
  local browser=1
  [ "${1:-}" = --no-browser ] && browser=0
  local apt=()
  command -v python3 >/dev/null 2>&1 || apt+=(python3 python3-pip)
  # a fresh virtual environment for the wheel (scripts/check-wheel.sh):
  # Debian's python3 keeps venv's pip in python3-venv
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || apt+=(python3-venv)
  command -v cc >/dev/null 2>&1 || apt+=(build-essential)
  command -v pkg-config >/dev/null 2>&1 || apt+=(pkg-config)
  [ -n "$(_pg_bin)" ] || apt+=(postgresql)
  if [ "$browser" = 1 ]; then
    [ -x /usr/bin/chromium ] || [ -n "${CHROMIUM:-}" ] || apt+=(chromium)
    [ -x /usr/bin/chromedriver ] || [ -n "${CHROMEDRIVER:-}" ] || apt+=(chromium-driver)
    # the reverse-proxy test (crates/sequence-cli/tests/proxy.rs)
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || apt+=(nginx)
    command -v openssl >/dev/null 2>&1 || apt+=(openssl)
    command -v curl >/dev/null 2>&1 || apt+=(curl)
  fi
  if [ ${#apt[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || setup_fail "missing Debian packages: ${apt[*]} (run as root, or: apt-get install ${apt[*]})"
    setup_note "installing ${apt[*]} (apt)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || setup_fail "apt-get update failed"
    apt-get install -y -qq --no-install-recommends "${apt[@]}" >/dev/null \
      || setup_fail "apt-get install ${apt[*]} failed"
    # the Debian package starts a cluster of its own on 5432; the tests do
    # not use it (start_postgres makes a private one)
  fi
  [ -n "$(_pg_bin)" ] || setup_fail "no initdb after installing postgresql"

  if ! _python_ok; then
    setup_note "installing the Python tools (pip): ${SETUP_PIP[*]}"
    local pip=(python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore)
    if ! python3 -m pip --version >/dev/null 2>&1; then
      python3 -m ensurepip --upgrade >/dev/null 2>&1 || setup_fail "python3 has no pip (apt-get install python3-pip)"
    fi
    # Debian's own python3 is "externally managed": allow the install there
    "${pip[@]}" "${SETUP_PIP[@]}" 2>/dev/null \
      || "${pip[@]}" --break-system-packages "${SETUP_PIP[@]}" \
      || setup_fail "pip install ${SETUP_PIP[*]} failed"
    _python_ok || setup_fail "the Python tools do not import after pip install"
  fi

  local c
  for c in rustfmt clippy; do
    if ! cargo "${c/rustfmt/fmt}" --version >/dev/null 2>&1; then
      command -v rustup >/dev/null 2>&1 || setup_fail "cargo $c is missing and there is no rustup to add it"
      setup_note "adding the Rust component $c (rustup)"
      rustup component add "$c" >/dev/null || setup_fail "rustup component add $c failed"
    fi
  done
}

# _free_port: a TCP port on 127.0.0.1 nothing listens on.
_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

SETUP_PG_DIR=
SETUP_PG_USER=

stop_postgres() {
  [ -n "$SETUP_PG_DIR" ] || return 0
  if [ -f "$SETUP_PG_DIR/data/postmaster.pid" ]; then
    _as_pg "$(_pg_bin)/pg_ctl" -D "$SETUP_PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$SETUP_PG_DIR"
  SETUP_PG_DIR=
}

_as_pg() {
  if [ "$(id -u)" = 0 ]; then
    (cd / && runuser -u "$SETUP_PG_USER" -- "$@")
  else
    "$@"
  fi
}

start_postgres() {
  local bin port
  bin=$(_pg_bin)
  [ -n "$bin" ] || setup_fail "PostgreSQL is not installed (install_missing installs it)"
  SETUP_PG_USER=$(id -un)
  if [ "$(id -u)" = 0 ]; then
    # PostgreSQL will not run as root: the package's user, or one of ours
    SETUP_PG_USER=postgres
    if ! id "$SETUP_PG_USER" >/dev/null 2>&1; then
      SETUP_PG_USER=sequence-test-pg
      id "$SETUP_PG_USER" >/dev/null 2>&1 \
        || useradd --system --no-create-home --shell /usr/sbin/nologin "$SETUP_PG_USER" \
        || setup_fail "could not add a user to run PostgreSQL"
    fi
  fi
  SETUP_PG_DIR=$(mktemp -d /tmp/sequence-test-pg.XXXXXX)
  trap stop_postgres EXIT
  trap 'exit 130' INT TERM
  chmod 700 "$SETUP_PG_DIR"
  if [ "$(id -u)" = 0 ]; then chown "$SETUP_PG_USER" "$SETUP_PG_DIR"; fi
  echo sequence >"$SETUP_PG_DIR/pw"
  _as_pg "$bin/initdb" -D "$SETUP_PG_DIR/data" -U sequence --pwfile="$SETUP_PG_DIR/pw" \
    --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --locale=C >"$SETUP_PG_DIR/initdb.log" 2>&1 \
    || { cat "$SETUP_PG_DIR/initdb.log" >&2; setup_fail "initdb failed"; }
  local tries
  for tries in 1 2 3; do
    port=$(_free_port)
    # fsync off: a test cluster that dies with the machine is thrown away
    if _as_pg "$bin/pg_ctl" -D "$SETUP_PG_DIR/data" -l "$SETUP_PG_DIR/log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$SETUP_PG_DIR \
-c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null; then
      break
    fi
    port=
  done
  [ -n "$port" ] || { tail -n 20 "$SETUP_PG_DIR/log" >&2; setup_fail "PostgreSQL did not start"; }
  _as_pg "$bin/createdb" -h "$SETUP_PG_DIR" -p "$port" -U sequence sequence_test \
    || setup_fail "createdb sequence_test failed"
  export SEQUENCE_TEST_POSTGRES_URL="postgres://sequence:sequence@127.0.0.1:$port/sequence_test"
  setup_note "PostgreSQL $("$bin/postgres" -V | awk '{print $3}') for this run on 127.0.0.1:$port ($SETUP_PG_DIR, user $SETUP_PG_USER)"
}
