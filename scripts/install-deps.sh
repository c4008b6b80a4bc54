#!/usr/bin/env bash
# Installs the Debian packages drape needs to build and test, if any are missing.
set -euo pipefail
packages=(gcc make cmake pkg-config libcjson-dev)
# drape stability: the PNG chart (cairo).
packages+=(libcairo2-dev)
# drape render: offscreen OpenGL through EGL (Mesa's llvmpipe needs no GPU), libpng, ffmpeg.
packages+=(libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri libpng-dev ffmpeg)
# drape view: a GLFW window, tested under a virtual X server (Xvfb, xdotool).
packages+=(libglfw3-dev xvfb xauth xdotool)
# Garment panels: CGAL's 2D constrained Delaunay triangulation (header-only C++) and a C++ compiler.
packages+=(g++ libcgal-dev libgmp-dev libmpfr-dev)
# Tests: the Python package (numpy), the batch recipe (GNU parallel).
packages+=(python3-numpy parallel)
missing=()
packages+=(python3) # tests/cli_test.sh parses `drape run --json` with python3's json module
packages+=(libassimp-dev assimp-testmodels) # characters: assimp, and the CMU motion and glTF skin the scenes and tests use (docs/characters.md)
packages+=(clang libclang-rt-dev libomp-dev) # make fuzz, ctest fuzz_smoke: libFuzzer and clang's OpenMP (docs/reliability.md)
packages+=(libxml2-dev) # garment panels from SVG files: libxml2 finds the path (docs/garments.md)
packages+=(libdxflib-dev python3-ezdxf) # panels from DXF-AAMA files (dxflib); tests/aama_dxf.py writes the test files (ezdxf)
packages+=(libsuitesparse-dev) # CHOLMOD: the two_level and cholesky preconditioners (docs/solver.md)
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
