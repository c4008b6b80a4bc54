#!/usr/bin/env python3
"""Rewrites every access to a member of struct drape_world that moved into the world's model,
state or workspace (issue 30 item 2, docs/architecture.md "The world's three parts"):
w->x becomes w->state.x, w->triangles w->model.triangles, w->b w->work.b, at the exact source
locations that clang's AST gives, in every file that a compiled translation unit reads; and
renames world_prepare to workspace_prepare (RENAMES) and the paths of the files that moved from
solver/ to step/ and stability/ (PATH_MOVES) in every tracked file.

usage: python3 scripts/codemod_world_split.py [--build DIR] [--jobs N] [--check] [--list] [--only REGEX]
  --build DIR  the build folder whose compile_commands.json names the translation units and their
               flags (default build; configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
  --jobs N     clang processes at once (default 2)
  --check      change nothing; exit 1 if some access is still to be rewritten (0: none left)
  --list       print each rewrite as FILE:LINE: member -> part.member
  --only REGEX read only the translation units whose path matches (a trial run)

Re-runnable: it reads the struct as it stands. On a flat struct drape_world it rewrites every
access to a member of the table below; where the struct already has the parts, the members of
drape_world are the parts and the top-level ones, and nothing is rewritten. A member of
drape_world that the table does not place stops it before anything is written (add it to
PARTS). It needs the tree to compile with clang (clang 14 here), and rewrites only files under
the repository, only where the text at the location is the member's name after -> or '.'; a
location inside a macro's body is rewritten where the macro is spelled.

The order to apply it on a merged tree: configure the build folder, run this script, then
cherry-pick the hand commit that defines the parts (world_data.h) and their arena
(step/workspace.c), then build.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

# The members of struct drape_world by the part that holds them. Top-level members (the def,
# threads, cancel flag, error and warnings, test hooks) and the parts themselves stay put.
PARTS = {
    "model": """particle_count particle_capacity mass
        triangles triangle_count triangle_capacity hinges hinge_count hinge_capacity
        ms_springs ms_spring_count ms_spring_capacity ms_bends ms_bend_count ms_bend_capacity
        btens btens_count btens_capacity
        cloths cloth_count cloth_capacity constraints constraint_count constraint_capacity
        springs spring_count spring_capacity solids solid_count solid_capacity
        seams seam_count seam_capacity layers dirty""",
    "state": """time x v contacts repulsions repulsion_count repulsion_capacity proximity_count
        intersections control stats dv_last h_last x_prev v_prev h_prev
        limit_from limit_to limit_moved adi_phase""",
    "work": """query_hits query_capacity query_stack query_stack_size pairs pairs_ready
        triangle_colours hinge_colours ms_spring_colours ms_bend_colours
        line_slots line_capacity line_m line_v w_mid e_mid
        reuse_A reuse_r reuse_used reuse_y reuse_dirty reuse_t reuse_h reuse_mode reuse_step
        reuse_valid reuse_disabled reuse_passes
        A pcg bounds limit cholesky two_level multigrid multigrid_step_built cholesky_h
        cholesky_last_iterations b dv z y e x1 v1 S constrained partial
        bq_start bq_col bq_slot bq_k bq_d x_keep v_keep bdf2_active limit_pending limit_pending_moved
        newton_x newton_v newton_y newton_z""",
}
# Functions the split renames: world.c's world_prepare became step/workspace.c's workspace_prepare
# (whole words, in every tracked source, test and doc; this script's own text is left alone).
RENAMES = {"world_prepare": "workspace_prepare"}
# Files the rooms' move (the commit before the split) took out of solver/, as paths in includes,
# comments and docs; a branch written before the move is brought up to date with the rest.
MOVED = "implicit|integrators|bdf2|step_control|strain_change|strain_limit|bend_tensor_assemble|line_solve|constraints"
PATH_MOVES = {rf"\bsolver/({MOVED})\.(c|h)\b": r"step/\1.\2", r"\bsolver/wave1d\.(c|h)\b": r"stability/wave1d.\1"}
TOP = set("def threads threads_max cancel error status warnings fail_next_steps".split()) | set(PARTS)
PART_OF = {m: part for part, members in PARTS.items() for m in members.split()}

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def clang_args(entry):
    """The translation unit's flags for clang -fsyntax-only: defines, include folders, standard."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    keep, i = [], 1
    while i < len(args):
        a = args[i]
        if a in ("-o", "-c"):
            i += 2 if a == "-o" else 1
            continue
        if a in ("-I", "-isystem", "-D", "-include"):
            keep += [a, args[i + 1]]
            i += 2
            continue
        if a.startswith(("-I", "-D", "-std=", "-isystem")) or a == "-fopenmp":
            keep.append(a)
        i += 1
    return keep


def locations(node, state, found, fields):
    """Walks the JSON AST in document order. clang writes a location's file only where it differs
    from the last one written, so the current file is carried along in state."""
    if isinstance(node, list):
        for n in node:
            locations(n, state, found, fields)
        return
    if not isinstance(node, dict):
        return
    if "offset" in node:  # a bare location
        if "file" in node:
            state["file"] = node["file"]
        state["last"] = (state["file"], node["offset"], node.get("tokLen"))
        return
    kind = node.get("kind")
    if kind == "RecordDecl" and node.get("name") == "drape_world" and node.get("completeDefinition"):
        for f in node.get("inner", []):
            if f.get("kind") == "FieldDecl":
                fields[f["id"]] = f["name"]
    for key, value in node.items():
        if key == "range" and kind == "MemberExpr":
            locations(value.get("begin"), state, found, fields)
            end = value.get("end")
            if isinstance(end, dict) and "spellingLoc" in end:
                locations(end["spellingLoc"], state, found, fields)
                spelled = state["last"]
                locations(end["expansionLoc"], state, found, fields)
            else:
                locations(end, state, found, fields)
                spelled = state["last"]
            found.append((node.get("referencedMemberDecl"), node.get("name"), spelled))
        elif key != "inner":
            locations(value, state, found, fields)
    locations(node.get("inner", []), state, found, fields)


def scan(entry):
    """The accesses to drape_world's members in one translation unit: [(file, offset, member)]."""
    cmd = ["clang", "-fsyntax-only", "-Xclang", "-ast-dump=json", "-w"] + clang_args(entry) + [entry["file"]]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"clang failed on {entry['file']}:\n{out.stderr[-2000:]}")
    found, fields = [], {}
    locations(json.loads(out.stdout), {"file": None, "last": None}, found, fields)
    unknown = sorted({n for n in fields.values() if n not in TOP and n not in PART_OF})
    if unknown:
        raise SystemExit(f"struct drape_world has members no part holds: {', '.join(unknown)}; "
                         "place them in PARTS (scripts/codemod_world_split.py)")
    hits = []
    for decl, name, loc in found:
        if decl not in fields or name not in PART_OF or loc is None or loc[0] is None:
            continue
        path = os.path.normpath(os.path.join(ROOT, loc[0]))
        if not path.startswith(ROOT + os.sep) or os.sep + "build" in path[len(ROOT):]:
            continue
        hits.append((os.path.relpath(path, ROOT), loc[1], name))
    return hits


def rename_functions(opt):
    """The functions the split renames (RENAMES) and the moved files' paths (PATH_MOVES), in every
    tracked file: code, tests and docs. Done first, so that a branch written before the moves
    compiles for the scan."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    count = 0
    for name in files:
        path = os.path.join(ROOT, name.decode())
        if not name or name == b"scripts/codemod_world_split.py" or not name.endswith((b".c", b".h", b".md", b".py", b".svg", b".sh")) or not os.path.isfile(path):
            continue
        text = open(path, encoding="utf-8", errors="surrogateescape").read()
        new = text
        for old, to in list(RENAMES.items()) + list(PATH_MOVES.items()):
            new, k = re.subn(old if old in PATH_MOVES else rf"\b{old}\b", to, new)
            count += k
            if k and opt.list:
                print(f"{name.decode()}: {k} x {old} -> {to}")
        if new != text and not opt.check:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(new)
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only", default="", help="read only the translation units whose path matches this regex")
    opt = ap.parse_args()
    db = os.path.join(ROOT, opt.build, "compile_commands.json")
    if not os.path.exists(db):
        raise SystemExit(f"{db}: missing (cmake -S . -B {opt.build} -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)")
    entries = [e for e in json.load(open(db))
               if os.path.abspath(e["file"]).startswith(ROOT + os.sep) and e["file"].endswith(".c")
               and re.search(opt.only, e["file"])]
    renamed = rename_functions(opt)
    if opt.check and renamed:
        print(f"{renamed} calls, includes or mentions still to rename (the accesses are counted after them)", file=sys.stderr)
        sys.exit(1)
    edits = {}
    with ProcessPoolExecutor(opt.jobs) as pool:
        for hits in pool.map(scan, entries):
            for path, offset, name in hits:
                edits.setdefault(path, {})[offset] = name
    total, rewritten = 0, {}
    for path in sorted(edits):
        text = open(os.path.join(ROOT, path), encoding="utf-8").read().encode("utf-8")
        for offset in sorted(edits[path], reverse=True):
            name = edits[path][offset]
            if text[offset:offset + len(name)].decode() != name or not re.search(rb"(->|\.)\s*$", text[max(0, offset - 64):offset]):
                raise SystemExit(f"{path}: byte {offset} is not the member {name} after -> or '.'; nothing written")
            part = PART_OF[name]
            if opt.list:
                line = text[:offset].count(b"\n") + 1
                print(f"{path}:{line}: {name} -> {part}.{name}")
            text = text[:offset] + part.encode() + b"." + text[offset:]
            total += 1
        rewritten[path] = text
    for path, text in rewritten.items():  # every location checked before any file is written
        if not opt.check:
            with open(os.path.join(ROOT, path), "wb") as f:
                f.write(text)
    print(f"{total} accesses in {len(edits)} files {'to rewrite' if opt.check else 'rewritten'} "
          f"({len(entries)} translation units read); {renamed} calls or mentions of renamed functions", file=sys.stderr)
    sys.exit(1 if opt.check and (total or renamed) else 0)


if __name__ == "__main__":
    main()
