// The checks of a continuum mesh as it is read (hamilton/continuum/mesh_check.h)
// on meshes built by deal.II's GridGenerator, against deal.II's own cell
// measures: a mirrored mesh, or cells of it, are turned around (every measure
// positive, the material and boundary ids kept), a cell folded over its
// neighbour or tangled is refused with its index and vertices, a node at NaN with its tag, and the size
// warning follows its documented rule.
#include <hamilton/base/input.h>
#include <hamilton/continuum/mesh_check.h>

#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/grid_tools.h>
#include <deal.II/grid/tria.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>

using namespace dealii;
using namespace hamilton;
using namespace hamilton::continuum;

namespace
{
  /**
   * A 4 x 2 (2D) or 2 x 2 x 2 (3D) grid of 1 mm cells, material id 7, the
   * boundary ids of GridGenerator's colorize (0 ... 2 dim - 1).
   */
  template <int dim>
  void
  make_grid(Triangulation<dim> &tria)
  {
    std::vector<unsigned int> cells(dim, 2);
    cells[0] = dim == 2 ? 4 : 2;
    Point<dim> far;
    for (unsigned int d = 0; d < dim; ++d)
      far[d] = 1e-3 * cells[d];
    GridGenerator::subdivided_hyper_rectangle(tria, cells, Point<dim>(), far, true);
    for (const auto &cell : tria.active_cell_iterators())
      cell->set_material_id(7);
  }

  /**
   * The grid rebuilt with the cells of `inverted` (all if empty) listed the
   * other way round (lexicographic vertices 0 <-> 1, 2 <-> 3, ...: a mirror
   * in x of the numbering), as a clockwise or left-handed mesh file has them.
   */
  template <int dim>
  void
  invert(Triangulation<dim> &tria, const std::vector<unsigned int> &inverted = {})
  {
    auto [vertices, cells, subcell_data] = GridTools::get_coarse_mesh_description(tria);
    for (unsigned int c = 0; c < cells.size(); ++c)
      if (inverted.empty() || std::find(inverted.begin(), inverted.end(), c) != inverted.end())
        for (unsigned int v = 0; v < cells[c].vertices.size(); v += 2)
          std::swap(cells[c].vertices[v], cells[c].vertices[v + 1]);
    tria.clear();
    tria.create_triangulation(vertices, cells, subcell_data);
  }

  template <int dim>
  std::map<types::boundary_id, unsigned int>
  boundary_faces(const Triangulation<dim> &tria)
  {
    std::map<types::boundary_id, unsigned int> count;
    for (const auto &cell : tria.active_cell_iterators())
      for (const auto f : cell->face_indices())
        if (cell->face(f)->at_boundary())
          ++count[cell->face(f)->boundary_id()];
    return count;
  }

  std::string
  message_of(const std::function<void()> &f)
  {
    try
      {
        f();
      }
    catch (const InputError &e)
      {
        return e.what();
      }
    return "";
  }

  /** The cells of `inverted` (all if empty) listed the other way round are turned around. */
  template <int dim>
  void
  check_turned_around(const std::vector<unsigned int> &inverted)
  {
    Triangulation<dim> original, mirrored;
    make_grid(original);
    make_grid(mirrored);
    invert(mirrored, inverted);
    // deal.II measures the inverted cells negative: every integral over them would change sign
    unsigned int n_negative = 0;
    for (const auto &cell : mirrored.active_cell_iterators())
      n_negative += cell->measure() < 0;
    ASSERT_EQ(n_negative, inverted.empty() ? original.n_active_cells() : inverted.size());
    EXPECT_EQ(orient_cells(original, "original.msh"), 0u);
    EXPECT_EQ(orient_cells(mirrored, "mirrored.msh"), n_negative);
    ASSERT_EQ(mirrored.n_active_cells(), original.n_active_cells());
    double volume = 0;
    for (const auto &cell : mirrored.active_cell_iterators())
      {
        EXPECT_GT(cell->measure(), 0);
        EXPECT_EQ(cell->material_id(), 7);
        volume += cell->measure();
      }
    EXPECT_NEAR(volume, GridTools::volume(original), 1e-15 * GridTools::volume(original));
    EXPECT_EQ(boundary_faces(mirrored), boundary_faces(original));
    EXPECT_EQ(boundary_faces(mirrored).size(), 2 * dim);
  }
} // namespace

TEST(MeshCheck, MirroredMeshIsTurnedAround2D)
{
  check_turned_around<2>({});
}

TEST(MeshCheck, MirroredMeshIsTurnedAround3D)
{
  check_turned_around<3>({});
}

TEST(MeshCheck, CellsListedReversedAreTurnedAround)
{
  check_turned_around<2>({5});
  check_turned_around<2>({0, 3, 4});
  check_turned_around<3>({2});
}

TEST(MeshCheck, FoldedCellIsNamed)
{
  // three cells in a row, the nodes at x = 1 mm and 2 mm swapped: the middle
  // cell (listed the other way round) lies over the first one, which now
  // spans 0 ... 2 mm; every cell convex
  Triangulation<2> tria;
  GridGenerator::subdivided_hyper_rectangle(tria, {3, 1}, Point<2>(), Point<2>(3e-3, 1e-3));
  GridTools::transform(
    [](const Point<2> &p) {
      const double x = std::abs(p[0] - 1e-3) < 1e-9 ? 2e-3 : std::abs(p[0] - 2e-3) < 1e-9 ? 1e-3 : p[0];
      return Point<2>(x, p[1]);
    },
    tria);
  const std::string message = message_of([&] { orient_cells(tria, "folded.msh"); });
  EXPECT_NE(message.find("'Mesh' = 'folded.msh': cell 1 (number 2 among the file's quadrilaterals) with vertices "
                         "(0.002, 0), (0.001, 0), (0.002, 0.001), (0.001, 0.001) is inverted: it lies on the same "
                         "side of the edge it shares with cell 0 (number 1 among the file's quadrilaterals) with "
                         "vertices (0, 0), (0.002, 0), (0, 0.001), (0.002, 0.001) as that cell does, so the two "
                         "overlap"),
            std::string::npos)
    << message;
}

TEST(MeshCheck, TangledCellIsNamed)
{
  Triangulation<3> tria;
  make_grid(tria);
  // the far corner of cell 0 pulled back behind its near corner: a folded hexahedron
  for (const auto &cell : tria.active_cell_iterators())
    if (cell->index() == 0)
      cell->vertex(7) = Point<3>(-0.5e-3, -0.5e-3, -0.5e-3);
  const std::string message = message_of([&] { orient_cells(tria, "tangled.msh"); });
  EXPECT_NE(message.find("cell 0 (number 1 among the file's hexahedra) with vertices (0, 0, 0)"), std::string::npos)
    << message;
  EXPECT_NE(message.find("is folded, tangled or degenerate: the Jacobian of its map changes sign between its corners"),
            std::string::npos)
    << message;
}

TEST(MeshCheck, NodeNotFiniteIsNamed)
{
  const std::vector<std::size_t> tags        = {4, 9};
  const std::vector<double>      coordinates = {0, 0, 0, 1e-3, std::numeric_limits<double>::quiet_NaN(), 0};
  const std::string message = message_of([&] { check_node_coordinates(tags, coordinates, "nan.msh"); });
  EXPECT_NE(message.find("'Mesh' = 'nan.msh': node 9 (its tag in the file's $Nodes) is at (0.001, nan, 0)"),
            std::string::npos)
    << message;
  EXPECT_EQ(message_of([&] { check_node_coordinates({4}, {0, 1, 2}, "finite.msh"); }), "");
}

TEST(MeshCheck, SizeWarningRule)
{
  // 4 mm x 2 mm: no warning; scaled by 1000 (a mesh in mm): the piezoelectric region spans 4 m
  Triangulation<2> tria;
  make_grid(tria);
  EXPECT_EQ(size_warning(tria, {7}, "m.msh"), "");
  GridTools::scale(1000., tria);
  const std::string warning = size_warning(tria, {7}, "mm.msh");
  EXPECT_NE(warning.find("the piezoelectric regions of 'Continuum/Mesh' = 'mm.msh' span 4 m"), std::string::npos)
    << warning;
  // without a piezoelectric region the limit is 10 m: 4 m of steel is plausible, 40 m is not
  EXPECT_EQ(size_warning(tria, {}, "mm.msh"), "");
  GridTools::scale(10., tria);
  EXPECT_NE(size_warning(tria, {}, "mm.msh").find("the body of 'Continuum/Mesh' = 'mm.msh' spans 40 m"),
            std::string::npos);
}
