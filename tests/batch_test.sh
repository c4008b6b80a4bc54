#!/usr/bin/env bash
# The recipes of docs/batch.md on a tiny sweep: GNU parallel running `drape run --set`, the Slurm
# array script run as two array tasks by hand, and the gather script over both.
# usage: batch_test.sh path/to/drape repo_root
set -u
drape=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "batch_test: $*" >&2; exit 1; }
sheet=$root/scenes/figure2_sheet.json
command -v parallel >/dev/null || fail "GNU parallel is not installed (scripts/install-deps.sh)"

# GNU parallel: 2 stretch x 2 bend values, one folder per run.
parallel --will-cite -j 2 "$drape" run "$sheet" -q -n 2 -j 1 -o "$tmp/par/s{1}_b{2}" \
	--set cloths.0.material.stretch={1} --set cloths.0.material.bend={2} ::: 500 5000 ::: 1e-6 1e-4 ||
	fail "parallel sweep failed"
[ "$(ls "$tmp/par" | wc -l)" -eq 4 ] || fail "expected 4 run folders, got: $(ls "$tmp/par")"

# Slurm job array, tasks 0 and 1 run by hand.
printf '# stretch and bend per run\ncloths.0.material.stretch=500 cloths.0.material.bend=1e-6\ncloths.0.material.stretch=5000 cloths.0.material.bend=1e-4\n' >"$tmp/sweep.txt"
for task in 0 1; do
	SLURM_ARRAY_TASK_ID=$task DRAPE=$drape bash "$root/scripts/slurm_sweep.sh" "$sheet" "$tmp/sweep.txt" "$tmp/slurm" -n 2 ||
		fail "slurm task $task failed"
done
SLURM_ARRAY_TASK_ID=2 DRAPE=$drape bash "$root/scripts/slurm_sweep.sh" "$sheet" "$tmp/sweep.txt" "$tmp/slurm" -n 2 2>/dev/null &&
	fail "a task past the sweep file's end should fail"

/usr/bin/python3 "$root/scripts/sweep_gather.py" "$tmp/par" "$tmp/slurm" >"$tmp/sweep.csv" || fail "gather failed"
/usr/bin/python3 - "$tmp/sweep.csv" "$tmp" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 6, len(rows)
assert all(r["status"] == "ok" and r["frames_written"] == "3" and r["drape_version"] for r in rows), rows
by = {r["run"].replace(sys.argv[2] + "/", ""): r for r in rows}
assert by["par/s5000_b1e-4"]["overrides"] == "cloths.0.material.stretch=5000 cloths.0.material.bend=1e-4", by
assert by["slurm/run_0001"]["overrides"] == "cloths.0.material.stretch=5000 cloths.0.material.bend=1e-4", by
# The same overrides through either route give the same run.
assert by["slurm/run_0000"]["final_kinetic_energy"] == by["par/s500_b1e-6"]["final_kinetic_energy"], by
assert by["par/s500_b1e-6"]["final_kinetic_energy"] != by["par/s5000_b1e-6"]["final_kinetic_energy"], by
PY
echo "batch_test: ok"
