#!/usr/bin/env bash
# `make test-slurm`: the Slurm job array of docs/batch.md submitted to a real scheduler. Installs
# Debian's slurm-wlm and munge when missing, starts a private single-node cluster on localhost
# (its own munge key and socket, slurm.conf, ports, state and logs in a temporary folder; no
# cgroups, no accounting, no systemd), waits for the node to be idle, submits
# scripts/slurm_sweep.sh with `sbatch --array --wait` on a sweep of three cheap runs, checks
# every task's run folder and log, gathers the sweep with scripts/sweep_gather.py and checks its
# rows, then stops the daemons it started. Needs root (slurmd runs jobs as their user). Every
# wait is bounded; a failure prints the daemons' logs.
# usage: slurm_test.sh path/to/drape repo_root
set -u
drape=$(realpath "$1")
root=$(realpath "$2")
fail() {
	echo "slurm_test: $*" >&2
	for log in "${tmp:-/nonexistent}"/log/*.log "${tmp:-/nonexistent}"/work/*.log; do
		[ -f "$log" ] && { echo "--- $log (last 20 lines)" >&2; tail -n 20 "$log" >&2; }
	done
	exit 1
}
[ "$(id -u)" -eq 0 ] || fail "needs root: slurmd and munged run as root here"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
	! command -v munged >/dev/null || ! command -v mungekey >/dev/null; then
	echo "installing slurm-wlm and munge (Debian packages)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || fail "apt-get update failed"
	apt-get install -y -qq --no-install-recommends slurm-wlm munge ||
		fail "apt-get install slurm-wlm munge failed"
fi
[ -x /usr/bin/python3 ] || fail "/usr/bin/python3 is missing"

tmp=$(mktemp -d /tmp/drape-slurm.XXXXXX)
# munged wants every folder above its socket searchable by all.
chmod 755 "$tmp"
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/work"
stop() {
	cd / || true
	[ -s "$tmp/slurmctld.pid" ] && SLURM_CONF=$tmp/slurm.conf timeout 10 scancel --quiet --name=drape-sweep 2>/dev/null
	# slurmd and slurmctld first (they talk to munged), then munged; each by its pid file.
	for name in slurmd slurmctld munged; do
		pidfile=$tmp/$name.pid
		[ -s "$pidfile" ] || continue
		pid=$(cat "$pidfile")
		kill "$pid" 2>/dev/null || continue
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap stop EXIT
trap 'exit 1' HUP INT PIPE TERM

# munge: a key of this cluster's own and a private socket, so an installed munged is not touched.
mungekey --create --keyfile="$tmp/munge/munge.key" || fail "mungekey could not create a key"
munged --socket="$tmp/munge/munge.socket" --key-file="$tmp/munge/munge.key" \
	--pid-file="$tmp/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed" ||
	fail "munged did not start"
for _ in $(seq 50); do [ -S "$tmp/munge/munge.socket" ] && break; sleep 0.2; done
munge --socket="$tmp/munge/munge.socket" -n | unmunge --socket="$tmp/munge/munge.socket" >/dev/null ||
	fail "munge credentials do not round-trip through the private munged"

# Two free TCP ports on localhost for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
cpus=$(nproc)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<END
ClusterName=drapetest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=256 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
END
slurmctld -c || fail "slurmctld did not start"
slurmd -N localhost || fail "slurmd did not start"

state=
for _ in $(seq 60); do
	state=$(sinfo --noheader --nodes=localhost --format=%T 2>/dev/null)
	[ "$state" = idle ] && break
	sleep 1
done
[ "$state" = idle ] || fail "node localhost not idle after 60 s (sinfo says '${state:-nothing}')"
echo "slurm_test: single-node cluster up ($cpus CPUs, ports $ctld_port and $slurmd_port)"

# The docs' sweep: three runs of the sheet, two frames each, as an array job.
cd "$tmp/work" || fail "no work folder"
cat >sweep.txt <<'END'
# stretch  bend
cloths.0.material.stretch=500  cloths.0.material.bend=1e-6
cloths.0.material.stretch=5000 cloths.0.material.bend=1e-4

cloths.0.material.stretch=2000 cloths.0.material.bend=1e-5
END
n=3
# The script asks for 2 CPUs per task; a one-CPU machine gets 1.
cpt=()
((cpus < 2)) && cpt=(--cpus-per-task=1)
start=$(date +%s)
job=$(DRAPE="$drape" timeout 30 sbatch --parsable --array=0-$((n - 1)) "${cpt[@]}" \
	"$root/scripts/slurm_sweep.sh" "$root/scenes/figure2_sheet.json" sweep.txt runs -n 2) ||
	fail "sbatch refused the array job"
job=${job%%;*}
# Polled rather than `sbatch --wait`, whose poll interval grows to half a minute.
queued=
for _ in $(seq 300); do
	queued=$(squeue --noheader --jobs="$job" --states=PD,CF,R,CG,S,RQ,RS --format='%i %T' 2>&1)
	[ -z "$queued" ] && break
	sleep 1
done
[ -z "$queued" ] || fail "array job $job not finished after 300 s; squeue: $(echo "$queued" | head -5)"
echo "slurm_test: array job $job finished in $(($(date +%s) - start)) s"
# Without accounting, the controller keeps finished jobs for MinJobAge (300 s): one line a task.
scontrol --oneliner show job "$job" >tasks || fail "scontrol show job $job failed"
[ "$(grep -c 'JobState=COMPLETED .* ExitCode=0:0' tasks)" -eq "$n" ] ||
	fail "not all $n tasks of job $job completed with exit code 0: $(grep -o 'ArrayTaskId=[^ ]*\|JobState=[^ ]*\|ExitCode=[^ ]*' tasks | paste -sd' ')"

for ((i = 0; i < n; i++)); do
	run=$(printf 'runs/run_%04d' "$i")
	[ -f "$run/summary.json" ] || fail "task $i: no $run/summary.json"
	/usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); sys.exit(s["status"] != "ok")' \
		"$run/summary.json" || fail "task $i: $run/summary.json status is not ok"
	[ -f "drape-sweep-${job}_$i.log" ] || fail "task $i: Slurm wrote no drape-sweep-${job}_$i.log"
done

/usr/bin/python3 "$root/scripts/sweep_gather.py" runs >sweep.csv || fail "gather failed"
/usr/bin/python3 - sweep.csv sweep.txt <<'PY' || fail "the gathered rows are wrong"
import csv, sys
rows = sorted(csv.DictReader(open(sys.argv[1])), key=lambda r: r["run"])
lines = [" ".join(l.split()) for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
assert [r["run"] for r in rows] == ["runs/run_%04d" % i for i in range(len(lines))], rows
for r, l in zip(rows, lines):
    assert r["status"] == "ok" and r["frames_written"] == "3" and r["drape_version"], r
    assert r["overrides"] == l, (r["overrides"], l)
# Different materials, different results: each task ran its own line.
assert len({r["final_kinetic_energy"] for r in rows}) == len(rows), rows
PY
echo "slurm_test: ok ($n array tasks, gathered)"
