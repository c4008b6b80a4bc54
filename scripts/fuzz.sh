#!/usr/bin/env bash
# Builds drape's libFuzzer targets (fuzz/) with clang into BUILD and runs them one after another,
# each on one core, seeded from the source tree at run time (docs/reliability.md, "Fuzzing").
#   scripts/fuzz.sh BUILD SECONDS [NAME...]  campaign: each target SECONDS on BUILD/corpus/NAME
#   scripts/fuzz.sh --smoke BUILD [NAME...]  the regression inputs, the seeds and a few thousand
#                                            mutations each in a throw-away corpus (seconds)
# NAME: scene, obj, set, sim, character, keys, svg_path, dxf (default all). Findings land in BUILD/findings/NAME/; exits 1 if
# any target crashed, hung or failed a check.
set -euo pipefail
smoke=0
if [ "${1:-}" = --smoke ]; then smoke=1; shift; fi
build=${1:?usage: fuzz.sh [--smoke] BUILD [SECONDS] [NAME...]}
shift
seconds=0
if ((!smoke)); then seconds=${1:?usage: fuzz.sh BUILD SECONDS [NAME...]}; shift; fi
src=$(cd "$(dirname "$0")/.." && pwd)
names=("$@")
((${#names[@]})) || names=(scene obj set sim character keys svg_path dxf)

mkdir -p "$build"
build=$(cd "$build" && pwd)
# Debug keeps drape's asserts, -O1 for speed; CGAL (C++) is built as in a release. Only the fuzz
# targets are built.
if ! cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	-DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=-O1 -DCMAKE_CXX_FLAGS="-O2 -DNDEBUG" -DDRAPE_BUILD_APP=OFF \
	-DDRAPE_FUZZ=ON >"$build/configure.log" 2>&1; then
	cat "$build/configure.log"
	exit 1
fi
cmake --build "$build" -j "${JOBS:-2}" --target "${names[@]/#/fuzz_}" >"$build/build.log" 2>&1 ||
	{ cat "$build/build.log"; exit 1; }

# The steps run on one thread (fuzz_sim sets it too); passive waiting on a shared machine.
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE
# The targets write each input to a file (the loaders take paths): in memory, not on ext4, whose
# truncate-and-rewrite flushes the file at every execution (a fifth of fuzz_dxf's time).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
export UBSAN_OPTIONS=print_stacktrace=1
# assimp's own leaks on files it refuses are not findings (fuzz/lsan_assimp.supp).
export LSAN_OPTIONS="suppressions=$src/fuzz/lsan_assimp.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# Seed files, comma-separated for -seed_inputs: the scenes, and for `--set` the overrides that
# the docs and tests use, one file each. A scene with a character solid is seeded without it
# (written under BUILD): importing and skinning the body takes 2.5 s, a thousand times the rest
# of a load, and would mostly fuzz assimp reading one fixed file.
seeds() {
	case $1 in
	scene | sim)
		mkdir -p "$build/seeds/scene"
		python3 - "$build/seeds/scene" "$src"/scenes/*.json "$src"/tests/scenes/*.json <<-'PY'
			import json, os, sys
			for path in sys.argv[2:]:
			    text = open(path).read()
			    scene = json.loads(text)
			    solids = scene.get("solids", [])
			    kept = [s for s in solids if s.get("shape") != "character"]
			    if len(kept) == len(solids):
			        print(path)
			        continue
			    scene["solids"] = kept
			    out = os.path.join(sys.argv[1], os.path.basename(path))
			    with open(out, "w") as f:
			        json.dump(scene, f, indent=1)
			    print(out)
		PY
		;;
	obj) ls "$src"/scenes/*.obj ;;
	svg_path)
		# the path data of the shipped SVG patterns, one file each
		mkdir -p "$build/seeds/svg_path"
		python3 - "$build/seeds/svg_path" "$src"/scenes/patterns/*.svg <<-'PY'
			import os, re, sys
			i = 0
			for path in sys.argv[2:]:
			    for d in re.findall(r'\sd="([^"]*)"', open(path).read()):
			        i += 1
			        out = os.path.join(sys.argv[1], str(i))
			        open(out, "w").write(d)
			        print(out)
		PY
		;;
	set)
		mkdir -p "$build/seeds/set"
		local i=0
		grep -ohE -- "(--set|-s) [a-z_.0-9]+=[^ ]+" "$src"/docs/*.md "$src"/tests/*.sh | sort -u |
			while read -r _ kv; do
				i=$((i + 1))
				printf '%s' "$kv" >"$build/seeds/set/$i"
				echo "$build/seeds/set/$i"
			done
		# and all of them at once, one per line as the target reads them
		awk 1 "$build"/seeds/set/[0-9]* >"$build/seeds/set/all"
		echo "$build/seeds/set/all"
		# and each shipped scene's own settings as overrides (its numbers, strings and booleans
		# by their key paths, one per line): the keys users set, beyond those the docs quote
		python3 - "$build/seeds/set" "$src"/scenes/*.json <<-'PY'
			import json, os, sys
			def leaves(node, path):
			    if isinstance(node, dict):
			        for k, v in node.items():
			            yield from leaves(v, path + [k])
			    elif isinstance(node, list):
			        for i, v in enumerate(node):
			            yield from leaves(v, path + [str(i)])
			    else:
			        yield ".".join(path), node
			for scene in sys.argv[2:]:
			    lines = [f"{p}={json.dumps(v) if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else v}"
			             for p, v in leaves(json.load(open(scene)), []) if p]
			    out = os.path.join(sys.argv[1], "scene_" + os.path.basename(scene)[:-5])
			    open(out, "w").write("\n".join(lines[:200]) + "\n")
			    print(out)
		PY
		;;
	character)
		# assimp-testmodels' small glTF files (external buffers put inline as data: URIs, since the
		# input is read from a temporary folder), and tests/alloc/skeleton.bvh
		# (01_01.bvh cut to 2 frames) whole, without its motion and cut inside a frame.
		mkdir -p "$build/seeds/character"
		python3 - "$build/seeds/character" "$src/tests/alloc/skeleton.bvh" "${ASSIMP_MODELS:-/usr/share/assimp/models}" <<-'PY'
			import base64, json, os, sys
			out, bvh, models = sys.argv[1:4]
			text = open(bvh).read()
			cut = {"skeleton.bvh": text, "skeleton_no_motion.bvh": text[:text.index("MOTION")],
			       "skeleton_cut_in_frame.bvh": text[:len(text) - 200]}
			for name, t in cut.items():
			    open(os.path.join(out, name), "w").write(t)
			    print(os.path.join(out, name))
			for rel in ["glTF2/simple_skin/simple_skin.gltf", "glTF2/RecursiveNodes/RecursiveNodes.gltf",
			            "glTF2/TestNoRootNode/SceneWithoutNodes.gltf",
			            "glTF2/glTF-Asset-Generator/Mesh_PrimitiveMode/Mesh_PrimitiveMode_00.gltf",
			            "glTF2/glTF-Asset-Generator/Mesh_PrimitiveMode/Mesh_PrimitiveMode_13.gltf",
			            "glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf",
			            "glTF2/IndexOutOfRange/IndexOutOfRange.gltf", "glTF2/BoxTextured-glTF/BoxTextured.gltf"]:
			    path = os.path.join(models, rel)
			    if not os.path.exists(path):
			        continue
			    g = json.load(open(path))
			    try:
			        for b in g.get("buffers", []):
			            uri = b.get("uri", "")
			            if uri and not uri.startswith("data:"):
			                data = open(os.path.join(os.path.dirname(path), uri), "rb").read()
			                b["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
			    except OSError:
			        continue
			    name = os.path.join(out, os.path.basename(path))
			    json.dump(g, open(name, "w"), indent=1)
			    print(name)
		PY
		;;
	keys) ls "$src"/fuzz/seeds/keys/*.json ;;
	dxf)
		# the shipped sleeve and the test files, written by an independent writer (python3-ezdxf)
		mkdir -p "$build/seeds/dxf"
		/usr/bin/python3 "$src/tests/aama_dxf.py" "$build/seeds/dxf" >/dev/null
		cp "$src/scenes/patterns/sleeve.dxf" "$build/seeds/dxf/"
		# Each cut to what drape reads: $ACADVER and $INSUNITS of the header, the BLOCKS (the
		# pieces) and the ENTITIES; the classes, tables and objects that ezdxf writes are 90 % of
		# a 15 kB file, and every mutation would pay for reading them (docs/reliability.md).
		python3 - "$build"/seeds/dxf/*.dxf <<-'PY'
			import sys
			for path in sys.argv[1:]:
			    lines = open(path).read().split("\n")
			    pairs = [(lines[i].strip(), lines[i + 1]) for i in range(0, len(lines) - 1, 2)]
			    out, keep, var = [], True, None
			    for i, (code, value) in enumerate(pairs):
			        if code == "0" and value.strip() == "SECTION":
			            name = pairs[i + 1][1].strip() if i + 1 < len(pairs) else ""
			            keep = name in ("HEADER", "BLOCKS", "ENTITIES")
			            header = name == "HEADER"
			        if not keep:
			            if code == "0" and value.strip() == "ENDSEC":
			                keep = True
			            continue
			        if header and code == "9":
			            var = value.strip()
			        if header and var not in (None, "$ACADVER", "$INSUNITS") and code != "0":
			            continue
			        out.append((code, value))
			    open(path, "w").write("".join(f"{c}\n{v}\n" for c, v in out))
			    print(path)
		PY
		;;
	esac | paste -sd, -
}

# The smoke steps only the cheapest scenes in fuzz_sim: each of the others takes a second or more
# under the sanitizers.
smoke_sim_seeds='/(render_tent|sewn_panels|mass_spring_sheet|tilted_plane|garment_skirt)\.json$'

# Parsers must answer in well under a second; a step of a small world in a few; a character
# whose skeleton gets a generated mannequin body takes about a second under the sanitizers.
# FUZZ_TIMEOUT overrides them all: libFuzzer's timeout is wall time, and a campaign niced under
# other work can see a quick input take seconds.
timeout_of() {
	if [ -n "${FUZZ_TIMEOUT:-}" ]; then echo "$FUZZ_TIMEOUT"; return; fi
	case $1 in sim | character | keys) echo 20 ;; *) echo 5 ;; esac
}

status=0
for name in "${names[@]}"; do
	bin=$build/fuzz_$name
	findings=$build/findings/$name
	mkdir -p "$findings"
	seed_list=$(seeds "$name")
	if ((smoke)) && [ "$name" = sim ]; then
		seed_list=$(tr , '\n' <<<"$seed_list" | grep -E "$smoke_sim_seeds" | paste -sd, -)
	fi
	flags=(-seed_inputs="$seed_list" -timeout="$(timeout_of "$name")" -artifact_prefix="$findings/"
		-print_final_stats=1)
	if ((smoke)); then
		regressions=("$src/tests/fuzz_regressions/$name"/*)
		if [ -e "${regressions[0]}" ]; then
			echo "fuzz_$name: ${#regressions[@]} regression input(s)"
			"$bin" -timeout="$(timeout_of "$name")" "${regressions[@]}" >"$build/smoke-$name-regressions.log" 2>&1 ||
				{ tail -n 40 "$build/smoke-$name-regressions.log"; status=1; continue; }
		fi
		corpus=$(mktemp -d)
		# The seeds, then mutations up to the run count (or the time limit, for the slow step).
		runs=4000
		[ "$name" = sim ] && runs=1000
		# A loaded BVH builds a mannequin: tens of ms each under the sanitizers.
		case $name in character | keys) runs=1500 ;; esac
		if "$bin" "$corpus" "${flags[@]}" -seed=1 -runs=$runs -max_total_time=10 >"$build/smoke-$name.log" 2>&1; then
			echo "fuzz_$name: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/smoke-$name.log" | grep -o '[0-9]*$') runs, no finding"
		else
			tail -n 40 "$build/smoke-$name.log"
			status=1
		fi
		rm -rf "$corpus"
	else
		mkdir -p "$build/corpus/$name"
		echo "fuzz_$name: $seconds s on $build/corpus/$name"
		# FUZZ_RUNS: stop after that many executions as well (whichever comes first).
		((${FUZZ_RUNS:-0} > 0)) && flags+=(-runs="$FUZZ_RUNS")
		# assimp leaks on most files it refuses (suppressed, fuzz/lsan_assimp.supp), and libFuzzer
		# runs LeakSanitizer's whole-heap scan after every execution that leaked: 45 % of
		# fuzz_character's time. Its campaign leaves leaks to a pass over the corpus at the end.
		leaks_after=0
		# Unchecked, those leaks pile up (about 4.5 kB an execution: 2 GB, libFuzzer's default
		# -rss_limit_mb, after some 370,000), so the campaign's RSS limit is raised to 8 GB; one
		# allocation is still limited to 2 GB.
		[ "$name" = character ] && { flags+=(-detect_leaks=0 -rss_limit_mb=8192 -malloc_limit_mb=2048); leaks_after=1; }
		rc=0
		"$bin" "$build/corpus/$name" "${flags[@]}" -max_total_time="$seconds" 2>&1 | tee "$build/fuzz-$name.log" |
			grep --line-buffered -E "^(INFO: Seed|#[0-9]+[[:space:]]+(INITED|DONE|pulse))|stat::|ERROR|SUMMARY|Test unit" ||
			rc=${PIPESTATUS[0]}
		if ((rc == 0 && leaks_after)); then
			echo "fuzz_$name: the corpus once more, with leak detection"
			"$bin" -runs=0 -detect_leaks=1 -timeout="$(timeout_of "$name")" -artifact_prefix="$findings/" \
				"$build/corpus/$name" >"$build/fuzz-$name-leaks.log" 2>&1 || { tail -n 40 "$build/fuzz-$name-leaks.log"; rc=1; }
		fi
		((rc == 0)) || status=1
	fi
done
exit $status
