#!/usr/bin/env bash
# Installs the Debian packages hitscan needs, only when something is missing.
# Usage: scripts/deps.sh [build|test|sanitize|fuzz|bench]  (default: build)
# Runs apt-get as root, or through sudo; a fresh machine's package lists may be empty, so
# `apt-get update` runs first whenever anything has to be installed.
set -euo pipefail

profile=${1:-build}
# zlib1g-dev: assimp's CMake package names libz.so, which libassimp-dev does not depend on.
packages=(cmake ninja-build g++ make pkg-config libstb-dev libcli11-dev libassimp-dev zlib1g-dev libgtest-dev libgmock-dev)
# Real meshes for the tests: assimp's test models and CGAL's demo data (armadillo, bunny, elephant).
test_data=(assimp-testmodels libcgal-demo)
case "$profile" in
  build) ;;
  test|sanitize) packages+=("${test_data[@]}" pybind11-dev python3-numpy python3-dev) ;;
  # clang and its libFuzzer runtime; assimp's test models and python3 for the seed corpus.
  fuzz) packages+=(clang libclang-rt-14-dev assimp-testmodels python3) ;;
  # openarena-081-maps: the Quake 3 levels of the mesh ray suite.
  bench) packages+=("${test_data[@]}" libbenchmark-dev libembree-dev libbullet-dev pybind11-dev python3-dev python3-open3d
                    openarena-081-maps) ;;
  *) echo "deps.sh: unknown profile '$profile'" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps.sh: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "deps.sh: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
