// Constrained Delaunay triangulation of a panel (docs/garments.md): CGAL's
// Constrained_Delaunay_triangulation_2 over the outline (constraints) and the grid points, then the
// faces inside the outline by nesting level (CGAL's polygon_triangulation example).
#include "cdt.h"

#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <cstdlib>
#include <list>
#include <vector>

namespace {

struct face_info {
	int nesting = -1;
	bool inside() const { return nesting % 2 == 1; }
};

typedef CGAL::Exact_predicates_inexact_constructions_kernel K;
typedef CGAL::Triangulation_vertex_base_with_info_2<int32_t, K> Vb;
typedef CGAL::Triangulation_face_base_with_info_2<face_info, K> Fbi;
typedef CGAL::Constrained_triangulation_face_base_2<K, Fbi> Fb;
typedef CGAL::Triangulation_data_structure_2<Vb, Fb> Tds;
typedef CGAL::Exact_predicates_tag Itag;
typedef CGAL::Constrained_Delaunay_triangulation_2<K, Tds, Itag> CDT;

void mark(CDT& cdt, CDT::Face_handle start, int level, std::list<CDT::Edge>& border)
{
	if (start->info().nesting != -1) return;
	std::list<CDT::Face_handle> queue;
	queue.push_back(start);
	while (!queue.empty()) {
		CDT::Face_handle fh = queue.front();
		queue.pop_front();
		if (fh->info().nesting != -1) continue;
		fh->info().nesting = level;
		for (int i = 0; i < 3; ++i) {
			CDT::Edge e(fh, i);
			CDT::Face_handle n = fh->neighbor(i);
			if (n->info().nesting == -1) {
				if (cdt.is_constrained(e)) border.push_back(e);
				else queue.push_back(n);
			}
		}
	}
}

void mark_domains(CDT& cdt)
{
	std::list<CDT::Edge> border;
	mark(cdt, cdt.infinite_face(), 0, border);
	while (!border.empty()) {
		CDT::Edge e = border.front();
		border.pop_front();
		CDT::Face_handle n = e.first->neighbor(e.second);
		if (n->info().nesting == -1) mark(cdt, n, e.first->info().nesting + 1, border);
	}
}

} // namespace

extern "C" bool cdt_triangulate(const double* points, int32_t boundary_count, int32_t interior_count,
				int32_t** triangles, int32_t* triangle_count, bool* out_of_memory)
{
	*triangles = nullptr;
	*triangle_count = 0;
	*out_of_memory = false;
	try {
		CDT cdt;
		const int32_t n = boundary_count + interior_count;
		std::vector<CDT::Vertex_handle> vh((size_t)n);
		for (int32_t i = 0; i < n; ++i) {
			vh[(size_t)i] = cdt.insert(CDT::Point(points[2 * i], points[2 * i + 1]));
			if ((int32_t)cdt.number_of_vertices() != i + 1) return false; /* merged with an earlier point */
			vh[(size_t)i]->info() = i + 1;
		}
		if ((int32_t)cdt.number_of_vertices() != n) return false;
		for (int32_t i = 0; i < boundary_count; ++i)
			cdt.insert_constraint(vh[(size_t)i], vh[(size_t)((i + 1) % boundary_count)]);
		if ((int32_t)cdt.number_of_vertices() != n) return false; /* constraints crossed */
		mark_domains(cdt);
		std::vector<int32_t> out;
		for (CDT::Finite_faces_iterator f = cdt.finite_faces_begin(); f != cdt.finite_faces_end(); ++f) {
			if (!f->info().inside()) continue;
			for (int k = 0; k < 3; ++k) out.push_back(f->vertex(k)->info() - 1);
		}
		int32_t* t = (int32_t*)std::malloc((out.empty() ? 1 : out.size()) * sizeof(int32_t));
		if (!t) {
			*out_of_memory = true;
			return false;
		}
		for (size_t i = 0; i < out.size(); ++i) t[i] = out[i];
		*triangles = t;
		*triangle_count = (int32_t)(out.size() / 3);
		return true;
	} catch (const std::bad_alloc&) {
		*out_of_memory = true;
		return false;
	} catch (...) {
		return false;
	}
}
