#!/usr/bin/env bash
# Set-up command 2: install everything, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
bash scripts/build.sh
start=$(date +%s)
# One CTest entry per test case, two at a time (the machine has 2 cores).
ctest --test-dir build --output-on-failure -j2 "$@"
echo "test suite: $(( $(date +%s) - start )) s"
