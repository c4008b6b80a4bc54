#!/usr/bin/env bash
# Installs the Debian packages drape needs to build and test, if any are missing.
set -euo pipefail
packages=(gcc make cmake pkg-config libcjson-dev libcairo2-dev)
missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
if ((${#missing[@]})); then
	echo "drape: installing Debian packages: ${missing[*]}"
	sudo=""
	if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
