/* `drape render DIR`: turns the frames of a `drape run` output into PNG images and a video. The
 * world is rebuilt from the scene summary.json names (for the solids, posed at each frame's
 * time), each frame's cloth positions come from its OBJ, and draw.c draws it offscreen
 * (offscreen.c), with a camera from the scene's output.camera or one framing every frame. */
#include "commands.h"
#include "cli.h"
#include "interrupt.h"
#include "draw.h"
#include "offscreen.h"
#include "png_write.h"
#include "progress.h"
#include "video.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <math.h>
#include <unistd.h>

static void render_usage(FILE* f)
{
	fprintf(f, "usage: drape render DIR [-o|--out FOLDER] [--size WxH] [--video mp4|gif|none] [--fps F]\n"
		   "                   [-n|--frames A:B] [--eye X,Y,Z] [--target X,Y,Z] [--wireframe] [-q|--quiet]\n"
		   "                   [-h|--help]   (options take their value as --out DIR or --out=DIR)\n"
		   "\n"
		   "Draws the frames of a `drape run` output folder DIR (frame_NNNN.obj, summary.json) with\n"
		   "OpenGL offscreen (no display or GPU needed) and writes:\n"
		   "  FOLDER/frame_NNNN.png   one image per frame (default FOLDER: DIR/render)\n"
		   "  FOLDER.mp4 or .gif      the frames as a video, made by ffmpeg\n"
		   "The solids come from the scene the run used, with its --set overrides (summary.json). The\n"
		   "camera is the scene's output.camera, or else one that frames the cloth and solids over all\n"
		   "frames.\n"
		   "\n"
		   "options:\n"
		   "  --out FOLDER     where the PNG frames go (default DIR/render)\n"
		   "  --size WxH       image size in pixels (default 800x600)\n"
		   "  --video FORMAT   mp4 (default), gif, or none for PNG frames only\n"
		   "  --fps F          video frame rate (default: the scene's output.fps)\n"
		   "  --frames A:B     only frames A to B (either may be left out, e.g. 30: or :10, or one N)\n"
		   "  --eye X,Y,Z      the camera's position instead of the scene's (metres; e.g. a second view)\n"
		   "  --target X,Y,Z   the point it looks at instead of the scene's\n"
		   "  --wireframe      draw the cloth's triangle edges too\n"
		   "  --quiet          no progress bar and no closing line\n"
		   "  --help           show this help\n");
}

/* render_options.last when --frames does not bound it. */
#define ALL_FRAMES 100000000

typedef struct render_options {
	const char* dir;
	const char* out; /* NULL: DIR/render */
	int width, height;
	video_format video;
	double fps; /* 0: the scene's */
	long first, last;
	bool wireframe, quiet;
	bool eye_set, target_set;
	double eye[3], target[3];
} render_options;

typedef struct frame_list {
	int* numbers;
	int count;
} frame_list;

static int compare_int(const void* a, const void* b)
{
	int x = *(const int*)a, y = *(const int*)b;
	return (x > y) - (x < y);
}

/* The frame numbers of DIR's frame_NNNN.obj files within [first, last], sorted. */
static bool list_frames(const char* dir, long first, long last, frame_list* out, char* err, size_t err_size)
{
	out->numbers = NULL;
	out->count = 0;
	DIR* d = opendir(dir);
	if (!d) {
		snprintf(err, err_size, "cannot read '%s': %s", dir, strerror(errno));
		return false;
	}
	int capacity = 0;
	struct dirent* e;
	bool ok = true;
	while (ok && (e = readdir(d))) {
		int n, used = 0;
		if (sscanf(e->d_name, "frame_%d.obj%n", &n, &used) != 1 || used != (int)strlen(e->d_name) || n < 0) continue;
		if (n < first || n > last) continue;
		if (out->count == capacity) {
			capacity = capacity ? 2 * capacity : 64;
			int* p = realloc(out->numbers, (size_t)capacity * sizeof *p);
			if (!p) {
				ok = false;
				break;
			}
			out->numbers = p;
		}
		out->numbers[out->count++] = n;
	}
	closedir(d);
	if (!ok) {
		snprintf(err, err_size, "out of memory listing the frames of '%s'", dir);
		free(out->numbers);
		return false;
	}
	if (out->count) qsort(out->numbers, (size_t)out->count, sizeof *out->numbers, compare_int);
	return true;
}

/* A garment run's seam merges, in the order they happened (summary.json "sewing.merged"). */
typedef struct merge_log {
	char** seams;
	int* frames;
	int count;
	double motion_start; /* s, sewing.motion_start; < 0: none */
} merge_log;

static void merge_log_free(merge_log* m)
{
	for (int i = 0; i < m->count; ++i) free(m->seams[i]);
	free(m->seams);
	free(m->frames);
	memset(m, 0, sizeof *m);
}

static bool read_merges(const cJSON* root, merge_log* m)
{
	const cJSON* sewing = cJSON_GetObjectItemCaseSensitive(root, "sewing");
	const cJSON* start = cJSON_GetObjectItemCaseSensitive(sewing, "motion_start");
	m->motion_start = cJSON_IsNumber(start) ? start->valuedouble : -1.0;
	const cJSON* list = cJSON_GetObjectItemCaseSensitive(sewing, "merged");
	int n = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
	if (n == 0) return true;
	m->seams = calloc((size_t)n, sizeof *m->seams);
	m->frames = calloc((size_t)n, sizeof *m->frames);
	if (!m->seams || !m->frames) return false;
	for (const cJSON* e = list->child; e; e = e->next) {
		const cJSON* name = cJSON_GetObjectItemCaseSensitive(e, "seam");
		const cJSON* frame = cJSON_GetObjectItemCaseSensitive(e, "frame");
		if (!cJSON_IsString(name) || !cJSON_IsNumber(frame)) continue;
		if (!(m->seams[m->count] = strdup(name->valuestring))) return false;
		m->frames[m->count++] = frame->valueint;
	}
	return true;
}

/* The run's --set overrides (summary.json "overrides"), so that the solids and cloth are rebuilt as
 * they ran, not as the scene file alone has them. */
typedef struct override_list {
	char** items;
	int32_t count;
} override_list;

static void override_list_free(override_list* o)
{
	for (int32_t i = 0; i < o->count; ++i) free(o->items[i]);
	free(o->items);
	memset(o, 0, sizeof *o);
}

static bool read_overrides(const cJSON* root, override_list* o)
{
	const cJSON* list = cJSON_GetObjectItemCaseSensitive(root, "overrides");
	int n = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
	if (n == 0) return true;
	if (!(o->items = calloc((size_t)n, sizeof *o->items))) return false;
	for (const cJSON* e = list->child; e; e = e->next) {
		if (!cJSON_IsString(e)) continue;
		if (!(o->items[o->count] = strdup(e->valuestring))) return false;
		++o->count;
	}
	return true;
}

/* Reads summary.json: the scene it ran (absolute path when recorded), its --set overrides, the
 * frame rate and the seam merges. */
static bool read_summary(const char* dir, char** scene_path, override_list* sets, double* fps, merge_log* merges, char* err,
			 size_t err_size)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/summary.json", dir);
	FILE* f = fopen(path, "rb");
	if (!f) {
		snprintf(err, err_size, "'%s' is not a drape output folder (no summary.json in it); make one with `drape run --out %s`",
			 dir, dir);
		return false;
	}
	char* text = NULL;
	size_t size = 0, cap = 0;
	for (;;) {
		if (size + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			char* p = realloc(text, cap);
			if (!p) break;
			text = p;
		}
		size_t n = fread(text + size, 1, cap - size - 1, f);
		size += n;
		if (n == 0) break;
	}
	fclose(f);
	if (text) text[size] = '\0';
	cJSON* root = text ? cJSON_Parse(text) : NULL;
	free(text);
	const cJSON* file = cJSON_GetObjectItemCaseSensitive(root, "scene_file");
	const cJSON* scene = cJSON_GetObjectItemCaseSensitive(root, "scene");
	const cJSON* output = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "settings"), "output");
	const cJSON* rate = cJSON_GetObjectItemCaseSensitive(output, "fps");
	const char* chosen = cJSON_IsString(file) ? file->valuestring : (cJSON_IsString(scene) ? scene->valuestring : NULL);
	if (!chosen || !cJSON_IsNumber(rate) || !(rate->valuedouble > 0.0)) {
		snprintf(err, err_size, "'%s' is not a drape output folder: its summary.json does not name the scene and frame rate",
			 dir);
		cJSON_Delete(root);
		return false;
	}
	*scene_path = strdup(chosen);
	*fps = rate->valuedouble;
	bool merges_ok = read_merges(root, merges);
	bool sets_ok = read_overrides(root, sets);
	cJSON_Delete(root);
	if (!*scene_path || !merges_ok || !sets_ok) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	return true;
}

/* Characters held until the garment relaxed ("hold": "relaxed") move from the run's motion_start. */
static void start_motion(drape_world* w, const drape_scene* s, const merge_log* merges)
{
	if (merges->motion_start >= 0.0) drape_scene_start_motion(s, w, merges->motion_start);
}

/* Merges the seams the run had merged by `frame`, in its order (docs/garments.md); without a log
 * (older folders), seam after seam in scene order until the vertex counts match. */
static void replay_merges(drape_world* w, const merge_log* merges, int frame, int32_t vertex_count)
{
	const int32_t count = drape_cloth_count(w);
	if (merges->count > 0) {
		for (int i = 0; i < merges->count && merges->frames[i] <= frame; ++i)
			for (int32_t k = 0; k < drape_seam_count(w); ++k)
				if (strcmp(drape_seam_name(w, (drape_seam_id){k}), merges->seams[i]) == 0 &&
				    !drape_seam_merged(w, (drape_seam_id){k}))
					drape_seam_merge(w, (drape_seam_id){k});
		return;
	}
	int32_t total = 0;
	for (int32_t c = 0; c < count; ++c) total += drape_cloth_vertex_count(w, (drape_cloth_id){c});
	for (int32_t k = 0; vertex_count < total && k < drape_seam_count(w); ++k) {
		if (drape_seam_merged(w, (drape_seam_id){k}) || drape_seam_merge(w, (drape_seam_id){k}) != DRAPE_OK) continue;
		total = 0;
		for (int32_t c = 0; c < count; ++c) total += drape_cloth_vertex_count(w, (drape_cloth_id){c});
	}
}

/* Sets every cloth's positions from DIR/frame_NNNN.obj (the cloths' vertices in scene order). */
static bool load_frame(drape_world* w, const merge_log* merges, const char* dir, int frame, double* scratch, char* err,
		       size_t err_size)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/frame_%04d.obj", dir, frame);
	drape_mesh m;
	char why[512];
	if (drape_mesh_load_obj_geometry(path, &m, why, sizeof why) != DRAPE_OK) {
		snprintf(err, err_size, "cannot read frame %d: %s", frame, why);
		return false;
	}
	replay_merges(w, merges, frame, m.vertex_count);
	int32_t total = 0, count = drape_cloth_count(w);
	for (int32_t c = 0; c < count; ++c) total += drape_cloth_vertex_count(w, (drape_cloth_id){c});
	bool ok = m.vertex_count == total;
	if (!ok)
		snprintf(err, err_size, "'%s' has %d vertices but the scene's cloths have %d: the folder and its scene do not match",
			 path, m.vertex_count, total);
	for (int32_t c = 0, first = 0; ok && c < count; ++c) {
		drape_cloth_id id = {c};
		int32_t n = drape_cloth_vertex_count(w, id);
		memcpy(scratch, m.positions + 3 * (size_t)first, 3 * (size_t)n * sizeof *scratch);
		if (drape_cloth_set_positions(w, id, scratch) != DRAPE_OK) {
			snprintf(err, err_size, "'%s': %s", path, drape_world_error(w));
			ok = false;
		}
		first += n;
	}
	drape_mesh_free(&m);
	return ok;
}

/* Removes FOLDER/frame_*.png left by an earlier render, so the folder holds this render only. */
static bool clear_pngs(const char* folder, char* err, size_t err_size)
{
	DIR* d = opendir(folder);
	if (!d) return true;
	struct dirent* e;
	bool ok = true;
	while (ok && (e = readdir(d))) {
		int n, used = 0;
		if (sscanf(e->d_name, "frame_%d.png%n", &n, &used) != 1 || used != (int)strlen(e->d_name)) continue;
		char path[4400];
		snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
		if (unlink(path) != 0) {
			snprintf(err, err_size, "cannot remove the old image '%s': %s", path, strerror(errno));
			ok = false;
		}
	}
	closedir(d);
	return ok;
}

typedef struct render_job {
	const render_options* opt;
	drape_scene* s;
	drape_world* world;
	frame_list frames;
	double fps;
	merge_log merges;
	double* scratch;
	uint8_t* rgb;
	offscreen* gl;
	drawer* drawer;
	video* video;
	char folder[4096], video_path[4200];
} render_job;

static void job_free(render_job* j)
{
	if (j->video) {
		char ignored[16];
		video_close(j->video, false, ignored, sizeof ignored);
	}
	drawer_destroy(j->drawer);
	offscreen_destroy(j->gl);
	free(j->rgb);
	free(j->scratch);
	free(j->frames.numbers);
	merge_log_free(&j->merges);
	if (j->world) drape_world_destroy(j->world);
	drape_scene_destroy(j->s);
}

/* Everything before the first image: the folder's summary and frames, the scene and its world,
 * the camera region, the output folder, the OpenGL context and ffmpeg. */
static int prepare(render_job* j, draw_camera* cam, draw_options* dopt, char* err, size_t err_size)
{
	const render_options* o = j->opt;
	struct stat st;
	errno = 0;
	if (stat(o->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, err_size, "'%s' is not a drape output folder (%s)", o->dir,
			 errno == ENOENT ? "no such directory" : (errno ? strerror(errno) : "not a directory"));
		return EXIT_BAD_INPUT;
	}
	char* scene_path = NULL;
	override_list sets = {0};
	bool read = read_summary(o->dir, &scene_path, &sets, &j->fps, &j->merges, err, err_size);
	char why[1024];
	if (read) j->s = drape_scene_load_overrides(scene_path, (const char* const*)sets.items, sets.count, why, sizeof why);
	bool loaded = j->s != NULL;
	if (read && !loaded) snprintf(err, err_size, "cannot load the scene of '%s' (%s): %s", o->dir, scene_path, why);
	free(scene_path);
	override_list_free(&sets);
	if (!read) return EXIT_BAD_INPUT;
	if (o->fps > 0.0) j->fps = o->fps;
	if (!loaded) return EXIT_BAD_INPUT;
	j->world = drape_scene_create_world(j->s, NULL, why, sizeof why);
	if (j->world) start_motion(j->world, j->s, &j->merges);
	if (!j->world) {
		snprintf(err, err_size, "cannot build the scene of '%s': %s", o->dir, why);
		return EXIT_BAD_INPUT;
	}
	if (!list_frames(o->dir, o->first, o->last, &j->frames, err, err_size)) return EXIT_BAD_INPUT;
	if (j->frames.count == 0) {
		snprintf(err, err_size, "'%s' has no frame_NNNN.obj files%s", o->dir, o->first > 0 || o->last < ALL_FRAMES ? " in the chosen --frames range" : "");
		return EXIT_BAD_INPUT;
	}
	int32_t most = 1;
	for (int32_t c = 0; c < drape_cloth_count(j->world); ++c) {
		int32_t n = drape_cloth_vertex_count(j->world, (drape_cloth_id){c});
		if (n > most) most = n;
	}
	j->scratch = malloc(3 * (size_t)most * sizeof *j->scratch);
	j->rgb = malloc(3 * (size_t)o->width * (size_t)o->height);
	if (!j->scratch || !j->rgb) {
		snprintf(err, err_size, "out of memory for %dx%d images", o->width, o->height);
		return EXIT_IO;
	}

	/* The region every frame occupies: the ground and the automatic camera stay put. Reading
	 * each frame here also checks them all before any image is written. */
	double up[3];
	draw_bounds_empty(dopt->region_lo, dopt->region_hi);
	draw_world_up(j->world, up);
	for (int i = 0; i < j->frames.count; ++i) {
		int f = j->frames.numbers[i];
		if (!load_frame(j->world, &j->merges, o->dir, f, j->scratch, err, err_size)) return EXIT_BAD_INPUT;
		draw_world_bounds(j->world, f / j->fps, dopt->region_lo, dopt->region_hi);
	}
	/* Seams merged while reading later frames cannot be undone for the first: start afresh. */
	if (drape_seam_count(j->world) > 0) {
		char why[1024];
		drape_world_destroy(j->world);
		j->world = drape_scene_create_world(j->s, NULL, why, sizeof why);
		if (j->world) start_motion(j->world, j->s, &j->merges);
		if (!j->world) {
			snprintf(err, err_size, "%s", why);
			return EXIT_BAD_INPUT;
		}
	}
	dopt->fixed_region = true;
	dopt->width = o->width;
	dopt->height = o->height;
	dopt->wireframe = o->wireframe;
	if (!drape_scene_camera(j->s, cam->eye, cam->target, cam->up, &cam->fov_y_deg)) {
		*cam = draw_camera_frame_box(dopt->region_lo, dopt->region_hi, up, (double)o->width / o->height);
	}
	if (o->eye_set) memcpy(cam->eye, o->eye, sizeof cam->eye);
	if (o->target_set) memcpy(cam->target, o->target, sizeof cam->target);

	if (o->out) snprintf(j->folder, sizeof j->folder, "%s", o->out);
	else snprintf(j->folder, sizeof j->folder, "%s/render", o->dir);
	size_t len = strlen(j->folder);
	while (len > 1 && j->folder[len - 1] == '/') j->folder[--len] = '\0';
	snprintf(j->video_path, sizeof j->video_path, "%s.%s", j->folder, o->video == VIDEO_GIF ? "gif" : "mp4");

	/* The folder changes only once nothing can fail before the first image (docs/reliability.md,
	 * "Check before you act"). A render of a --frames range replaces its own images and leaves
	 * the others an earlier render made; a whole render leaves only its own. */
	j->gl = offscreen_create(o->width, o->height, err, err_size);
	if (!j->gl) return EXIT_IO;
	j->drawer = drawer_create();
	if (!j->drawer) {
		snprintf(err, err_size, "out of memory");
		return EXIT_IO;
	}
	const bool whole = o->first == 0 && o->last == ALL_FRAMES;
	if (drape_make_dirs(j->folder, err, err_size) != DRAPE_OK || (whole && !clear_pngs(j->folder, err, err_size))) return EXIT_IO;
	if (o->video != VIDEO_NONE && video_ffmpeg_available()) {
		j->video = video_open(j->video_path, o->video, o->width, o->height, j->fps, err, err_size);
		if (!j->video) return EXIT_IO;
	}
	return EXIT_OK;
}

static int render(const render_options* o)
{
	render_job j;
	memset(&j, 0, sizeof j);
	j.opt = o;
	char err[10000];
	draw_camera cam;
	draw_options dopt;
	memset(&dopt, 0, sizeof dopt);
	int status = prepare(&j, &cam, &dopt, err, sizeof err);
	if (status != EXIT_OK) {
		fprintf(stderr, "drape render: %s\n", err);
		job_free(&j);
		return status;
	}
	interrupt_watch();
	progress bar;
	progress_begin(&bar, "drape render", j.frames.count, o->quiet);
	double start = wall_seconds();
	int done = 0;
	for (int i = 0; status == EXIT_OK && i < j.frames.count; ++i) {
		if (interrupt_requested()) {
			status = EXIT_INTERRUPTED;
			snprintf(err, sizeof err, "interrupted after %d images%s", done, o->video != VIDEO_NONE ? "; no video was made" : "");
			break;
		}
		int f = j.frames.numbers[i];
		double t = f / j.fps;
		char path[4300];
		snprintf(path, sizeof path, "%s/frame_%04d.png", j.folder, f);
		if (!load_frame(j.world, &j.merges, o->dir, f, j.scratch, err, sizeof err)) {
			status = EXIT_BAD_INPUT;
			break;
		}
		draw_world(j.drawer, j.world, t, &cam, &dopt);
		if (!offscreen_read(j.gl, j.rgb, err, sizeof err) || !png_write_rgb(path, j.rgb, o->width, o->height, err, sizeof err) ||
		    (j.video && !video_write(j.video, j.rgb, err, sizeof err))) {
			status = EXIT_IO;
			break;
		}
		++done;
		progress_update(&bar, done, t);
	}
	progress_end(&bar);
	/* Ctrl-C reaches ffmpeg too, so a failed write may just be the interrupt. */
	if (interrupt_requested() && status != EXIT_OK) {
		status = EXIT_INTERRUPTED;
		snprintf(err, sizeof err, "interrupted after %d images%s", done, o->video != VIDEO_NONE ? "; no video was made" : "");
	}
	interrupt_unwatch();
	if (j.video) {
		video* v = j.video;
		j.video = NULL;
		char verr[1024];
		if (!video_close(v, status == EXIT_OK, verr, sizeof verr) && status == EXIT_OK) {
			snprintf(err, sizeof err, "%s", verr);
			status = EXIT_IO;
		}
	}
	double seconds = wall_seconds() - start;
	if (status != EXIT_OK) {
		fprintf(stderr, "drape render: %s\n", err);
	} else if (o->video != VIDEO_NONE && !video_ffmpeg_available()) {
		fprintf(stderr,
			"drape render: ffmpeg is not installed (not found on PATH), so no video was made; the %d PNG frames are "
			"in %s/ (install ffmpeg, or pass --video none to make images only)\n",
			done, j.folder);
		status = EXIT_IO;
	} else if (!o->quiet) {
		printf("drape render: %d images (%dx%d, %s) in %.2f s (%.1f ms/image) -> %s/%s%s\n", done, o->width, o->height,
		       offscreen_renderer(j.gl), seconds, done ? 1e3 * seconds / done : 0.0, j.folder,
		       o->video != VIDEO_NONE ? " and " : "", o->video != VIDEO_NONE ? j.video_path : "");
	}
	job_free(&j);
	return status;
}

static render_options default_options(void)
{
	return (render_options){.width = 800, .height = 600, .video = VIDEO_MP4, .first = 0, .last = ALL_FRAMES};
}

int render_run_output(const char* dir, bool quiet)
{
	render_options o = default_options();
	o.dir = dir;
	o.quiet = quiet;
	return render(&o);
}

static bool parse_size(const char* s, int* w, int* h)
{
	char tail;
	if (sscanf(s, "%dx%d%c", w, h, &tail) != 2) return false;
	return *w >= 16 && *h >= 16 && *w <= 8192 && *h <= 8192;
}

/* "A:B", "A:", ":B" or "N". */
static bool parse_range(const char* s, long* first, long* last)
{
	const char* colon = strchr(s, ':');
	char a[32] = "", b[32] = "";
	if (strlen(s) >= sizeof a) return false;
	if (!colon) {
		if (!parse_int_arg(s, 0, 99999999, first)) return false;
		*last = *first;
		return true;
	}
	memcpy(a, s, (size_t)(colon - s));
	snprintf(b, sizeof b, "%s", colon + 1);
	if (*a && !parse_int_arg(a, 0, 99999999, first)) return false;
	if (*b && !parse_int_arg(b, 0, 99999999, last)) return false;
	return *first <= *last;
}

int command_render(int argc, char** argv)
{
	render_options o = default_options();
	enum { OPT_SIZE = 256, OPT_VIDEO, OPT_FPS, OPT_FRAMES, OPT_EYE, OPT_TARGET, OPT_WIREFRAME };
	static const struct option options[] = {
		{"out", required_argument, NULL, 'o'},	     {"size", required_argument, NULL, OPT_SIZE},
		{"video", required_argument, NULL, OPT_VIDEO}, {"fps", required_argument, NULL, OPT_FPS},
		{"frames", required_argument, NULL, 'n'},      {"eye", required_argument, NULL, OPT_EYE},
		{"target", required_argument, NULL, OPT_TARGET}, {"wireframe", no_argument, NULL, OPT_WIREFRAME},
		{"quiet", no_argument, NULL, 'q'},	     {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, "o:n:qh", options, NULL)) != -1) {
		switch (opt) {
		case 'h': render_usage(stdout); return EXIT_OK;
		case 'o': o.out = optarg; break;
		case OPT_SIZE:
			if (!parse_size(optarg, &o.width, &o.height)) {
				fprintf(stderr, "drape render: --size needs WIDTHxHEIGHT, each from 16 to 8192 pixels, got '%s'\n", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case OPT_VIDEO:
			if (strcmp(optarg, "mp4") == 0) o.video = VIDEO_MP4;
			else if (strcmp(optarg, "gif") == 0) o.video = VIDEO_GIF;
			else if (strcmp(optarg, "none") == 0) o.video = VIDEO_NONE;
			else {
				fprintf(stderr, "drape render: --video must be mp4, gif or none, got '%s'\n", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case OPT_FPS: {
			char* end;
			o.fps = strtod(optarg, &end);
			if (*end || end == optarg || !(o.fps > 0.0 && o.fps <= 1000.0)) {
				fprintf(stderr, "drape render: --fps needs a number above 0 and up to 1000, got '%s'\n", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		}
		case 'n':
			if (!parse_range(optarg, &o.first, &o.last)) {
				fprintf(stderr, "drape render: --frames needs A:B, A:, :B or N with whole numbers A <= B, got '%s'\n",
					optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case OPT_EYE:
		case OPT_TARGET: {
			const bool eye = opt == OPT_EYE;
			double* v = eye ? o.eye : o.target;
			char tail;
			if (sscanf(optarg, "%lf,%lf,%lf%c", &v[0], &v[1], &v[2], &tail) != 3 || !isfinite(v[0]) || !isfinite(v[1]) ||
			    !isfinite(v[2])) {
				fprintf(stderr, "drape render: --%s needs three numbers X,Y,Z (metres), got '%s'\n", eye ? "eye" : "target",
					optarg);
				return EXIT_BAD_INPUT;
			}
			if (eye) o.eye_set = true;
			else o.target_set = true;
			break;
		}
		case OPT_WIREFRAME: o.wireframe = true; break;
		case 'q': o.quiet = true; break;
		default:
			cli_report_bad_option("render", argc, argv, optopt, options);
			return EXIT_BAD_INPUT;
		}
	}
	for (int i = optind; i < argc; ++i) {
		if (o.dir) {
			fprintf(stderr, "drape render: more than one folder given ('%s' and '%s')\n", o.dir, argv[i]);
			return EXIT_BAD_INPUT;
		}
		o.dir = argv[i];
	}
	if (!o.dir) {
		fprintf(stderr, "drape render: which folder? usage: drape render DIR (a `drape run` output; see --help)\n");
		return EXIT_BAD_INPUT;
	}
	return render(&o);
}
