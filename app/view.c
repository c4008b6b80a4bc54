/* `drape view`: a GLFW window (OpenGL 2.1 compatibility) that simulates a scene live, one frame
 * of the scene's fps per displayed frame, with an orbit camera, pause/step/reset, and the paper's
 * user-controlled force (sec. 4.4): dragging a particle pulls it with a spring whose gradient is
 * in the implicit system (sec. 3), so the pull stays stable however hard it is. */
#include "cli.h"
#include "commands.h"
#include "interrupt.h"
#include "draw.h"
#include "view_camera.h"
#include "view_font.h"
#include "view_hooks.h"
#include "view_hud.h"
#include "view_pick.h"
#include "view_screenshot.h"

#include <GLFW/glfw3.h>
#include <getopt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* glfwTerminate closes the X display, and Mesa then unloads its DRI driver (llvmpipe) with
 * allocations still referenced from the driver's globals. LeakSanitizer reports those as leaks
 * from an "<unknown module>", which no suppression can name (the module is gone by the time it
 * reports). Under AddressSanitizer the viewer therefore exits with GLFW still initialised: the
 * driver's memory stays reachable, and our own allocations are still all checked. */
#if defined(__SANITIZE_ADDRESS__)
#define VIEW_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VIEW_UNDER_ASAN 1
#endif
#endif
#ifndef VIEW_UNDER_ASAN
#define VIEW_UNDER_ASAN 0
#endif

typedef struct view_options {
	const char* scene_path;
	long threads;
	long width, height;
	double mouse_stiffness; /* <= 0: view_drag_default_stiffness */
	long exit_after;        /* quit when the simulation reaches this frame; < 0: never */
	const char* screenshot;
	const char* ready;
	const char* report;
	int32_t track_cloth, track_vertex; /* track_cloth < 0: none */
	bool paused;
} view_options;

enum mouse_mode { MOUSE_NONE, MOUSE_DRAG, MOUSE_ORBIT, MOUSE_PAN };

typedef struct viewer {
	view_options opt;
	drape_scene* sc;
	drape_world_def def; /* the scene's, with --threads */
	double scene_fps;
	drape_world* world;
	double gravity[3];
	GLFWwindow* window;
	drawer* drawer;
	view_orbit orbit;
	view_drag drag;
	double drag_force; /* N, as last drawn */
	enum mouse_mode mouse;
	int mouse_button; /* the button that started the gesture */
	/* The cursor as of the last motion event handled. A press is picked where the cursor was
	 * when the button went down, not where it is by the time the event is handled (the
	 * simulation may lag behind the input). */
	double cursor_x, cursor_y;
	double last_x, last_y;
	bool paused, wireframe, contacts, quit;
	bool failed; /* a step failed since the last reset: the simulation is stopped */
	drape_sewing* sew; /* seams merge, and "relaxed" bodies start, as in a run (docs/garments.md) */
	bool ever_failed;
	char error[512];
	int64_t frame; /* simulated frames since the world was built */
	int64_t displayed;
	drape_stats last; /* of the last simulated frame */
	drape_stats total; /* steps, rejected steps and step sizes over the session, for --report */
	double last_frame_ms;
	double fps, fps_since;
	int fps_frames;
	/* Everything drawn so far: the ground grid covers it and stays put while the cloth moves. */
	double region_lo[3], region_hi[3];
	view_recorder rec;
	double* scratch; /* one cloth's positions, reused */
	size_t scratch_size;
} viewer;

static void view_usage(FILE* f)
{
	fprintf(f,
		"usage: drape view [SCENE.json] [options]\n"
		"\n"
		"Opens a window and simulates SCENE.json (default: the built-in figure 1 drape) live, one\n"
		"frame of the scene's fps per displayed frame (slower if the simulation cannot keep up).\n"
		"\n"
		"mouse:  left-drag a cloth particle   pull it with a spring (the paper's user force, sec. 4.4)\n"
		"        left-drag elsewhere           orbit     right- or shift-left-drag   pan\n"
		"        wheel                         zoom\n"
		"keys:   space pause   . or n single step   r reset   w wireframe   c contacts   esc or q quit\n"
		"\n"
		"options:\n"
		"  -j, --threads T      worker threads\n"
		"  --size WxH           window size in screen coordinates (default 1024x720)\n"
		"  --mouse-stiffness K  spring stiffness of the mouse force, N/m (default: the grabbed\n"
		"                       cloth's weight over 5 cm)\n"
		"  --paused             start paused\n"
		"test hooks (docs/viewer.md):\n"
		"  --exit-after N       quit when the simulation reaches frame N\n"
		"  --screenshot PATH    save the last displayed frame as PNG on exit\n"
		"  --track C:V          follow vertex V of cloth C (0-based) for --ready and --report\n"
		"  --ready PATH         once the first frame is shown, write the window size and the\n"
		"                       tracked particle's window position as JSON\n"
		"  --report PATH        on exit, write JSON: status, the tracked particle's position per\n"
		"                       frame, and every drag's particle and target per frame\n"
		"  -h, --help           show this help\n"
		"a value may also be given as --option=VALUE\n");
}

static bool parse_pair(const char* s, char sep, long lo, long hi, long* a, long* b)
{
	const char* mid = strchr(s, sep);
	if (!mid || mid == s || (size_t)(mid - s) > 15) return false;
	char first[16];
	memcpy(first, s, (size_t)(mid - s));
	first[mid - s] = '\0';
	return parse_int_arg(first, lo, hi, a) && parse_int_arg(mid + 1, lo, hi, b);
}

/* 0 to go on, otherwise the exit status (help printed or an error reported). */
static int parse_options(int argc, char** argv, view_options* o)
{
	memset(o, 0, sizeof *o);
	o->width = 1024;
	o->height = 720;
	o->exit_after = -1;
	o->track_cloth = -1;
	enum { OPT_SIZE = 256, OPT_MOUSE, OPT_EXIT_AFTER, OPT_TRACK, OPT_SCREENSHOT, OPT_READY, OPT_REPORT, OPT_PAUSED };
	static const struct option options[] = {
		{"threads", required_argument, NULL, 'j'},
		{"size", required_argument, NULL, OPT_SIZE},
		{"mouse-stiffness", required_argument, NULL, OPT_MOUSE},
		{"exit-after", required_argument, NULL, OPT_EXIT_AFTER},
		{"track", required_argument, NULL, OPT_TRACK},
		{"screenshot", required_argument, NULL, OPT_SCREENSHOT},
		{"ready", required_argument, NULL, OPT_READY},
		{"report", required_argument, NULL, OPT_REPORT},
		{"paused", no_argument, NULL, OPT_PAUSED},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, "j:h", options, NULL)) != -1) {
		switch (opt) {
		case 'h': view_usage(stdout); return -1;
		case 'j':
			if (!cli_int_option("view", "--threads", optarg, 1, 1024, &o->threads))
				return EXIT_BAD_INPUT;
			break;
		case OPT_SIZE:
			if (!parse_pair(optarg, 'x', 64, 16384, &o->width, &o->height)) {
				fprintf(stderr, "drape view: --size needs WIDTHxHEIGHT, each from 64 to 16384, got '%s'\n", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case OPT_MOUSE:
			if (!parse_double_arg(optarg, 0.0, INFINITY, &o->mouse_stiffness) || o->mouse_stiffness <= 0.0) {
				fprintf(stderr, "drape view: --mouse-stiffness needs a finite number > 0 (N/m), got '%s'\n", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case OPT_EXIT_AFTER:
			if (!cli_int_option("view", "--exit-after", optarg, 1, 1000000000, &o->exit_after))
				return EXIT_BAD_INPUT;
			break;
		case OPT_TRACK: {
			long c, v;
			if (!parse_pair(optarg, ':', 0, 2000000000, &c, &v)) {
				fprintf(stderr, "drape view: --track needs CLOTH:VERTEX (0-based indices), got '%s'\n", optarg);
				return EXIT_BAD_INPUT;
			}
			o->track_cloth = (int32_t)c;
			o->track_vertex = (int32_t)v;
			break;
		}
		case OPT_SCREENSHOT: o->screenshot = optarg; break;
		case OPT_READY: o->ready = optarg; break;
		case OPT_REPORT: o->report = optarg; break;
		case OPT_PAUSED: o->paused = true; break;
		default:
			cli_report_bad_option("view", argc, argv, optopt, options);
			return EXIT_BAD_INPUT;
		}
	}
	for (int i = optind; i < argc; ++i) {
		if (o->scene_path) {
			fprintf(stderr, "drape view: more than one scene given ('%s' and '%s')\n", o->scene_path, argv[i]);
			return EXIT_BAD_INPUT;
		}
		o->scene_path = argv[i];
	}
	return 0;
}

/* (Re)builds the world from the scene; false with the message printed. */
static bool build_world(viewer* v)
{
	char err[1024];
	drape_world* w = drape_scene_create_world(v->sc, &v->def, err, sizeof err);
	if (!w) {
		fprintf(stderr, "drape view: %s\n", err);
		return false;
	}
	drape_sewing_destroy(v->sew);
	v->sew = drape_sewing_create(v->sc, w);
	if (!v->sew) {
		fprintf(stderr, "drape view: out of memory\n");
		drape_world_destroy(w);
		return false;
	}
	if (v->world) {
		view_drag_end(&v->drag, v->world);
		drape_world_destroy(v->world);
	}
	v->world = w;
	drape_world_set_cancel(w, interrupt_flag()); /* Ctrl-C ends a long step too */
	v->mouse = v->mouse == MOUSE_DRAG ? MOUSE_NONE : v->mouse;
	v->frame = 0;
	v->failed = false;
	v->error[0] = '\0';
	memset(&v->last, 0, sizeof v->last);
	return true;
}

static void window_size(const viewer* v, double* w, double* h)
{
	int iw, ih;
	glfwGetWindowSize(v->window, &iw, &ih);
	*w = iw;
	*h = ih;
}

/* ---- input -------------------------------------------------------------------------------- */

static void simulate_frame(viewer* v);

/* Keys by the character they type, so they sit where the keyboard layout puts them. */
static void on_char(GLFWwindow* win, unsigned int codepoint)
{
	viewer* v = glfwGetWindowUserPointer(win);
	switch (codepoint) {
	case 'q':
	case 'Q': v->quit = true; break;
	case ' ': v->paused = !v->paused; break;
	case '.':
	case 'n':
	case 'N':
		/* Stepped here, in event order: a step pressed between two mouse events sees the first
		 * and not the second, however the events are batched. */
		v->paused = true;
		if (!v->failed) simulate_frame(v);
		break;
	case 'r':
	case 'R':
		if (build_world(v)) ++v->rec.resets;
		break;
	case 'w':
	case 'W': v->wireframe = !v->wireframe; break;
	case 'c':
	case 'C': v->contacts = !v->contacts; break;
	default: break;
	}
}

static void on_key(GLFWwindow* win, int key, int scancode, int action, int mods)
{
	(void)scancode;
	(void)mods;
	viewer* v = glfwGetWindowUserPointer(win);
	if (key == GLFW_KEY_ESCAPE && action == GLFW_PRESS) v->quit = true;
}

static void on_mouse_button(GLFWwindow* win, int button, int action, int mods)
{
	viewer* v = glfwGetWindowUserPointer(win);
	double x = v->cursor_x, y = v->cursor_y, w, h;
	window_size(v, &w, &h);
	if (action == GLFW_RELEASE) {
		if (button != v->mouse_button) return; /* the gesture ends with its own button */
		if (v->mouse == MOUSE_DRAG) view_drag_end(&v->drag, v->world);
		v->mouse = MOUSE_NONE;
		return;
	}
	if (v->mouse != MOUSE_NONE) return; /* one gesture at a time */
	v->mouse_button = button;
	v->last_x = x;
	v->last_y = y;
	if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE ||
	    (button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_SHIFT))) {
		v->mouse = MOUSE_PAN;
	} else if (button == GLFW_MOUSE_BUTTON_LEFT) {
		if (!v->failed && view_drag_begin(&v->drag, v->world, &v->orbit, w, h, x, y, v->opt.mouse_stiffness, 0.02,
						  v->gravity)) {
			v->mouse = MOUSE_DRAG;
			view_recorder_drag_begin(&v->rec, v->world, v->frame, &v->drag, v->drag.stiffness);
		} else {
			v->mouse = MOUSE_ORBIT;
		}
	}
}

static void on_cursor(GLFWwindow* win, double x, double y)
{
	viewer* v = glfwGetWindowUserPointer(win);
	double w, h;
	window_size(v, &w, &h);
	double dx = x - v->last_x, dy = y - v->last_y;
	v->cursor_x = x;
	v->cursor_y = y;
	v->last_x = x;
	v->last_y = y;
	switch (v->mouse) {
	case MOUSE_DRAG: view_drag_move(&v->drag, v->world, &v->orbit, w, h, x, y); break;
	case MOUSE_ORBIT: view_orbit_rotate(&v->orbit, dx, dy); break;
	case MOUSE_PAN: view_orbit_pan(&v->orbit, dx, dy, h); break;
	default: break;
	}
}

static void on_scroll(GLFWwindow* win, double dx, double dy)
{
	(void)dx;
	viewer* v = glfwGetWindowUserPointer(win);
	view_orbit_zoom(&v->orbit, dy);
}

/* ---- simulation and drawing --------------------------------------------------------------- */

static void simulate_frame(viewer* v)
{
	double t0 = glfwGetTime();
	drape_world_reset_stats(v->world);
	drape_sewing_before_frame(v->sew, v->world);
	/* Land on the frame's exact time, (frame + 1) / fps, so rounding never accumulates. */
	drape_status st = drape_world_step(v->world, (double)(v->frame + 1) / v->scene_fps - drape_world_time(v->world));
	v->last = drape_world_get_stats(v->world);
	v->last_frame_ms = 1e3 * (glfwGetTime() - t0);
	v->total.steps += v->last.steps;
	v->total.rejected += v->last.rejected;
	v->total.cg_iterations += v->last.cg_iterations;
	if (v->last.steps && (v->total.min_dt == 0.0 || v->last.min_dt < v->total.min_dt)) v->total.min_dt = v->last.min_dt;
	if (v->last.max_dt > v->total.max_dt) v->total.max_dt = v->last.max_dt;
	if (st == DRAPE_OK) {
		st = drape_sewing_after_frame(v->sew, v->world, v->error, sizeof v->error);
	} else {
		snprintf(v->error, sizeof v->error, "%s", drape_world_error(v->world));
	}
	if (st != DRAPE_OK) {
		fprintf(stderr, "drape view: frame %lld: %s (press r to reset)\n", (long long)v->frame + 1, v->error);
		v->failed = v->ever_failed = true;
		return;
	}
	++v->frame;
	view_recorder_frame(&v->rec, v->world, v->frame, &v->drag);
}

/* The spring of a drag in progress: a line from the particle to the cursor's point. */
static void draw_drag(viewer* v, int fb_w, int fb_h)
{
	if (!v->drag.active) return;
	double p[3];
	if (!view_particle_position(v->world, v->drag.grabbed.cloth, v->drag.grabbed.vertex, &v->scratch,
				    &v->scratch_size, p))
		return;
	double gap2 = 0.0;
	for (int k = 0; k < 3; ++k) gap2 += (p[k] - v->drag.target[k]) * (p[k] - v->drag.target[k]);
	v->drag_force = v->drag.stiffness * sqrt(gap2); /* the spring's pull, shown in the HUD */
	/* Window points of both ends, then 2D lines in framebuffer pixels. */
	double ww, wh, ax, ay, bx, by, depth;
	window_size(v, &ww, &wh);
	if (!view_project(&v->orbit, ww, wh, p, &ax, &ay, &depth) ||
	    !view_project(&v->orbit, ww, wh, v->drag.target, &bx, &by, &depth))
		return;
	double sx = fb_w / fmax(ww, 1.0), sy = fb_h / fmax(wh, 1.0);
	glPushAttrib(GL_ENABLE_BIT | GL_CURRENT_BIT | GL_TRANSFORM_BIT | GL_LINE_BIT | GL_POINT_BIT | GL_VIEWPORT_BIT);
	glViewport(0, 0, fb_w, fb_h);
	glDisable(GL_DEPTH_TEST);
	glDisable(GL_LIGHTING);
	glMatrixMode(GL_PROJECTION);
	glPushMatrix();
	glLoadIdentity();
	glOrtho(0.0, fb_w, fb_h, 0.0, -1.0, 1.0);
	glMatrixMode(GL_MODELVIEW);
	glPushMatrix();
	glLoadIdentity();
	glLineWidth(2.0f);
	glPointSize(7.0f);
	glColor3f(0.2f, 0.9f, 1.0f); /* cyan: apart from the cloth's colours and the yellow contacts */
	glBegin(GL_LINES);
	glVertex2d(ax * sx, ay * sy);
	glVertex2d(bx * sx, by * sy);
	glEnd();
	glBegin(GL_POINTS);
	glVertex2d(ax * sx, ay * sy);
	glVertex2d(bx * sx, by * sy);
	glEnd();
	glPopMatrix();
	glMatrixMode(GL_PROJECTION);
	glPopMatrix();
	glPopAttrib();
}

static void draw_hud(const viewer* v, int fb_w, int fb_h)
{
	const drape_stats* s = &v->last;
	char line1[256], line2[256], line3[256];
	double per_step = s->steps ? (double)s->cg_iterations / (double)s->steps : 0.0;
	char fps[32] = "-"; /* until half a second has been measured */
	if (v->fps > 0.0) snprintf(fps, sizeof fps, "%.1f", v->fps);
	snprintf(line1, sizeof line1, "FPS %s  T %.3f S  STEP %.2f MS", fps, drape_world_time(v->world),
		 1e3 * s->max_dt);
	if (s->steps && s->min_dt < s->max_dt) {
		size_t n = strlen(line1);
		snprintf(line1 + n, sizeof line1 - n, " (MIN %.2f)", 1e3 * s->min_dt);
	}
	size_t n = strlen(line1);
	snprintf(line1 + n, sizeof line1 - n, "  CG %.1f/STEP", per_step);
	snprintf(line2, sizeof line2, "EVAL %.1f  CG %.1f  C-C %.1f  C-S %.1f MS   FRAME %.1f MS", s->eval_ms, s->cg_ms,
		 s->cc_ms, s->cs_ms, v->last_frame_ms);
	if (v->failed)
		snprintf(line3, sizeof line3, "STOPPED: %.60s - R RESETS", v->error);
	else if (v->drag.active)
		snprintf(line3, sizeof line3, "PULLING CLOTH %d PARTICLE %d  K %.3g N/M  FORCE %.3g N%s", v->drag.grabbed.cloth,
			 v->drag.grabbed.vertex, v->drag.stiffness, v->drag_force, v->paused ? "  (PAUSED)" : "");
	else
		snprintf(line3, sizeof line3, "%sSPACE PAUSE  . STEP  R RESET  W WIRE  C CONTACTS  Q QUIT",
			 v->paused ? "PAUSED  " : "");
	const char* lines[3] = {line1, line2, line3};
	/* Font pixels 2x2 (3x3 on tall framebuffers), 1x1 where the lines would not fit across. */
	int scale = fb_h >= 1200 ? 3 : 2;
	for (int l = 0; l < 3; ++l)
		while (scale > 1 && view_text_width(lines[l], scale) + 8 * scale > fb_w) --scale;
	view_hud_draw(fb_w, fb_h, lines, 3, scale);
}

static void draw_frame(viewer* v)
{
	int fb_w, fb_h;
	glfwGetFramebufferSize(v->window, &fb_w, &fb_h);
	view_frame f;
	view_orbit_frame(&v->orbit, &f);
	draw_camera cam;
	memcpy(cam.eye, f.eye, sizeof cam.eye);
	memcpy(cam.target, v->orbit.target, sizeof cam.target);
	memcpy(cam.up, f.up, sizeof cam.up);
	cam.fov_y_deg = v->orbit.fov_y_deg;
	draw_options o;
	memset(&o, 0, sizeof o);
	o.width = fb_w;
	o.height = fb_h;
	o.wireframe = v->wireframe;
	o.show_contacts = v->contacts;
	draw_world_bounds(v->world, drape_world_time(v->world), v->region_lo, v->region_hi);
	o.fixed_region = true;
	memcpy(o.region_lo, v->region_lo, sizeof o.region_lo);
	memcpy(o.region_hi, v->region_hi, sizeof o.region_hi);
	draw_world(v->drawer, v->world, drape_world_time(v->world), &cam, &o);
	draw_drag(v, fb_w, fb_h);
	draw_hud(v, fb_w, fb_h);
}

/* ---- the command -------------------------------------------------------------------------- */

static void glfw_error(int code, const char* message)
{
	(void)code;
	(void)message; /* GLFW's own words are replaced by one sentence of ours */
}

/* A window with a current OpenGL 2.1 context: 4x multisampled when a GPU draws it, plain when
 * the display offers no multisampled visual or draws in software (Mesa's llvmpipe under Xvfb),
 * where multisampling made each frame about 25 ms slower (docs/viewer.md). */
static GLFWwindow* open_window(const char* title, int width, int height)
{
	glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 2);
	glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
	for (int samples = 4;; samples = 0) {
		glfwWindowHint(GLFW_SAMPLES, samples);
		GLFWwindow* win = glfwCreateWindow(width, height, title, NULL, NULL);
		if (win) {
			glfwMakeContextCurrent(win);
			const char* r = (const char*)glGetString(GL_RENDERER);
			bool software = r && (strstr(r, "llvmpipe") || strstr(r, "softpipe") || strstr(r, "Software"));
			if (samples == 0 || !software) return win;
			glfwMakeContextCurrent(NULL);
			glfwDestroyWindow(win);
		}
		if (samples == 0) return NULL;
	}
}

/* Writes the report, releases everything (v too) and returns the exit status. */
static int finish(viewer* v, int status)
{
	if (v->opt.report && v->world) {
		char err[512];
		drape_sewing_info sewing = drape_sewing_get_info(v->sew);
		v->rec.seams = sewing.seam_count;
		v->rec.seams_open = sewing.open;
		v->rec.motion_start = sewing.motion_start;
		if (!view_recorder_write(&v->rec, v->opt.report, v->ever_failed ? "diverged" : "ok", v->error,
					 v->displayed, drape_world_time(v->world), &v->total, err, sizeof err)) {
			fprintf(stderr, "drape view: %s\n", err);
			if (status == EXIT_OK) status = EXIT_IO;
		}
	}
	view_recorder_free(&v->rec);
	drape_sewing_destroy(v->sew);
	free(v->scratch);
	if (v->drawer) drawer_destroy(v->drawer);
	if (v->window) glfwDestroyWindow(v->window);
#if !VIEW_UNDER_ASAN
	glfwTerminate();
#endif
	if (v->world) drape_world_destroy(v->world);
	drape_scene_destroy(v->sc);
	free(v);
	return status;
}

/* Loads the scene and builds the world; 0 or the exit status (the message printed). */
static int load(viewer* v)
{
	char err[1024];
	v->sc = drape_scene_load(v->opt.scene_path ? v->opt.scene_path : DRAPE_DEFAULT_SCENE, err, sizeof err);
	if (!v->sc) {
		fprintf(stderr, "drape: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	v->def = drape_scene_world_def(v->sc);
	v->scene_fps = drape_scene_fps(v->sc);
	if (v->opt.threads > 0) v->def.threads = (int32_t)v->opt.threads;
	memcpy(v->gravity, v->def.gravity, sizeof v->gravity);
	if (!build_world(v)) return EXIT_BAD_INPUT;
	if (v->opt.track_cloth >= 0) {
		drape_cloth_id id = {v->opt.track_cloth};
		if (v->opt.track_cloth >= drape_cloth_count(v->world) ||
		    v->opt.track_vertex >= drape_cloth_vertex_count(v->world, id)) {
			fprintf(stderr, "drape view: --track %d:%d: the scene has no such cloth vertex\n", v->opt.track_cloth,
				v->opt.track_vertex);
			return EXIT_BAD_INPUT;
		}
		v->rec.track_cloth = v->opt.track_cloth;
		v->rec.track_vertex = v->opt.track_vertex;
	}
	return 0;
}

/* Opens the window and its drawer and hooks up the input; 0 or the exit status. A window needs
 * a display: without one, say so in one sentence rather than letting GLFW complain. */
static int open_display(viewer* v)
{
	const char* display = getenv("DISPLAY");
	const char* wayland = getenv("WAYLAND_DISPLAY");
	glfwSetErrorCallback(glfw_error);
	if ((!display || !*display) && (!wayland || !*wayland)) {
		fprintf(stderr, "drape view: no display found (set DISPLAY, or use `drape render`)\n");
		return EXIT_BAD_INPUT;
	}
	if (!glfwInit()) {
		fprintf(stderr, "drape view: cannot open display '%s' (set DISPLAY to a running X server, or use `drape render`)\n",
			display && *display ? display : wayland);
		return EXIT_BAD_INPUT;
	}
	char title[256];
	snprintf(title, sizeof title, "drape view - %s", drape_scene_name(v->sc)[0] ? drape_scene_name(v->sc) : "scene");
	v->window = open_window(title, (int)v->opt.width, (int)v->opt.height);
	if (!v->window) {
		fprintf(stderr, "drape view: cannot create an OpenGL 2.1 window on this display (or use `drape render`)\n");
		return EXIT_BAD_INPUT;
	}
	glfwSwapInterval(0); /* the loop paces itself to the scene's fps */
	v->drawer = drawer_create();
	if (!v->drawer) {
		fprintf(stderr, "drape view: out of memory\n");
		return EXIT_IO;
	}
	glfwSetWindowUserPointer(v->window, v);
	glfwGetCursorPos(v->window, &v->cursor_x, &v->cursor_y);
	glfwSetKeyCallback(v->window, on_key);
	glfwSetCharCallback(v->window, on_char);
	glfwSetMouseButtonCallback(v->window, on_mouse_button);
	glfwSetCursorPosCallback(v->window, on_cursor);
	glfwSetScrollCallback(v->window, on_scroll);
	return 0;
}

/* The scene's output.camera if it has one (as in `drape render`), else one framing the scene. */
static void initial_camera(viewer* v)
{
	double ww, wh, up[3];
	window_size(v, &ww, &wh);
	draw_camera cam = draw_camera_frame(v->world, drape_world_time(v->world), ww / fmax(wh, 1.0));
	drape_scene_camera(v->sc, cam.eye, cam.target, cam.up, &cam.fov_y_deg);
	draw_world_up(v->world, up);
	/* The orbit turns about the world's up; a scene camera's own up only matters for roll. */
	view_orbit_look(&v->orbit, cam.eye, cam.target, up, cam.fov_y_deg);
	draw_bounds_empty(v->region_lo, v->region_hi);
}

/* --ready: the window size and where the tracked particle is on screen. */
static bool write_ready(viewer* v, char* err, size_t err_size)
{
	double ww, wh, px = 0.0, py = 0.0, depth, p[3];
	int fb_w, fb_h;
	window_size(v, &ww, &wh);
	glfwGetFramebufferSize(v->window, &fb_w, &fb_h);
	bool has_pixel = view_particle_position(v->world, v->rec.track_cloth, v->rec.track_vertex, &v->scratch,
						&v->scratch_size, p) &&
			 view_project(&v->orbit, ww, wh, p, &px, &py, &depth);
	return view_write_ready(v->opt.ready, (int)ww, (int)wh, fb_w, fb_h, has_pixel, px, py, err, err_size);
}

/* Simulates and draws until quit, --exit-after or a signal; the exit status. */
static int run_loop(viewer* v)
{
	char err[1024];
	int status = EXIT_OK;
	const double frame_time = 1.0 / v->scene_fps;
	double next = glfwGetTime();
	v->fps_since = next;
	while (!v->quit && !interrupt_requested() && !glfwWindowShouldClose(v->window)) {
		glfwPollEvents();
		if (v->quit) break;
		if (!v->failed && !v->paused) simulate_frame(v);
		draw_frame(v);
		glfwSwapBuffers(v->window);
		if (++v->displayed == 1 && v->opt.ready && !write_ready(v, err, sizeof err)) {
			fprintf(stderr, "drape view: %s\n", err);
			status = EXIT_IO;
			break;
		}
		if (v->opt.exit_after > 0 && v->frame >= v->opt.exit_after) break;
		/* fps over the last half second or more */
		++v->fps_frames;
		double now = glfwGetTime();
		if (now - v->fps_since >= 0.5) {
			v->fps = v->fps_frames / (now - v->fps_since);
			v->fps_frames = 0;
			v->fps_since = now;
		}
		/* Real time: wait out the rest of this frame, handling input meanwhile; when the
		 * simulation is slower than real time, go straight on. */
		next += frame_time;
		if (next < now) next = now;
		while (!v->quit && (now = glfwGetTime()) < next) glfwWaitEventsTimeout(next - now);
	}
	if (v->opt.screenshot) {
		/* The last displayed frame, drawn again into the back buffer and read back. */
		draw_frame(v);
		int fb_w, fb_h;
		glfwGetFramebufferSize(v->window, &fb_w, &fb_h);
		if (!view_screenshot(v->opt.screenshot, fb_w, fb_h, err, sizeof err)) {
			fprintf(stderr, "drape view: %s\n", err);
			if (status == EXIT_OK) status = EXIT_IO;
		}
	}
	if (status == EXIT_OK && v->ever_failed) status = EXIT_DIVERGED;
	if (status == EXIT_OK && interrupt_requested()) status = EXIT_INTERRUPTED;
	return status;
}

int command_view(int argc, char** argv)
{
	viewer* v = calloc(1, sizeof *v);
	if (!v) {
		fprintf(stderr, "drape view: out of memory\n");
		return EXIT_IO;
	}
	v->rec.track_cloth = -1;
	int status = parse_options(argc, argv, &v->opt);
	if (status != 0) {
		free(v);
		return status < 0 ? EXIT_OK : status;
	}
	if ((status = load(v)) != 0 || (status = open_display(v)) != 0) return finish(v, status);
	initial_camera(v);
	v->paused = v->opt.paused;
	interrupt_watch();
	return finish(v, run_loop(v));
}
