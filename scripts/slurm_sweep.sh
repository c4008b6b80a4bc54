#!/usr/bin/env bash
# A parameter sweep as a Slurm job array (docs/batch.md): task i runs `drape run` with the
# overrides on line i + 1 of the sweep file (one run per line, overrides separated by spaces,
# '#' lines ignored) into RUNS/run_NNNN. Submit with
#   sbatch --array=0-$(($(grep -cv '^#' sweep.txt) - 1)) scripts/slurm_sweep.sh SCENE sweep.txt RUNS
# or run one task anywhere by setting SLURM_ARRAY_TASK_ID yourself. Extra arguments after RUNS go
# to `drape run` (e.g. -n 60). DRAPE names the drape program (default: drape on PATH).
#SBATCH --job-name=drape-sweep
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
#SBATCH --output=drape-sweep-%A_%a.log
set -euo pipefail
if (($# < 3)); then
	echo "usage: slurm_sweep.sh SCENE.json SWEEP.txt RUNS_DIR [drape run options...]" >&2
	exit 2
fi
scene=$1 sweep=$2 runs=$3
shift 3
task=${SLURM_ARRAY_TASK_ID:?set SLURM_ARRAY_TASK_ID (sbatch --array does)}
line=$(grep -v '^[[:space:]]*\(#\|$\)' "$sweep" | sed -n "$((task + 1))p")
if [ -z "$line" ]; then
	echo "slurm_sweep.sh: task $task: no line $((task + 1)) in $sweep" >&2
	exit 2
fi
args=()
for kv in $line; do args+=(--set "$kv"); done
threads=${SLURM_CPUS_PER_TASK:-1}
exec "${DRAPE:-drape}" run "$scene" --out "$(printf '%s/run_%04d' "$runs" "$task")" -j "$threads" -q "${args[@]}" "$@"
