#!/usr/bin/env python3
"""The stall corpus measured (docs/reliability.md, "The stall corpus, measured"; issue 31, item 3):
every scene of tests/scenes/hangs and, for each numeric value in it (keys and array entries), the
scene with that value times 0.1 and times 10, run for two frames on one thread; CPU seconds (user +
system of the child), exit status and the message's first words, one CSV row each.
usage: scripts/stall_corpus.py DRAPE OUT.csv [--limit CPU_S] [--only NAME...]"""
import argparse
import copy
import csv
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile


def leaves(node, path=()):
    """Paths to the numbers in a JSON value (booleans aside)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, path + (i,))
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield path


def set_at(node, path, value):
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


def get_at(node, path):
    for p in path:
        node = node[p]
    return node


def run(drape, scene_path, workdir, limit):
    out = os.path.join(workdir, "out")
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMP_NUM_THREADS="1")

    def cap():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([drape, "run", scene_path, "--frames", "2", "--threads", "1", "--quiet", "--out", out],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=cap)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    msg = p.stderr.decode(errors="replace").strip().replace("\n", " ")
    return p.returncode, cpu, msg[:160]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("drape")
    ap.add_argument("out")
    ap.add_argument("--limit", type=int, default=60)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    hangs = os.path.join(root, "tests", "scenes", "hangs")
    work = tempfile.mkdtemp()
    # the scenes' own files (the crushed ball's OBJ) beside the mutated copies
    for f in os.listdir(hangs):
        if not f.endswith(".json"):
            shutil.copy(os.path.join(hangs, f), work)
    with open(a.out, "w", newline="") as fo:
        w = csv.writer(fo)
        w.writerow(["scene", "value", "factor", "exit", "cpu_s", "message"])
        for name in sorted(f for f in os.listdir(hangs) if f.endswith(".json")):
            if a.only and name[:-5] not in a.only:
                continue
            base = json.load(open(os.path.join(hangs, name)))
            cases = [("", 1.0, base)]
            for path in leaves(base):
                v = get_at(base, path)
                for factor in (0.1, 10.0):
                    m = copy.deepcopy(base)
                    nv = v * factor
                    if isinstance(v, int):
                        nv = int(round(nv))
                    set_at(m, path, nv)
                    cases.append((".".join(map(str, path)), factor, m))
            for key, factor, scene in cases:
                sp = os.path.join(work, name)
                with open(sp, "w") as f:
                    json.dump(scene, f)
                rc, cpu, msg = run(a.drape, sp, work, a.limit)
                w.writerow([name[:-5], key, factor, rc, f"{cpu:.3f}", msg])
                fo.flush()
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
