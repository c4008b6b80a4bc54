#!/usr/bin/env bash
# GNU-style options of `drape run` (getopt_long: --out=DIR, -o DIR, -n, -j, -q) and the --set
# overrides (docs/batch.md): applied before validation, recorded in summary.json, and bad ones
# refused with a message, exit status 2 and no output directory.
# usage: cli_options_test.sh path/to/drape repo_root
set -u
drape=$1
root=$2
. "$(dirname "$0")/lib.sh"
sheet=$root/scenes/figure2_sheet.json
json_field() { /usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[2])); print(eval(sys.argv[1]))' "$1" "$2"; }

"$drape" --version | grep -Eq "^drape [0-9]+\.[0-9]+\.[0-9]+$" && ok version || bad version "no version line"
help=$("$drape" run --help)
for o in -o --out -n --frames -j --threads -f --format -s --set --json --force -q --quiet --render -h --help; do
	echo "$help" | grep -q -- " $o[ ,]" || { bad "usage_$o" "run --help does not list $o"; continue; }
done
ok usage_lists_options

# --out=DIR and short options; the same frames as the long form.
"$drape" run "$sheet" --out="$tmp/eq" --frames=2 --threads=1 --quiet && [ -s "$tmp/eq/frame_0002.obj" ] &&
	[ ! -e "$tmp/eq/frame_0003.obj" ] && ok out_equals || bad out_equals "no frame_0002.obj in --out=DIR"
"$drape" run -n 2 -j 2 -q -o "$tmp/short" "$sheet" && cmp -s "$tmp/eq/frame_0002.obj" "$tmp/short/frame_0002.obj" &&
	ok short_options || bad short_options "-o/-n/-j/-q run differs from the long options' frames"
[ -z "$("$drape" run "$sheet" -n 1 -q -o "$tmp/quiet" 2>&1)" ] && ok quiet_silent || bad quiet_silent "-q printed something"

# --set changes the value exactly as editing the file would, and is recorded.
/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["cloths"][0]["material"]["stretch"] = 5000
json.dump(d, open(sys.argv[2], "w"), indent=1)' "$sheet" "$tmp/edited.json"
"$drape" run "$tmp/edited.json" -n 3 -q -o "$tmp/file"
"$drape" run "$sheet" -n 3 -q -o "$tmp/set" --set cloths.0.material.stretch=5000
if cmp -s "$tmp/file/frame_0003.obj" "$tmp/set/frame_0003.obj" &&
	[ "$(json_field 'd["overrides"]' "$tmp/set/summary.json")" = "['cloths.0.material.stretch=5000']" ] &&
	[ "$(json_field 'd["settings"]["cloths"][0]["material"]["stretch"]' "$tmp/set/summary.json")" = 5000 ]; then
	ok set_like_file
else
	bad set_like_file "--set differs from the edited file, or summary.json lacks the override"
fi
"$drape" run "$sheet" -n 1 -q -o "$tmp/two" -s gravity=[0,0,-1] --set name=cotton --set output.fps=20
[ "$(json_field 'd["name"], d["settings"]["gravity"], d["settings"]["output"]["fps"], len(d["overrides"])' "$tmp/two/summary.json")" = "('cotton', [0, 0, -1], 20, 3)" ] &&
	ok set_repeated || bad set_repeated "$(cat "$tmp/two/summary.json" | head -5)"

# Bad overrides: message, exit 2, nothing written.
expect_bad() { # NAME PATTERN SET
	"$drape" run "$sheet" -n 1 -q -o "$tmp/bad_$1" --set "$3" 2>"$tmp/stderr"
	local got=$?
	if [ $got -ne 2 ]; then bad "$1" "exit $got, want 2"
	elif ! grep -Eq -- "$2" "$tmp/stderr"; then bad "$1" "stderr: $(cat "$tmp/stderr")"
	elif [ -e "$tmp/bad_$1" ]; then bad "$1" "left an output folder"
	else ok "$1"; fi
}
expect_bad set_unknown_key "strech: unknown key \(did you mean 'stretch'\?\)" cloths.0.material.strech=5000
expect_bad set_unknown_top "clths: unknown key \(did you mean 'cloths'\?\)" clths.0.name=x
expect_bad set_wrong_type "stretch: expected a number, got a string" cloths.0.material.stretch=abc
expect_bad set_out_of_range "index 3 out of range \(cloths has 1 element\)" cloths.3.material.stretch=5
expect_bad set_negative "stretch: must be >= 0" cloths.0.material.stretch=-5
expect_bad set_through_value "'gravity.0' is a number" gravity.0.x=1
expect_bad set_no_equals "expected KEY.PATH=VALUE" cloths.0.material.stretch
"$drape" run "$sheet" -q -o "$tmp/bad_opt" --frobnicate 2>"$tmp/stderr"
[ $? -eq 2 ] && grep -q "unknown option" "$tmp/stderr" && [ ! -e "$tmp/bad_opt" ] && ok unknown_option ||
	bad unknown_option "$(cat "$tmp/stderr")"

# A misspelt option or command names the one meant (issue 29: a new user typed --frmaes).
"$drape" run "$sheet" -q -o "$tmp/typo" --frmaes 3 2>"$tmp/stderr"
[ $? -eq 2 ] && grep -q "unknown option '--frmaes' (did you mean --frames?)" "$tmp/stderr" && [ ! -e "$tmp/typo" ] &&
	ok option_did_you_mean || bad option_did_you_mean "$(cat "$tmp/stderr")"
"$drape" run "$sheet" -q -o "$tmp/typo2" --thrads=2 2>"$tmp/stderr"
[ $? -eq 2 ] && grep -q "did you mean --threads?" "$tmp/stderr" && ok option_equals_did_you_mean ||
	bad option_equals_did_you_mean "$(cat "$tmp/stderr")"
"$drape" render "$tmp" --sise 64x48 2>"$tmp/stderr"
[ $? -eq 2 ] && grep -q "did you mean --size?" "$tmp/stderr" && ok render_did_you_mean || bad render_did_you_mean "$(cat "$tmp/stderr")"
"$drape" resume "$tmp" --quite 2>"$tmp/stderr"
[ $? -eq 2 ] && grep -q "did you mean --quiet?" "$tmp/stderr" && ok resume_did_you_mean || bad resume_did_you_mean "$(cat "$tmp/stderr")"
"$drape" run "$sheet" -q -o "$tmp/typo" --frames 2>"$tmp/stderr"
[ $? -eq 2 ] && grep -q "missing value: '--frames'" "$tmp/stderr" && ! grep -q "did you mean" "$tmp/stderr" &&
	ok missing_value_no_suggestion || bad missing_value_no_suggestion "$(cat "$tmp/stderr")"
"$drape" rnu "$sheet" 2>"$tmp/stderr"
[ $? -eq 2 ] && grep -q "unknown command 'rnu' (did you mean 'run'?)" "$tmp/stderr" && ok command_did_you_mean ||
	bad command_did_you_mean "$(cat "$tmp/stderr")"

finish "cli_options"
