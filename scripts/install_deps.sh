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
  clang libclang-rt-14-dev   # libFuzzer targets (scripts/fuzz.sh)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "install_deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install_deps: done"
