#!/usr/bin/env bash
# Set-up command 2: install everything, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure "$@"
