#!/usr/bin/env bash
# The command is a user of the public API (issue 30 item 4): a file in app/ includes drape.h and
# app/ headers, and a header from src/ only where it is on the list below, each with the reason it
# is still there. A new private include fails; so does a listed one that is gone (shrink the list).
# usage: app_includes_test.sh repo_root
set -u
root=$1
# file:header, one per line; the reasons are in the comments.
allowed=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' <<'LIST'
# `drape run`, `render` and `view` are on the public API (drape_world_draw, drape_scene_*,
# drape_sewing_*); what is left:
# vec3 and quaternion arithmetic (header-only, no world state): the drawing and camera maths
app/draw.c:collide/transform.h
app/view_camera.c:math/vec3.h
app/view_pick.c:math/vec3.h
# did-you-mean and array growth helpers (core_closest_name, core_reserve): utilities, not drape's API
app/cli.c:core.h
app/main.c:core.h
app/view_hooks.c:core.h
# benchmarks: variants of a built-in scene's JSON text (no public load-from-text), the scene's
# struct for its fps and thread count, the sewing phase
app/bench.c:io/embedded.h
app/bench.c:io/scene.h
app/bench_scaling.c:io/embedded.h
app/bench_scaling.c:io/scene.h
# benchmarks that time library internals (posing the solids, BSR products, mesh solids' sizes) and
# `drape stability`, the ADI research analysis (src/stability/), which has no public API
app/bench_character.c:collide/solid.h
app/bench_character.c:world.h
app/bench_integrators.c:stability/stability.h
app/bench_scaling.c:solver/bsr.h
app/bench_scaling.c:world.h
app/stability_report.h:stability/stability.h
LIST
)
found=$(cd "$root" && for f in app/*.c app/*.h; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		[ "$h" = drape.h ] && continue
		[ -f "app/$h" ] && continue
		echo "$f:$h"
	done
done)
status=0
for item in $found; do
	grep -qxF "$item" <<<"$allowed" || { echo "FAILED  ${item%%:*} includes the library's private ${item#*:}: use include/drape.h"; status=1; }
done
for item in $allowed; do
	grep -qxF "$item" <<<"$found" || { echo "FAILED  ${item%%:*} no longer includes ${item#*:}: take it off the list"; status=1; }
done
[ $status = 0 ] && echo "ok      app/ includes only drape.h, app/ headers and the $(wc -l <<<"$allowed") listed private headers"
exit $status
