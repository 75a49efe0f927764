#!/usr/bin/env bash
# Installs every Debian package schedmate needs to build, test, benchmark
# and fuzz. Idempotent: packages already present are skipped, so a second
# run does nothing. Needs root (or sudo) and Debian's archive.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # llm/: OpenAI-compatible HTTP client. Debian builds cpp-httplib with
  # OpenSSL, zlib and brotli, so their headers are needed to include it.
  libcpp-httplib-dev libssl-dev zlib1g-dev libbrotli-dev
  libgit2-dev                # repo/: git revisions read without a checkout
  libsqlite3-dev libhnswlib-dev  # history/: SQLite store, HNSW index
  libhiredis-dev redis-server    # history/: Redis store (tests start a real server)
  libtree-sitter-dev libyaml-dev libtomlplusplus-dev  # advisor/: Python, YAML, TOML parsing
  coinor-libcbc-dev          # solver/: CBC for Sia's integer program (pulls in Clp, Cgl, Osi, CoinUtils)
  clang libclang-rt-14-dev   # libFuzzer targets (scripts/fuzz.sh)
  wrk                        # bench/service_load.sh: HTTP load on `schedmate serve` (127.0.0.1 only)
  sqlite3                    # bench/service_load.sh kill9: PRAGMA integrity_check on the history file
  slurmctld slurmd slurm-client munge libslurm-dev  # agent/: a real SLURM cluster for its e2e test (scripts/slurm_cluster.sh)
  chromium curl               # tests/dashboard: the service's dashboard in headless Chromium
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all ${#PACKAGES[@]} packages present"
else
  echo "install_deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The Python grammar for tree-sitter comes from the npm registry (Debian has
# the runtime, not the grammar); 0.23.x matches Debian's ABI 14. It is
# unpacked under .deps/ (not committed) and compiled by CMake.
GRAMMAR_VERSION=0.23.6
GRAMMAR_DIR="$(cd "$(dirname "$0")/.." && pwd)/.deps/tree-sitter-python-$GRAMMAR_VERSION"
if [ ! -f "$GRAMMAR_DIR/src/parser.c" ]; then
  if ! command -v npm >/dev/null; then
    echo "install_deps: installing npm"
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
  fi
  tmp=$(mktemp -d)
  if ! (cd "$tmp" && npm pack --silent "tree-sitter-python@$GRAMMAR_VERSION" >"$tmp/npm.log" 2>&1); then
    echo "install_deps: could not fetch tree-sitter-python@$GRAMMAR_VERSION from the npm registry:" >&2
    tail -5 "$tmp/npm.log" >&2
    rm -rf "$tmp"
    exit 1
  fi
  mkdir -p "$GRAMMAR_DIR"
  tar xzf "$tmp"/tree-sitter-python-*.tgz -C "$GRAMMAR_DIR" --strip-components=1 package/src package/LICENSE
  rm -rf "$tmp"
  echo "install_deps: tree-sitter-python $GRAMMAR_VERSION in .deps/"
fi
echo "install_deps: done"
