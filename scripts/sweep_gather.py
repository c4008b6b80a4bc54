#!/usr/bin/python3
"""Gathers a sweep (docs/batch.md): every run folder under the given folders that holds a
summary.json becomes one CSV row with its scene, overrides, drape version, status and totals.
usage: sweep_gather.py RUNS_DIR... > sweep.csv"""
import csv
import json
import os
import sys


def rows(roots):
    for root in roots:
        for dirpath, _, files in sorted(os.walk(root)):
            if "summary.json" not in files:
                continue
            with open(os.path.join(dirpath, "summary.json")) as f:
                s = json.load(f)
            t = s.get("totals", {})
            yield {
                "run": dirpath,
                "scene": s.get("scene", ""),
                "overrides": " ".join(s.get("overrides", [])),
                "drape_version": s.get("drape_version", ""),
                "status": s.get("status", ""),
                "frames_written": s.get("frames_written", 0),
                "simulated_time": s.get("simulated_time", 0),
                "wall_seconds": s.get("wall_seconds", 0),
                "steps": t.get("steps", 0),
                "cg_iterations_per_step": t.get("cg_iterations_per_step", 0),
                "final_kinetic_energy": t.get("final_kinetic_energy", 0),
            }


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    found = list(rows(argv[1:]))
    if not found:
        print(f"sweep_gather.py: no summary.json under {' '.join(argv[1:])}", file=sys.stderr)
        return 2
    w = csv.DictWriter(sys.stdout, fieldnames=list(found[0]))
    w.writeheader()
    w.writerows(found)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
