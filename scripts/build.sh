#!/usr/bin/env bash
# Configures and builds schedmate into ./build (Release). Extra arguments go
# to CMake, e.g. scripts/build.sh -DSCHEDMATE_BUILD_BENCH=OFF
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
ninja -C build
