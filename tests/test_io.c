/* The io suite: grid meshes, the OBJ reader and writer (this file) and scene files
 * (test_scene.c, test_scene_solids.c), including every error a user can reach with a bad file
 * and the wording and location of its message. */
#define _POSIX_C_SOURCE 200809L
#include "test_io.h"

#include "io/obj_read.h"
#include "io/obj_write.h"
#include "io/text_number.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------------------------------------
 * Helpers: a scratch directory per test, files in it, and JSON written with single quotes. */

void scratch_open(scratch* s)
{
	strcpy(s->dir, "/tmp/drape_test_io_XXXXXX");
	if (!mkdtemp(s->dir)) {
		perror("mkdtemp");
		exit(1);
	}
}

void scratch_close(scratch* s)
{
	DIR* d = opendir(s->dir);
	if (d) {
		struct dirent* e;
		char path[512];
		while ((e = readdir(d))) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
			snprintf(path, sizeof path, "%s/%s", s->dir, e->d_name);
			remove(path);
		}
		closedir(d);
	}
	rmdir(s->dir);
}

const char* scratch_path(const scratch* s, const char* name)
{
	static char path[4][512];
	static int next = 0;
	char* p = path[next++ & 3];
	snprintf(p, sizeof path[0], "%s/%s", s->dir, name);
	return p;
}

void write_text(const char* path, const char* text)
{
	FILE* f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

bool file_exists(const char* path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* JSON with ' for " so that test scenes stay readable. Returns a static buffer. */
const char* q(const char* text)
{
	static char buf[8192];
	size_t n = strlen(text);
	if (n >= sizeof buf) n = sizeof buf - 1;
	for (size_t i = 0; i < n; ++i) buf[i] = text[i] == '\'' ? '"' : text[i];
	buf[n] = '\0';
	return buf;
}

bool mesh_zeroed(const drape_mesh* m)
{
	return m->vertex_count == 0 && !m->positions && m->uv_count == 0 && !m->uvs && m->triangle_count == 0 &&
	       !m->triangles && !m->triangle_uvs;
}

double uv_area(const drape_mesh* m, int32_t t)
{
	const double* a = m->uvs + 2 * m->triangle_uvs[3 * t];
	const double* b = m->uvs + 2 * m->triangle_uvs[3 * t + 1];
	const double* c = m->uvs + 2 * m->triangle_uvs[3 * t + 2];
	return 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
}

/* ---------------------------------------------------------------------------------------------
 * Grids */

static void test_grid_default_def(void)
{
	drape_grid_def d = drape_default_grid_def();
	CHECK(d.size[0] == 1.0 && d.size[1] == 1.0);
	CHECK(d.resolution[0] == 21 && d.resolution[1] == 21);
	CHECK(d.center[0] == 0.0 && d.center[1] == 0.0 && d.center[2] == 0.0);
	CHECK(d.u_axis[0] == 1.0 && d.u_axis[1] == 0.0 && d.u_axis[2] == 0.0);
	CHECK(d.v_axis[0] == 0.0 && d.v_axis[1] == 1.0 && d.v_axis[2] == 0.0);
	drape_mesh m;
	char err[256];
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_OK);
	CHECK(m.vertex_count == 441 && m.triangle_count == 800);
	drape_mesh_free(&m);
}

static void test_grid_layout(void)
{
	drape_grid_def d = drape_default_grid_def();
	d.size[0] = 2.0;
	d.size[1] = 1.0;
	d.resolution[0] = 5;
	d.resolution[1] = 3;
	d.center[0] = 1.0, d.center[1] = 2.0, d.center[2] = 3.0;
	/* Non-unit u and a v that leans towards u: Gram-Schmidt gives u = +y, v = +x. */
	d.u_axis[0] = 0.0, d.u_axis[1] = 2.0, d.u_axis[2] = 0.0;
	d.v_axis[0] = 1.0, d.v_axis[1] = 1.0, d.v_axis[2] = 0.0;
	drape_mesh m;
	char err[256];
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_OK);
	CHECK(m.vertex_count == 15);
	CHECK(m.uv_count == 15);
	CHECK(m.triangle_count == 2 * 4 * 2);
	CHECK(memcmp(m.triangles, m.triangle_uvs, sizeof(int32_t) * 3 * (size_t)m.triangle_count) == 0);
	for (int j = 0; j < 3; ++j) {
		for (int i = 0; i < 5; ++i) {
			int id = j * 5 + i;
			double u = i * 2.0 / 4.0, v = j * 1.0 / 2.0;
			CHECK_NEAR(m.uvs[2 * id], u, 1e-15);
			CHECK_NEAR(m.uvs[2 * id + 1], v, 1e-15);
			CHECK_NEAR(m.positions[3 * id + 0], 1.0 + (v - 0.5), 1e-15);
			CHECK_NEAR(m.positions[3 * id + 1], 2.0 + (u - 1.0), 1e-15);
			CHECK_NEAR(m.positions[3 * id + 2], 3.0, 1e-15);
		}
	}
	drape_mesh_free(&m);
	CHECK(mesh_zeroed(&m));
	drape_mesh_free(&m); /* idempotent */
	drape_mesh_free(NULL);
}

static void test_grid_orientation_and_diagonals(void)
{
	drape_grid_def d = drape_default_grid_def();
	d.size[0] = 0.8;
	d.size[1] = 0.5;
	d.resolution[0] = 6;
	d.resolution[1] = 5;
	drape_mesh m;
	char err[256];
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_OK);
	double total = 0.0;
	for (int32_t t = 0; t < m.triangle_count; ++t) {
		CHECK(uv_area(&m, t) > 0.0);
		total += uv_area(&m, t);
	}
	CHECK_NEAR(total, 0.8 * 0.5, 1e-12);
	/* Cells are listed row by row, two triangles each; the shared edge is the diagonal. */
	int nu = 6;
	int t = 0;
	for (int j = 0; j + 1 < 5; ++j) {
		for (int i = 0; i + 1 < nu; ++i, t += 2) {
			int a = j * nu + i, b = a + 1, c = a + nu + 1, dd = a + nu;
			int shared = 0, has[4] = {0, 0, 0, 0};
			for (int k = 0; k < 3; ++k) {
				for (int l = 0; l < 3; ++l)
					if (m.triangles[3 * t + k] == m.triangles[3 * (t + 1) + l]) ++shared;
			}
			CHECK(shared == 2);
			for (int k = 0; k < 6; ++k) {
				int v = m.triangles[3 * t + k];
				has[0] += v == a, has[1] += v == b, has[2] += v == c, has[3] += v == dd;
			}
			/* Each diagonal end appears in both triangles. */
			if ((i + j) % 2 == 0)
				CHECK(has[0] == 2 && has[2] == 2 && has[1] == 1 && has[3] == 1);
			else
				CHECK(has[1] == 2 && has[3] == 2 && has[0] == 1 && has[2] == 1);
		}
	}
	drape_mesh_free(&m);
}

static void test_grid_errors(void)
{
	char err[256];
	drape_mesh m;
	drape_grid_def d;
	memset(&d, 0, sizeof d);
	d.resolution[0] = d.resolution[1] = 4;
	d.size[0] = d.size[1] = 1.0;
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	CHECK_HAS(err, "grid def not initialised with drape_default_grid_def()");
	CHECK(mesh_zeroed(&m));

	d = drape_default_grid_def();
	d.size[1] = -1.0;
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	CHECK_HAS(err, "size must be finite and > 0");

	d = drape_default_grid_def();
	d.size[0] = NAN;
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_ERROR_INVALID);

	d = drape_default_grid_def();
	d.resolution[0] = 1;
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	CHECK_HAS(err, "resolution must be >= 2");

	d = drape_default_grid_def();
	d.resolution[0] = d.resolution[1] = 10000;
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	CHECK_HAS(err, "more than 50000000 particles");

	d = drape_default_grid_def();
	d.center[2] = INFINITY;
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	CHECK_HAS(err, "finite");

	d = drape_default_grid_def();
	memset(d.v_axis, 0, sizeof d.v_axis);
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	CHECK_HAS(err, "non-zero");

	d = drape_default_grid_def();
	d.v_axis[0] = -3.0, d.v_axis[1] = 0.0;
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	CHECK_HAS(err, "parallel");
	CHECK(mesh_zeroed(&m));
}

/* ---------------------------------------------------------------------------------------------
 * OBJ reading */

/* Two unit squares side by side in 3D, sharing the edge 2-5, but apart in uv (a seam): the
 * shared vertices carry two vt each. The second quad uses relative indices. */
static const char seam_obj[] = "# two panels\r\n"
			       "mtllib panels.mtl\r\n"
			       "o panels\r\n"
			       "v 0 0 0\r\n"
			       "v 1 0 0\r\n"
			       "v 2 0 0 1.0\r\n"
			       "v 0 1 0\r\n"
			       "v 1 1 0\r\n"
			       "v 2 1 0\r\n"
			       "\r\n"
			       "vn 0 0 1\r\n"
			       "vt 0 0\r\n"
			       "vt 1 0\r\n"
			       "vt 1 1 0\r\n"
			       "vt 0 1\r\n"
			       "vt 1.5 0\r\n"
			       "vt 2.5 0\r\n"
			       "vt 2.5 1\r\n"
			       "vt 1.5 1\r\n"
			       "g left\r\n"
			       "usemtl cotton\r\n"
			       "s off\r\n"
			       "f 1/1/1 2/2/1 5/3/1 4/4/1   # a quad\r\n"
			       "g right\r\n"
			       "f -5/-4 -4/-3 -1/-2 -2/-1\r\n"
			       "l 1 2\r\n"
			       "p 3\r\n";

static void test_obj_read_seam(void)
{
	scratch s;
	scratch_open(&s);
	const char* path = scratch_path(&s, "panels.obj");
	write_text(path, seam_obj);

	drape_mesh m;
	char err[256] = "";
	CHECK(drape_mesh_load_obj(path, 0.5, &m, err, sizeof err) == DRAPE_OK);
	if (err[0]) fprintf(stderr, "%s\n", err);
	CHECK(m.vertex_count == 6);
	CHECK(m.uv_count == 8);
	CHECK(m.triangle_count == 4);
	if (m.triangle_count != 4) {
		drape_mesh_free(&m);
		scratch_close(&s);
		return;
	}
	/* Each quad is a fan around its first corner; the second quad's relative indices -5 -4 -1 -2
	 * name vertices 2 3 6 5 (1-based) of the six defined. */
	static const int32_t tv[12] = {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4};
	static const int32_t tt[12] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
	CHECK(memcmp(m.triangles, tv, sizeof tv) == 0);
	CHECK(memcmp(m.triangle_uvs, tt, sizeof tt) == 0);
	CHECK_NEAR(m.positions[3 * 2 + 0], 2.0, 0.0);
	CHECK_NEAR(m.positions[3 * 4 + 1], 1.0, 0.0);
	/* uv_scale applies to vt. */
	CHECK_NEAR(m.uvs[2 * 2 + 0], 0.5, 0.0);
	CHECK_NEAR(m.uvs[2 * 6 + 0], 1.25, 0.0);
	/* Vertex 1 (0-based) is on the seam: uv 1 in the left panel, another uv on the right. */
	int32_t uv_left = -1, uv_right = -1;
	for (int32_t t = 0; t < m.triangle_count; ++t) {
		for (int k = 0; k < 3; ++k) {
			if (m.triangles[3 * t + k] != 1) continue;
			if (t < 2)
				uv_left = m.triangle_uvs[3 * t + k];
			else
				uv_right = m.triangle_uvs[3 * t + k];
		}
	}
	CHECK(uv_left == 1);
	CHECK(uv_right >= 4 && uv_right != uv_left);
	for (int32_t t = 0; t < m.triangle_count; ++t) CHECK(uv_area(&m, t) > 0.0);
	drape_mesh_free(&m);
	scratch_close(&s);
}

typedef struct obj_case {
	bool after_triangle; /* the text follows three good v and vt lines */
	const char* text;
	const char* expect; /* what follows the file's path in the message */
} obj_case;

static void test_obj_read_errors(void)
{
	scratch s;
	scratch_open(&s);
	const char* path = scratch_path(&s, "bad.obj");
	static const char tri[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n";
	/* Twelve vertices, then a face that refers to the 17th. */
	char twelve[512] = "";
	for (int i = 0; i < 12; ++i) strcat(twelve, "v 0 0 0\n");
	strcat(twelve, "vt 0 0\nf 1/1 2/1 17/1\n");

	char buf[1024];
	const obj_case cases[] = {
		{false, "v 1 2 x\n", ":1: malformed number 'x' in vertex (v)"},
		{false, "# c\nv 1 2 1e400\n", ":2: non-finite number '1e400' in vertex (v)"},
		{false, "v nan 0 0\n", ":1: non-finite number 'nan'"},
		{false, "v 1 2\n", ":1: vertex (v) needs 3 coordinates"},
		{false, "vt 0.5\n", ":1: texture coordinate (vt) needs 2 numbers"},
		{false, "vt 0.5 abc\n", ":1: malformed number 'abc' in texture coordinate (vt)"},
		{true, "f 1/1 2/2\n", ":7: face has 2 corners; it needs at least 3"},
		{true, "f 1 2 3\n",
		 ":7: face corner 1 has no texture coordinate (vt): drape needs rest (u,v) coordinates"},
		{true, "f 1/1 2//2 3/3\n",
		 ":7: face corner 2 has no texture coordinate (vt): drape needs rest (u,v) coordinates"},
		{true, "f 1/1 0/2 3/3\n", ":7: face corner 2: index 0 is not valid"},
		{true, "f 1/1 2/2 3/x\n", ":7: face corner 3: malformed index 'x'"},
		{true, "f 1/1 2/2 3/9\n",
		 ":7: face refers to texture coordinate 9 but only 3 texture coordinates are defined so far"},
		{true, "f -5/1 2/2 3/3\n",
		 ":7: face refers to vertex -5 (relative) but only 3 vertices are defined so far"},
		{true, "f 1/1 2/2 1/3\n", ":7: face uses vertex 1 twice"},
		{true, "f -3/1 1/2 2/3\n", ":7: face uses vertex 1 twice"},
		{true, "xyz 1 2\n", ":7: unknown statement 'xyz'"},
		{true, "curv 0 1 1 2\n", ":7: 'curv' is free-form geometry"},
		{true, "\n# nothing\n", ": no faces (f)"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		snprintf(buf, sizeof buf, "%s%s", cases[k].after_triangle ? tri : "", cases[k].text);
		write_text(path, buf);
		drape_mesh m;
		char err[256] = "";
		char expect[512];
		snprintf(expect, sizeof expect, "%s%s", path, cases[k].expect);
		CHECK(drape_mesh_load_obj(path, 1.0, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
		CHECK_HAS(err, expect);
		CHECK(mesh_zeroed(&m));
	}

	write_text(path, twelve);
	drape_mesh m;
	char err[256] = "";
	char expect[512];
	CHECK(drape_mesh_load_obj(path, 1.0, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	snprintf(expect, sizeof expect, "%s:14: face refers to vertex 17 but only 12 vertices are defined so far",
		 path);
	CHECK_HAS(err, expect);

	/* A good file with a bad uv_scale. */
	snprintf(buf, sizeof buf, "%sf 1/1 2/2 3/3\n", tri);
	write_text(path, buf);
	CHECK(drape_mesh_load_obj(path, 0.0, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	CHECK_HAS(err, "uv_scale must be finite and > 0");
	CHECK(drape_mesh_load_obj(path, NAN, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	CHECK(drape_mesh_load_obj(path, 1.0, &m, err, sizeof err) == DRAPE_OK);
	drape_mesh_free(&m);

	const char* missing = scratch_path(&s, "missing.obj");
	CHECK(drape_mesh_load_obj(missing, 1.0, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	snprintf(expect, sizeof expect, "%s: cannot open: ", missing);
	CHECK_HAS(err, expect);
	CHECK_HAS(err, "No such file");
	CHECK(mesh_zeroed(&m));
	scratch_close(&s);
}

/* Solids need only geometry: every corner style, vt optional (and dropped), the same errors. */
static void test_obj_read_geometry(void)
{
	scratch s;
	scratch_open(&s);
	const char* path = scratch_path(&s, "solid.obj");
	write_text(path, "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nvt 0 0\nvt 1 0\nvn 0 0 1\n"
			 "f 1 2 3\nf 1//1 3//1 4//1\nf 1/1 2/2 5/1\nf 2/1/1 3/2/1 -1/2/1 -5/1/1\n");
	drape_mesh m;
	char err[512] = "";
	CHECK(obj_read_geometry(path, &m, err, sizeof err));
	if (err[0]) fprintf(stderr, "%s\n", err);
	CHECK(m.vertex_count == 5 && m.triangle_count == 5);
	CHECK(m.uv_count == 0 && m.uvs == NULL && m.triangle_uvs == NULL);
	/* The quad with relative indices (-1 is vertex 5, -5 vertex 1) is a fan around its first corner. */
	static const int32_t tv[15] = {0, 1, 2, 0, 2, 3, 0, 1, 4, 1, 2, 4, 1, 4, 0};
	if (m.triangle_count == 5) CHECK(memcmp(m.triangles, tv, sizeof tv) == 0);
	CHECK(m.positions[3 * 4 + 2] == 1.0);
	drape_mesh_free(&m);
	CHECK(mesh_zeroed(&m));

	/* The public reader is unchanged: it still wants vt everywhere. */
	write_text(path, "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nf 1 2 3\nf 1/1 3/1 4/1\n");
	CHECK(drape_mesh_load_obj(path, 1.0, &m, err, sizeof err) == DRAPE_ERROR_INVALID);
	CHECK_HAS(err, ":6: face corner 1 has no texture coordinate (vt)");
	CHECK(obj_read_geometry(path, &m, err, sizeof err));
	static const int32_t quad[6] = {0, 1, 2, 0, 2, 3};
	CHECK(m.triangle_count == 2 && memcmp(m.triangles, quad, sizeof quad) == 0);
	CHECK(m.uv_count == 0 && m.uvs == NULL && m.triangle_uvs == NULL);
	drape_mesh_free(&m);

	static const char tri[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
	const obj_case cases[] = {
		{false, "f 1/ 2/ 3/\n", ":4: face corner 1: malformed corner '1/'"},
		{false, "f 1 2 3/1\n", ":4: face refers to texture coordinate 1 but no texture coordinates are defined so far"},
		{false, "vt 0 x\nf 1 2 3\n", ":4: malformed number 'x' in texture coordinate (vt)"},
		{false, "f 1 2 3//0\n", ":4: face corner 3: index 0 is not valid"},
		{false, "f 1 2 4\n", ":4: face refers to vertex 4 but only 3 vertices are defined so far"},
		{false, "f 1 2 1\n", ":4: face uses vertex 1 twice"},
		{false, "# none\n", ": no faces (f): a solid mesh needs triangles"},
	};
	char buf[512];
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		snprintf(buf, sizeof buf, "%s%s", tri, cases[k].text);
		write_text(path, buf);
		char expect[600];
		snprintf(expect, sizeof expect, "%s%s", path, cases[k].expect);
		CHECK(!obj_read_geometry(path, &m, err, sizeof err));
		CHECK_HAS(err, expect);
		CHECK(mesh_zeroed(&m));
	}
	const char* missing = scratch_path(&s, "missing.obj");
	CHECK(!obj_read_geometry(missing, &m, err, sizeof err));
	snprintf(buf, sizeof buf, "%s: cannot open: No such file", missing);
	CHECK_HAS(err, buf);
	scratch_close(&s);
}

/* ---------------------------------------------------------------------------------------------
 * OBJ writing */

static void test_obj_write_round_trip(void)
{
	scratch s;
	scratch_open(&s);
	drape_grid_def d = drape_default_grid_def();
	d.resolution[0] = 7;
	d.resolution[1] = 4;
	drape_mesh m;
	char err[256];
	CHECK(drape_mesh_make_grid(&d, &m, err, sizeof err) == DRAPE_OK);
	double* x = malloc(sizeof(double) * 3 * (size_t)m.vertex_count);
	for (int32_t i = 0; i < 3 * m.vertex_count; ++i) x[i] = m.positions[i] + 0.123456789123 * sin(1.7 * i);

	const char* path = scratch_path(&s, "frame_0001.obj");
	CHECK(obj_write(path, &m, x, err, sizeof err));
	char tmp[600];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	CHECK(!file_exists(tmp));
	drape_mesh r;
	CHECK(drape_mesh_load_obj(path, 1.0, &r, err, sizeof err) == DRAPE_OK);
	CHECK(r.vertex_count == m.vertex_count && r.uv_count == m.uv_count && r.triangle_count == m.triangle_count);
	if (r.vertex_count == m.vertex_count && r.uv_count == m.uv_count && r.triangle_count == m.triangle_count) {
		double worst = 0.0;
		for (int32_t i = 0; i < 3 * m.vertex_count; ++i) worst = fmax(worst, fabs(r.positions[i] - x[i]));
		for (int32_t i = 0; i < 2 * m.uv_count; ++i) worst = fmax(worst, fabs(r.uvs[i] - m.uvs[i]));
		CHECK(worst <= 1e-9);
		CHECK(memcmp(r.triangles, m.triangles, sizeof(int32_t) * 3 * (size_t)m.triangle_count) == 0);
		CHECK(memcmp(r.triangle_uvs, m.triangle_uvs, sizeof(int32_t) * 3 * (size_t)m.triangle_count) == 0);
	}
	drape_mesh_free(&r);

	/* Overwriting an existing frame, and NULL positions meaning the mesh's own. */
	CHECK(obj_write(path, &m, NULL, err, sizeof err));
	CHECK(drape_mesh_load_obj(path, 1.0, &r, err, sizeof err) == DRAPE_OK);
	CHECK(r.vertex_count == m.vertex_count);
	if (r.vertex_count == m.vertex_count) CHECK_NEAR(r.positions[5], m.positions[5], 1e-9);
	drape_mesh_free(&r);
	CHECK(!file_exists(tmp));

	/* Two objects in one file: the second one's indices continue after the first's. */
	drape_grid_def d2 = drape_default_grid_def();
	d2.resolution[0] = 2;
	d2.resolution[1] = 3;
	d2.center[2] = 5.0;
	drape_mesh m2;
	CHECK(drape_mesh_make_grid(&d2, &m2, err, sizeof err) == DRAPE_OK);
	obj_object objects[2] = {{"first", &m, x}, {"sec\nond", &m2, NULL}};
	CHECK(obj_write_objects(path, objects, 2, err, sizeof err));
	CHECK(drape_mesh_load_obj(path, 1.0, &r, err, sizeof err) == DRAPE_OK);
	CHECK(r.vertex_count == m.vertex_count + m2.vertex_count);
	CHECK(r.uv_count == m.uv_count + m2.uv_count);
	CHECK(r.triangle_count == m.triangle_count + m2.triangle_count);
	if (r.triangle_count == m.triangle_count + m2.triangle_count) {
		for (int32_t k = 0; k < 3 * m2.triangle_count; ++k) {
			CHECK(r.triangles[3 * m.triangle_count + k] == m2.triangles[k] + m.vertex_count);
			CHECK(r.triangle_uvs[3 * m.triangle_count + k] == m2.triangle_uvs[k] + m.uv_count);
		}
		CHECK_NEAR(r.positions[3 * m.vertex_count + 2], 5.0, 0.0);
	}
	drape_mesh_free(&r);
	drape_mesh_free(&m2);
	CHECK(!file_exists(tmp));

	/* A directory that does not exist: an error naming the file, and nothing left behind. */
	const char* bad = scratch_path(&s, "no/such/dir/frame.obj");
	CHECK(!obj_write(bad, &m, x, err, sizeof err));
	CHECK_HAS(err, "no/such/dir/frame.obj.tmp: cannot create");
	free(x);
	drape_mesh_free(&m);
	scratch_close(&s);
}

/* The frame writers' number formatting (io/text_number.c) prints what printf prints, byte for
 * byte: random doubles over every exponent the fast path takes and beyond, ties at the ninth digit
 * (x.25, x.75 at 10^7 and 10^8), rounding that carries into a new digit, signed zeros and the
 * edges of the fast path. */
static bool same_as_printf(double v)
{
	char a[64], b[64];
	bool ok = true;
	text_g9(v, a);
	snprintf(b, sizeof b, "%.9g", v);
	if (strcmp(a, b) != 0) ok = false, fprintf(stderr, "%%.9g of %a: '%s', printf '%s'\n", v, a, b);
	if (fabs(v) < 1e15) {
		text_f6(v, a);
		snprintf(b, sizeof b, "%.6f", v);
		if (strcmp(a, b) != 0) ok = false, fprintf(stderr, "%%.6f of %a: '%s', printf '%s'\n", v, a, b);
	}
	return ok;
}

static void test_text_number_as_printf(void)
{
	uint64_t state = 88172645463325252ull;
	int bad = 0;
	for (int k = 0; k < SHORT(300000, 60000) && bad < 10; ++k) {
		state ^= state << 13, state ^= state >> 7, state ^= state << 17;
		/* a mantissa of random bits and an exponent from 2^-60 to 2^40 */
		double v = ldexp((double)(state >> 11) / 9007199254740992.0, (int)(state % 101) - 60);
		if (state & (1ull << 62)) v = -v;
		bad += !same_as_printf(v);
		bad += !same_as_printf(rint(v * 1e6) / 1e6); /* few digits, many trailing zeros */
	}
	const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e-4, 9.99999999e-5, 1e-5, 0.000123456789, 99999999.95, 999999999.4,
				  999999999.6, 1e9, 123456789.0, 12345678.25, 12345678.75, 12345678.5, 1234567.125, 98765432.5,
				  1e-14, 9.99999999999e-15, 1e15, 0.9999999995, 0.99999999949, 5e-7, 4.999999e-7, 5.0000001e-7,
				  1.0 / 3.0, 2.0 / 3.0, 0.1, 0.2, 0.3, 1e-300, 1e300, INFINITY, -INFINITY};
	for (size_t k = 0; k < sizeof special / sizeof special[0]; ++k) bad += !same_as_printf(special[k]);
	for (int p = -15; p <= 10; ++p) {
		const double t = pow(10.0, p);
		bad += !same_as_printf(t) + !same_as_printf(nextafter(t, 0.0)) + !same_as_printf(nextafter(t, 1e300));
	}
	CHECK(bad == 0);
	const int64_t ints[] = {0, 1, -1, 9, 10, 12345, -987654321, INT64_MAX, INT64_MIN, 1000000};
	for (size_t k = 0; k < sizeof ints / sizeof ints[0]; ++k) {
		char a[32], b[32];
		text_i64(ints[k], a);
		snprintf(b, sizeof b, "%lld", (long long)ints[k]);
		CHECK(strcmp(a, b) == 0);
	}
}

const test_case io_tests[] = {
	{"text_number_as_printf", test_text_number_as_printf},
	{"grid_default_def", test_grid_default_def},
	{"grid_layout", test_grid_layout},
	{"grid_orientation_and_diagonals", test_grid_orientation_and_diagonals},
	{"grid_errors", test_grid_errors},
	{"obj_read_seam", test_obj_read_seam},
	{"obj_read_errors", test_obj_read_errors},
	{"obj_read_geometry", test_obj_read_geometry},
	{"obj_write_round_trip", test_obj_write_round_trip},
	{"scene_shipped", test_scene_shipped},
	{"scene_replay_api", test_scene_replay_api},
	{"scene_default", test_scene_default},
	{"scene_pins", test_scene_pins},
	{"scene_pin_motion", test_scene_pin_motion},
	{"scene_stretch_regions", test_scene_stretch_regions},
	{"scene_mesh_file", test_scene_mesh_file},
	{"scene_solid_shapes", test_scene_solid_shapes},
	{"scene_solid_poses", test_scene_solid_poses},
	{"scene_solid_mesh", test_scene_solid_mesh},
	{"scene_solid_file_errors", test_scene_solid_file_errors},
	{"scene_errors", test_scene_errors},
	{"scene_file_errors", test_scene_file_errors},
	{"scene_build_world", test_scene_build_world},
	{"scene_solid_build_world", test_scene_solid_build_world},
	{"scene_entries", test_scene_entries},
	{"caches_formats", test_caches_formats},
	{"pc2_writer_bytes", test_pc2_writer_bytes},
	{"gltf_split_seams", test_gltf_split_seams},
	{"caches_run_round_trip", test_caches_run_round_trip},
	{"caches_failures", test_caches_failures},
	{NULL, NULL},
};
