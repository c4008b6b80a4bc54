/* Draws a drape world with OpenGL 2.1 fixed function: a gradient sky, a ground grid under the
 * scene (or on a horizontal plane solid), the solids posed at the drawn time, every cloth with
 * smooth per-vertex normals and two-sided lighting (a colour per side), optionally its edges and
 * the particles in contact. Shared by `drape render` (offscreen) and `drape view` (a window). */
#include "draw.h"

#include "vec3.h"

#include <GL/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DRAW_PI 3.14159265358979323846

struct drawer {
	float* normals; /* 3 per vertex of the cloth being drawn */
	int32_t normal_capacity;
	bool wireframe;
};

/* Front (the side the triangles' winding makes outward) and back colours per cloth, cycled. */
static const float cloth_front[][3] = {
	{0.85f, 0.30f, 0.20f}, {0.88f, 0.62f, 0.15f}, {0.42f, 0.70f, 0.28f}, {0.72f, 0.30f, 0.62f}};
static const float cloth_back[][3] = {
	{0.20f, 0.42f, 0.85f}, {0.18f, 0.62f, 0.72f}, {0.45f, 0.35f, 0.80f}, {0.25f, 0.55f, 0.55f}};
static const float solid_colour[3] = {0.62f, 0.64f, 0.68f};
static const float plane_colour[3] = {0.86f, 0.86f, 0.84f};
static const float sky_top[3] = {0.56f, 0.62f, 0.70f};
static const float sky_bottom[3] = {0.90f, 0.91f, 0.92f};
static const float ground_colour[3] = {0.80f, 0.80f, 0.79f};
static const float grid_colour[3] = {0.55f, 0.56f, 0.58f};

drawer* drawer_create(void) { return calloc(1, sizeof(drawer)); }

void drawer_destroy(drawer* d)
{
	if (!d) return;
	free(d->normals);
	free(d);
}

void draw_bounds_empty(double lo[3], double hi[3])
{
	for (int k = 0; k < 3; ++k) {
		lo[k] = INFINITY;
		hi[k] = -INFINITY;
	}
}

void draw_world_bounds(const drape_world* w, double time, double lo[3], double hi[3])
{
	double a[3], b[3];
	drape_world_get_bounds(w, time, a, b);
	for (int k = 0; k < 3; ++k) {
		lo[k] = fmin(lo[k], a[k]);
		hi[k] = fmax(hi[k], b[k]);
	}
}

void draw_world_up(const drape_world* w, double up[3])
{
	double gravity[3];
	drape_world_get_gravity(w, gravity);
	vec3 g = v3_load(gravity);
	vec3 u = v3_len2(g) > 0.0 && v3_isfinite(g) ? v3_normalize(v3_neg(g)) : v3(0.0, 0.0, 1.0);
	v3_store(u, up);
}

/* Centre and radius of a box; an empty or degenerate box gets a sensible size. */
static void box_sphere(const double lo[3], const double hi[3], vec3* centre, double* radius)
{
	if (!(lo[0] <= hi[0] && lo[1] <= hi[1] && lo[2] <= hi[2])) {
		*centre = v3_zero();
		*radius = 1.0;
		return;
	}
	vec3 a = v3_load(lo), b = v3_load(hi);
	*centre = v3_scale(v3_add(a, b), 0.5);
	*radius = fmax(0.5 * v3_len(v3_sub(b, a)), 0.05);
}

/* Two unit vectors spanning the plane perpendicular to up, e1 as close to +x as possible. */
static void ground_axes(vec3 up, vec3* e1, vec3* e2)
{
	vec3 x = fabs(up.x) < 0.9 ? v3(1.0, 0.0, 0.0) : v3(0.0, 1.0, 0.0);
	*e1 = v3_normalize(v3_madd(x, -v3_dot(x, up), up));
	*e2 = v3_cross(up, *e1);
}

draw_camera draw_camera_frame_box(const double lo[3], const double hi[3], const double up_in[3], double aspect)
{
	vec3 c, up = v3_normalize(v3_load(up_in));
	double r;
	box_sphere(lo, hi, &c, &r);
	if (v3_len2(up) == 0.0) up = v3(0.0, 0.0, 1.0);
	vec3 e1, e2;
	ground_axes(up, &e1, &e2);
	/* From the front right (azimuth -60 degrees from e1) and 28 degrees above the horizon. */
	const double az = -60.0 * DRAW_PI / 180.0, el = 28.0 * DRAW_PI / 180.0;
	vec3 dir = v3_add(v3_scale(v3_add(v3_scale(e1, cos(az)), v3_scale(e2, sin(az))), cos(el)), v3_scale(up, sin(el)));
	draw_camera cam;
	cam.fov_y_deg = 35.0;
	double half_y = 0.5 * cam.fov_y_deg * DRAW_PI / 180.0;
	double half_x = atan(tan(half_y) * (aspect > 0.0 ? aspect : 1.0));
	/* Far enough for the box's bounding sphere to fit the narrower field of view: nothing is
	 * ever cut off, whatever the box's shape. */
	double dist = r / sin(fmin(half_x, half_y));
	v3_store(v3_madd(c, dist, dir), cam.eye);
	v3_store(c, cam.target);
	v3_store(up, cam.up);
	return cam;
}

draw_camera draw_camera_frame(const drape_world* w, double time, double aspect)
{
	double lo[3], hi[3], up[3];
	draw_bounds_empty(lo, hi);
	draw_world_bounds(w, time, lo, hi);
	draw_world_up(w, up);
	return draw_camera_frame_box(lo, hi, up, aspect);
}

static void perspective(double fov_y_deg, double aspect, double near, double far)
{
	double f = 1.0 / tan(0.5 * fov_y_deg * DRAW_PI / 180.0);
	double m[16] = {0};
	m[0] = f / aspect;
	m[5] = f;
	m[10] = (far + near) / (near - far);
	m[11] = -1.0;
	m[14] = 2.0 * far * near / (near - far);
	glMatrixMode(GL_PROJECTION);
	glLoadMatrixd(m);
}

static void look_at(vec3 eye, vec3 target, vec3 up)
{
	vec3 f = v3_normalize(v3_sub(target, eye));
	vec3 s = v3_cross(f, up);
	if (v3_len2(s) < 1e-12) s = v3_cross(f, fabs(f.z) < 0.9 ? v3(0.0, 0.0, 1.0) : v3(1.0, 0.0, 0.0));
	s = v3_normalize(s);
	vec3 u = v3_cross(s, f);
	double m[16] = {s.x, u.x, -f.x, 0.0, s.y, u.y, -f.y, 0.0, s.z, u.z, -f.z, 0.0,
			-v3_dot(s, eye), -v3_dot(u, eye), v3_dot(f, eye), 1.0};
	glMatrixMode(GL_MODELVIEW);
	glLoadMatrixd(m);
}

static void background(void)
{
	glDisable(GL_DEPTH_TEST);
	glDisable(GL_LIGHTING);
	glMatrixMode(GL_PROJECTION);
	glLoadIdentity();
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
	glBegin(GL_QUADS);
	glColor3fv(sky_bottom);
	glVertex2f(-1.0f, -1.0f);
	glVertex2f(1.0f, -1.0f);
	glColor3fv(sky_top);
	glVertex2f(1.0f, 1.0f);
	glVertex2f(-1.0f, 1.0f);
	glEnd();
	glEnable(GL_DEPTH_TEST);
}

/* A key light from the upper left behind the viewer and a weaker fill from the lower right, both
 * directional and fixed to the camera (set while the modelview is the identity). */
static void lights(void)
{
	const float key_dir[4] = {-0.45f, 0.75f, 0.55f, 0.0f}, key[4] = {0.75f, 0.75f, 0.72f, 1.0f};
	const float fill_dir[4] = {0.6f, -0.35f, 0.5f, 0.0f}, fill[4] = {0.30f, 0.30f, 0.33f, 1.0f};
	const float ambient[4] = {0.26f, 0.26f, 0.28f, 1.0f}, none[4] = {0.0f, 0.0f, 0.0f, 1.0f};
	const float white[4] = {0.35f, 0.35f, 0.35f, 1.0f};
	glMatrixMode(GL_MODELVIEW);
	glLoadIdentity();
	glLightModelfv(GL_LIGHT_MODEL_AMBIENT, ambient);
	glLightModeli(GL_LIGHT_MODEL_TWO_SIDE, GL_TRUE);
	glLightModeli(GL_LIGHT_MODEL_LOCAL_VIEWER, GL_FALSE);
	glEnable(GL_LIGHT0);
	glLightfv(GL_LIGHT0, GL_POSITION, key_dir);
	glLightfv(GL_LIGHT0, GL_DIFFUSE, key);
	glLightfv(GL_LIGHT0, GL_SPECULAR, white);
	glLightfv(GL_LIGHT0, GL_AMBIENT, none);
	glEnable(GL_LIGHT1);
	glLightfv(GL_LIGHT1, GL_POSITION, fill_dir);
	glLightfv(GL_LIGHT1, GL_DIFFUSE, fill);
	glLightfv(GL_LIGHT1, GL_SPECULAR, none);
	glLightfv(GL_LIGHT1, GL_AMBIENT, none);
}

static void material(GLenum face, const float rgb[3], float specular, float shininess)
{
	const float c[4] = {rgb[0], rgb[1], rgb[2], 1.0f}, s[4] = {specular, specular, specular, 1.0f};
	glMaterialfv(face, GL_AMBIENT_AND_DIFFUSE, c);
	glMaterialfv(face, GL_SPECULAR, s);
	glMaterialf(face, GL_SHININESS, shininess);
}

/* Area-weighted vertex normals of one cloth, into d->normals. */
static bool cloth_normals(drawer* d, const double* x, int32_t n, const int32_t* tri, int32_t triangle_count)
{
	if (n > d->normal_capacity) {
		float* p = realloc(d->normals, 3 * (size_t)n * sizeof *p);
		if (!p) return false;
		d->normals = p;
		d->normal_capacity = n;
	}
	memset(d->normals, 0, 3 * (size_t)n * sizeof *d->normals);
	for (int32_t t = 0; t < triangle_count; ++t) {
		int32_t a = tri[3 * t], b = tri[3 * t + 1], e = tri[3 * t + 2];
		vec3 xa = v3_load(&x[3 * (size_t)a]);
		vec3 fn = v3_cross(v3_sub(v3_load(&x[3 * (size_t)b]), xa), v3_sub(v3_load(&x[3 * (size_t)e]), xa));
		if (!v3_isfinite(fn)) continue;
		int32_t v[3] = {a, b, e};
		for (int k = 0; k < 3; ++k) {
			float* p = &d->normals[3 * (size_t)v[k]];
			p[0] += (float)fn.x, p[1] += (float)fn.y, p[2] += (float)fn.z;
		}
	}
	for (int32_t i = 0; i < n; ++i) {
		float* p = &d->normals[3 * (size_t)i];
		float l = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
		if (l > 0.0f) p[0] /= l, p[1] /= l, p[2] /= l;
		else p[2] = 1.0f;
	}
	return true;
}

/* drape_debug_draw.draw_cloth: lit, a colour per side, optionally its edges. */
static void draw_cloth(drape_cloth_id cloth, const double* x, int32_t vertex_count, const int32_t* tri, int32_t triangle_count,
		       void* context)
{
	drawer* d = context;
	if (!cloth_normals(d, x, vertex_count, tri, triangle_count)) return;
	int k = cloth.index % 4;
	material(GL_FRONT, cloth_front[k], 0.12f, 16.0f);
	material(GL_BACK, cloth_back[k], 0.12f, 16.0f);
	glVertexPointer(3, GL_DOUBLE, 0, x);
	glNormalPointer(GL_FLOAT, 0, d->normals);
	glEnable(GL_POLYGON_OFFSET_FILL);
	glPolygonOffset(1.0f, 1.0f);
	glDrawElements(GL_TRIANGLES, 3 * triangle_count, GL_UNSIGNED_INT, tri);
	glDisable(GL_POLYGON_OFFSET_FILL);
	if (d->wireframe) {
		glDisable(GL_LIGHTING);
		glColor3f(0.15f, 0.15f, 0.18f);
		glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
		glDrawElements(GL_TRIANGLES, 3 * triangle_count, GL_UNSIGNED_INT, tri);
		glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
		glEnable(GL_LIGHTING);
	}
}

static void draw_cloths(drawer* d, const drape_world* w, bool wireframe)
{
	if (drape_cloth_count(w) == 0) return;
	glEnable(GL_LIGHTING);
	glEnableClientState(GL_VERTEX_ARRAY);
	glEnableClientState(GL_NORMAL_ARRAY);
	d->wireframe = wireframe;
	drape_debug_draw dd = drape_default_debug_draw();
	dd.draw_cloth = draw_cloth;
	dd.draw_cloths = true;
	dd.context = d;
	drape_world_draw(w, &dd);
	glDisableClientState(GL_NORMAL_ARRAY);
	glDisableClientState(GL_VERTEX_ARRAY);
}

/* drape_debug_draw.draw_solid for the planes (light, like the ground), and for the other solids
 * (grey): two passes, so that all planes are drawn before all other solids. */
typedef struct solid_pass {
	bool planes;
} solid_pass;

static void draw_solid(drape_solid_id solid, bool plane, const float* positions, const float* normals, int32_t vertex_count,
		       const uint32_t* indices, int32_t index_count, void* context)
{
	(void)solid;
	const solid_pass* pass = context;
	if (plane != pass->planes || index_count == 0 || vertex_count == 0) return;
	glVertexPointer(3, GL_FLOAT, 0, positions);
	glNormalPointer(GL_FLOAT, 0, normals);
	glDrawElements(GL_TRIANGLES, index_count, GL_UNSIGNED_INT, indices);
}

static void draw_solids(const drape_world* w, double time, vec3 focus, double plane_half)
{
	drape_debug_draw dd = drape_default_debug_draw();
	dd.draw_solid = draw_solid;
	dd.draw_solids = true;
	dd.time = time;
	v3_store(focus, dd.plane_focus);
	dd.plane_half = plane_half;
	for (int k = 0; k < 2; ++k) {
		solid_pass pass = {k == 0};
		dd.context = &pass;
		glEnable(GL_LIGHTING);
		if (pass.planes) material(GL_FRONT_AND_BACK, plane_colour, 0.05f, 32.0f);
		else material(GL_FRONT_AND_BACK, solid_colour, 0.25f, 32.0f);
		glEnableClientState(GL_VERTEX_ARRAY);
		glEnableClientState(GL_NORMAL_ARRAY);
		glEnable(GL_POLYGON_OFFSET_FILL);
		glPolygonOffset(1.0f, 1.0f);
		drape_world_draw(w, &dd);
		glDisable(GL_POLYGON_OFFSET_FILL);
		glDisableClientState(GL_NORMAL_ARRAY);
		glDisableClientState(GL_VERTEX_ARRAY);
	}
}

/* The smallest of 1, 2, 5 times a power of ten that is at least x. */
static double nice_step(double x)
{
	double p = pow(10.0, floor(log10(x)));
	if (p >= x) return p;
	if (2.0 * p >= x) return 2.0 * p;
	if (5.0 * p >= x) return 5.0 * p;
	return 10.0 * p;
}

/* The ground: a square perpendicular to up at height `level` around focus (a point on the
 * world-aligned grid, so lines stay put when the scene's bounds change a little); no fill when a
 * plane solid is the ground already. */
static void draw_ground(vec3 up, double level, vec3 focus, double step, int lines, bool fill)
{
	vec3 e1, e2;
	ground_axes(up, &e1, &e2);
	double half = lines * step;
	vec3 origin = v3_madd(focus, level - v3_dot(focus, up), up);
	glDisable(GL_LIGHTING);
	if (fill) {
		glEnable(GL_POLYGON_OFFSET_FILL);
		glPolygonOffset(1.0f, 1.0f);
		glColor3fv(ground_colour);
		glBegin(GL_QUADS);
		for (int k = 0; k < 4; ++k) {
			double sa = (k == 1 || k == 2) ? half : -half, sb = k >= 2 ? half : -half;
			vec3 p = v3_madd(v3_madd(origin, sa, e1), sb, e2);
			glVertex3d(p.x, p.y, p.z);
		}
		glEnd();
		glDisable(GL_POLYGON_OFFSET_FILL);
	}
	glColor3fv(grid_colour);
	glBegin(GL_LINES);
	for (int i = -lines; i <= lines; ++i) {
		vec3 p = v3_madd(v3_madd(origin, i * step, e1), -half, e2), q = v3_madd(p, 2.0 * half, e2);
		glVertex3d(p.x, p.y, p.z);
		glVertex3d(q.x, q.y, q.z);
		p = v3_madd(v3_madd(origin, i * step, e2), -half, e1), q = v3_madd(p, 2.0 * half, e1);
		glVertex3d(p.x, p.y, p.z);
		glVertex3d(q.x, q.y, q.z);
	}
	glEnd();
}

/* Grid lines on a plane solid's patch (the tilted ones: a horizontal plane under the scene is the
 * ground and has them already), on its own frame's grid. */
static void draw_plane_grid(frame x, vec3 focus, double half, double step)
{
	vec3 f = frame_to_local(x, focus);
	int lines = (int)floor(half / step + 1e-9);
	glDisable(GL_LIGHTING);
	glColor3fv(grid_colour);
	glBegin(GL_LINES);
	for (int i = -lines; i <= lines; ++i)
		for (int axis = 0; axis < 2; ++axis) {
			vec3 a = axis ? v3(f.x + i * step, f.y - half, 0.0) : v3(f.x - half, f.y + i * step, 0.0);
			vec3 b = axis ? v3(f.x + i * step, f.y + half, 0.0) : v3(f.x + half, f.y + i * step, 0.0);
			a = frame_to_world(x, a);
			b = frame_to_world(x, b);
			glVertex3d(a.x, a.y, a.z);
			glVertex3d(b.x, b.y, b.z);
		}
	glEnd();
}

/* drape_debug_draw.draw_point: solid contacts yellow, cloth/cloth ones magenta. */
static void draw_point(const double p[3], drape_debug_point kind, void* context)
{
	(void)context;
	if (kind == DRAPE_DEBUG_SOLID_CONTACT) glColor3f(1.0f, 0.85f, 0.1f);
	else glColor3f(0.95f, 0.2f, 0.85f);
	glVertex3d(p[0], p[1], p[2]);
}

static void draw_contacts(const drape_world* w)
{
	glDisable(GL_LIGHTING);
	glPointSize(6.0f);
	/* Pulled slightly towards the viewer so the surface the particle lies on does not cut the
	 * square in half (polygon offset does not apply to points). */
	glDepthRange(0.0, 0.9995);
	glBegin(GL_POINTS);
	drape_debug_draw dd = drape_default_debug_draw();
	dd.draw_point = draw_point;
	dd.draw_contacts = true;
	drape_world_draw(w, &dd);
	glEnd();
	glDepthRange(0.0, 1.0);
	glPointSize(1.0f);
}

/* What ground_level learns from the plane solids (drape_debug_draw.draw_plane). */
typedef struct ground_planes {
	vec3 up, focus;
	double plane_half, radius;
	double level;
	bool ground_is_plane;
} ground_planes;

/* fn with each infinite plane's frame at `time`, in solid order. */
static void for_each_plane(const drape_world* w, double time,
			   void (*fn)(drape_solid_id, const double origin[3], const double rotation[4], void*), void* context)
{
	drape_debug_draw dd = drape_default_debug_draw();
	dd.draw_plane = fn;
	dd.draw_planes = true;
	dd.time = time;
	dd.context = context;
	drape_world_draw(w, &dd);
}

static frame plane_frame(const double origin[3], const double rotation[4])
{
	frame x = {v3_load(origin), {rotation[0], rotation[1], rotation[2], rotation[3]}};
	return x;
}

static void ground_plane(drape_solid_id solid, const double origin[3], const double rotation[4], void* context)
{
	(void)solid;
	ground_planes* g = context;
	frame x = plane_frame(origin, rotation);
	vec3 n = frame_rotate(x, 1.0, v3(0.0, 0.0, 1.0));
	double h = v3_dot(x.p, g->up);
	if (v3_dot(n, g->up) > 0.999) {
		/* a horizontal plane under (or just at) the scene is the ground */
		if (h <= g->level + 1e-3 * g->radius) g->ground_is_plane = true, g->level = h;
		return;
	}
	/* the lowest corner of its patch */
	vec3 f = frame_to_local(x, g->focus);
	for (int c = 0; c < 4; ++c) {
		vec3 p = frame_to_world(x, v3(f.x + (c & 1 ? g->plane_half : -g->plane_half), f.y + (c & 2 ? g->plane_half : -g->plane_half), 0.0));
		double hp = v3_dot(p, g->up);
		if (hp < g->level) g->level = hp, g->ground_is_plane = false;
	}
}

/* The ground's height along up: under everything, plane patches included (a tilted plane must
 * not pierce it); a horizontal plane under the scene is the ground itself (*ground_is_plane). */
static double ground_level(const drape_world* w, double time, const double lo[3], const double hi[3], vec3 up, vec3 focus,
			   double plane_half, bool* ground_is_plane)
{
	double level = INFINITY;
	vec3 centre;
	double radius;
	box_sphere(lo, hi, &centre, &radius);
	for (int c = 0; c < 8; ++c) level = fmin(level, v3_dot(v3(c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]), up));
	if (!isfinite(level)) level = v3_dot(centre, up) - radius;
	/* The world's origin is the floor when the scene stands not far above it: a rod at 1 m then
	 * looks raised, as it is, rather than lying on the ground. */
	if (level >= 0.0 && level < 2.0 * radius) level = 0.0;
	ground_planes g = {up, focus, plane_half, radius, level, false};
	for_each_plane(w, time, ground_plane, &g);
	*ground_is_plane = g.ground_is_plane;
	return g.level;
}

/* Grid lines on the tilted planes (drape_debug_draw.draw_plane). */
typedef struct plane_grids {
	vec3 up, focus;
	double half, step;
} plane_grids;

static void plane_grid(drape_solid_id solid, const double origin[3], const double rotation[4], void* context)
{
	(void)solid;
	const plane_grids* g = context;
	frame x = plane_frame(origin, rotation);
	if (v3_dot(frame_rotate(x, 1.0, v3(0.0, 0.0, 1.0)), g->up) <= 0.999) draw_plane_grid(x, g->focus, g->half, g->step);
}

void draw_world(drawer* d, const drape_world* w, double time, const draw_camera* cam, const draw_options* opt)
{
	int width = opt->width > 0 ? opt->width : 1, height = opt->height > 0 ? opt->height : 1;
	glViewport(0, 0, width, height);
	glClearColor(sky_bottom[0], sky_bottom[1], sky_bottom[2], 1.0f);
	glClearDepth(1.0);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	glDisable(GL_CULL_FACE);
	glShadeModel(GL_SMOOTH);
	glEnable(GL_NORMALIZE);
	glDepthFunc(GL_LEQUAL);
	background();

	double lo[3], hi[3], up3[3];
	if (opt->fixed_region) {
		memcpy(lo, opt->region_lo, sizeof lo);
		memcpy(hi, opt->region_hi, sizeof hi);
	} else {
		draw_bounds_empty(lo, hi);
		draw_world_bounds(w, time, lo, hi);
	}
	vec3 centre;
	double radius;
	box_sphere(lo, hi, &centre, &radius);
	draw_world_up(w, up3);
	vec3 up = v3_load(up3);

	vec3 eye = v3_load(cam->eye), target = v3_load(cam->target);
	double dist = v3_len(v3_sub(centre, eye));
	double far = dist + 6.0 * radius, near = fmax(dist - 4.0 * radius, 1e-3 * far);
	perspective(cam->fov_y_deg > 1.0 && cam->fov_y_deg < 179.0 ? cam->fov_y_deg : 35.0, (double)width / height, near, far);
	lights();
	look_at(eye, target, v3_load(cam->up));

	/* Fog in the horizon's colour fades the far ground into the sky. */
	const float fog[4] = {sky_bottom[0], sky_bottom[1], sky_bottom[2], 1.0f};
	glEnable(GL_FOG);
	glFogi(GL_FOG_MODE, GL_LINEAR);
	glFogfv(GL_FOG_COLOR, fog);
	glFogf(GL_FOG_START, (float)(dist + 1.0 * radius));
	glFogf(GL_FOG_END, (float)(dist + 4.0 * radius));

	/* Plane patches are as large as the grid, so a plane that is the ground carries all of it. */
	double step = nice_step(radius / 5.0);
	int lines = (int)ceil(2.0 * radius / step);
	double plane_half = lines * step;
	vec3 e1, e2;
	ground_axes(up, &e1, &e2);
	vec3 focus = v3_add(v3_scale(up, v3_dot(centre, up)),
			    v3_add(v3_scale(e1, step * round(v3_dot(centre, e1) / step)), v3_scale(e2, step * round(v3_dot(centre, e2) / step))));
	bool ground_is_plane;
	double level = ground_level(w, time, lo, hi, up, focus, plane_half, &ground_is_plane);
	draw_ground(up, level, focus, step, lines, !ground_is_plane);
	draw_solids(w, time, focus, plane_half);
	plane_grids grids = {up, focus, plane_half, step};
	for_each_plane(w, time, plane_grid, &grids);
	draw_cloths(d, w, opt->wireframe);
	if (opt->show_contacts) draw_contacts(w);
	glDisable(GL_FOG);
	glDisable(GL_LIGHTING);
}
