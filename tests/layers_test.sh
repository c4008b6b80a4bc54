#!/usr/bin/env bash
# Layers in scene files (docs/collide.md, "Layers"): a layer that is not a non-negative integer,
# and a cloth of an outer layer placed inside (or closer than the cloth thickness outside) one of
# an inner layer, are bad input (message naming file, line and key, exit 2, no output); sheets
# placed in the order of their layers run.
# usage: layers_test.sh path/to/drape
set -u
drape=$1
. "$(dirname "$0")/lib.sh"

# expect NAME STATUS PATTERN JSON: `drape run` on JSON exits with STATUS, stderr matches PATTERN,
# and bad input leaves no output directory.
expect() {
	local name=$1 want=$2 pattern=$3
	printf '%s\n' "$4" >"$tmp/$name.json"
	"$drape" run "$tmp/$name.json" --out "$tmp/out_$name" --quiet 2>"$tmp/stderr" >/dev/null
	local got=$?
	if [ "$got" -ne "$want" ]; then
		bad "$name" "exit $got, want $want; stderr: $(cat "$tmp/stderr")"
	elif [ -n "$pattern" ] && ! grep -Eq -- "$pattern" "$tmp/stderr"; then
		bad "$name" "stderr does not match /$pattern/: $(cat "$tmp/stderr")"
	elif [ "$want" -eq 2 ] && [ -e "$tmp/out_$name" ]; then
		bad "$name" "bad input left an output directory behind"
	else
		ok "$name"
	fi
}

inner='{"name": "inner", "grid": {"size": [0.5, 0.5], "resolution": [6, 6]}, "pins": [{"corner": "top_left"}]}'
# a grid faces along u x v (+z): its outer side is above it
outer() { echo "{\"name\": \"outer\", \"layer\": $1, \"grid\": {\"size\": [0.3, 0.3], \"resolution\": [5, 5], \"center\": [0, 0, $2]}}"; }

for v in -1 1.5 '"1"' true; do
	expect "layer_$v" 2 "layer_$v.json:2: cloths\[0\]\.layer: (layer must be a non-negative integer|expected an integer)" \
		"{\"output\": {\"frames\": 1}, \"cloths\": [{\"grid\": {\"size\": [0.5, 0.5], \"resolution\": [6, 6]},
 \"layer\": $v}]}"
done
expect outer_below 2 "outer_below.json:2: cloths\[1\]\.layer: cloth 'outer' \(layer 1\) starts 10\.0 mm inside cloth 'inner' \(layer 0\)" \
	"{\"output\": {\"frames\": 1}, \"cloths\": [$inner,
 $(outer 1 -0.01)]}"
expect outer_too_close 2 "cloths\[1\]\.layer: cloth 'outer' \(layer 1\) starts only 2\.0 mm outside cloth 'inner'" \
	"{\"output\": {\"frames\": 1}, \"cloths\": [$inner,
 $(outer 1 0.002)]}"
# the inner cloth listed second: the check names the later cloth's key
expect inner_above 2 "cloths\[1\]\.layer: cloth 'outer' \(layer 2\) starts 10\.0 mm inside cloth 'inner' \(layer 1\)" \
	"{\"output\": {\"frames\": 1}, \"cloths\": [$(outer 2 -0.01),
 {\"name\": \"inner\", \"layer\": 1, \"grid\": {\"size\": [0.5, 0.5], \"resolution\": [6, 6]}}]}"
expect in_order 0 "" "{\"output\": {\"frames\": 5}, \"cloths\": [$inner, $(outer 1 0.01)]}"
expect one_layer 0 "" "{\"output\": {\"frames\": 1}, \"cloths\": [$inner, $(outer 0 -0.01)]}"

# tucked_into: the garment named must exist, be of a higher layer and lie over the hem
tuck() { echo "{\"name\": \"inner\", \"tucked_into\": $1, \"grid\": {\"size\": [0.5, 0.5], \"resolution\": [6, 6]}, \"pins\": [{\"corner\": \"top_left\"}]}"; }
expect tucked 0 "" "{\"output\": {\"frames\": 2}, \"cloths\": [$(tuck '"outer"'), $(outer 1 0.01)]}"
expect tucked_misspelt 2 "tucked_misspelt.json:2: cloths\[0\]\.tucked_into: no cloth named 'outr' to tuck cloth 'inner' into \(did you mean 'outer'\?\)" \
	"{\"output\": {\"frames\": 1},
 \"cloths\": [$(tuck '"outr"'), $(outer 1 0.01)]}"
expect tucked_not_string 2 "cloths\[0\]\.tucked_into: .*string" "{\"output\": {\"frames\": 1}, \"cloths\": [$(tuck 1), $(outer 1 0.01)]}"
expect tucked_itself 2 "cloths\[0\]\.tucked_into: cloth 'inner' cannot be tucked into itself" \
	"{\"output\": {\"frames\": 1}, \"cloths\": [$(tuck '"inner"'), $(outer 1 0.01)]}"
expect tucked_same_layer 2 "cloths\[0\]\.tucked_into: cloth 'inner' is tucked into cloth 'outer', so it is worn under it: give it a lower layer than 'outer' \(layers 0 and 0 now" \
	"{\"output\": {\"frames\": 1}, \"cloths\": [$(tuck '"outer"'), $(outer 0 0.01)]}"
# a tucked hem without a garment over it: the outer sheet lies beside the inner one, not over it
expect tucked_nothing_over 2 "tucked_nothing_over.json:2: cloths\[0\]\.tucked_into: cloth 'inner' is tucked into cloth 'outer', but no part of 'outer' lies over its hem" \
	"{\"output\": {\"frames\": 1},
 \"cloths\": [$(tuck '"outer"'), {\"name\": \"outer\", \"layer\": 1, \"grid\": {\"size\": [0.3, 0.3], \"resolution\": [5, 5], \"center\": [2, 0, 0.01]}}]}"

finish
