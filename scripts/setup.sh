#!/usr/bin/env bash
# Installs the Debian packages the build needs, only those that are missing;
# arguments name more packages (scripts/fuzz.sh adds clang's).
set -euo pipefail

packages=(cmake ninja-build g++ make zlib1g-dev libcli11-dev libfmt-dev nlohmann-json3-dev
          libgtest-dev libsuitesparse-dev python3-matplotlib
          pybind11-dev python3-dev python3-numpy python3-scipy python3-pytest
          libopenmpi-dev openmpi-bin libmetis-dev "$@")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
