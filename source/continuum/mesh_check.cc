// Checks of a continuum's mesh as it is read (see mesh_check.h).

#include <hamilton/continuum/mesh_check.h>

#include <hamilton/base/format.h>
#include <hamilton/base/input.h>

#include <deal.II/grid/grid_tools.h>
#include <deal.II/grid/tria_accessor.h>
#include <deal.II/grid/tria_iterator.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace hamilton::continuum
{
  using namespace dealii;

  namespace
  {
    [[noreturn]] void
    mesh_error(const std::string &mesh_file, const std::string &what)
    {
      input_error("Continuum", "Mesh", "'" + mesh_file + "'", what);
    }

    template <int spacedim>
    std::string
    point_text(const Point<spacedim> &p)
    {
      std::string text = "(";
      for (unsigned int d = 0; d < spacedim; ++d)
        text += (d == 0 ? "" : ", ") + format_significant(p[d], 8);
      return text + ")";
    }

    /** "cell k (the (k+1)-th quadrilateral of the file) with vertices (...), ..." */
    template <int dim>
    std::string
    cell_text(const typename Triangulation<dim>::active_cell_iterator &cell)
    {
      std::string text = "cell " + std::to_string(cell->index()) + " (number " + std::to_string(cell->index() + 1) +
                         " among the file's " + (dim == 2 ? "quadrilaterals" : "hexahedra") + ") with vertices ";
      for (const unsigned int v : cell->vertex_indices())
        text += (v == 0 ? "" : ", ") + point_text(cell->vertex(v));
      return text;
    }

    /**
     * The smallest and largest Jacobian determinant of the cell's linear map
     * over its corners, each divided by the product of the lengths of the
     * corner's edges: in [-1, 1], 1 for a right angle (rectangle, brick).
     * Vertices in deal.II's lexicographic order: bit d of a vertex's index is
     * its unit-cell coordinate d.
     */
    template <int dim>
    std::pair<double, double>
    scaled_corner_jacobians(const typename Triangulation<dim>::active_cell_iterator &cell)
    {
      double smallest = std::numeric_limits<double>::max(), largest = -smallest;
      for (unsigned int c = 0; c < GeometryInfo<dim>::vertices_per_cell; ++c)
        {
          Tensor<2, dim> J;
          double         lengths = 1;
          for (unsigned int d = 0; d < dim; ++d)
            {
              const unsigned int   other = c ^ (1u << d);
              const Tensor<1, dim> edge  = ((c >> d) & 1u ? -1. : 1.) * (cell->vertex(other) - cell->vertex(c));
              for (unsigned int i = 0; i < dim; ++i)
                J[i][d] = edge[i];
              lengths *= edge.norm();
            }
          const double scaled = lengths > 0 ? determinant(J) / lengths : 0.;
          smallest            = std::min(smallest, scaled);
          largest             = std::max(largest, scaled);
        }
      return {smallest, largest};
    }
  } // namespace

  void
  check_node_coordinates(const std::vector<std::size_t> &tags,
                         const std::vector<double>      &coordinates,
                         const std::string              &mesh_file)
  {
    for (std::size_t k = 0; k < tags.size() && 3 * k + 2 < coordinates.size(); ++k)
      if (!std::isfinite(coordinates[3 * k]) || !std::isfinite(coordinates[3 * k + 1]) ||
          !std::isfinite(coordinates[3 * k + 2]))
        mesh_error(mesh_file, "node " + std::to_string(tags[k]) + " (its tag in the file's $Nodes) is at (" +
                                format_significant(coordinates[3 * k], 8) + ", " +
                                format_significant(coordinates[3 * k + 1], 8) + ", " +
                                format_significant(coordinates[3 * k + 2], 8) +
                                "): every coordinate must be a finite number (m). Correct the node, or "
                                "regenerate the mesh from its .geo file (e.g. 'gmsh -2 device.geo -o device.msh').");
  }

  template <int dim>
  std::size_t
  orient_cells(Triangulation<dim> &coarse, const std::string &mesh_file)
  {
    // below this, a corner's angle (its sine) counts as folded or degenerate
    const double      degenerate = 1e-8;
    const std::string regenerate =
      " Cells must be convex and must not overlap: regenerate the mesh from its .geo file (e.g. 'gmsh -" +
      std::to_string(dim) + " device.geo -o device.msh'), or correct the nodes of this cell.";
    const auto cell_of = [&](const unsigned int index) {
      return typename Triangulation<dim>::active_cell_iterator(&coarse, 0, index);
    };

    // each cell: convex (one sign at every corner) and which way round
    std::vector<int> sign(coarse.n_active_cells());
    for (const auto &cell : coarse.active_cell_iterators())
      {
        const auto [smallest, largest] = scaled_corner_jacobians<dim>(cell);
        if (smallest > degenerate || largest < -degenerate)
          sign[cell->index()] = smallest > degenerate ? 1 : -1;
        else
          mesh_error(mesh_file, cell_text<dim>(cell) + " is folded, tangled or degenerate: the Jacobian of its map " +
                                  (smallest * largest < 0 ? "changes sign between its corners" :
                                                            "vanishes at a corner (two edges in line)") +
                                  " (scaled corner determinants from " + format_significant(smallest, 3) + " to " +
                                  format_significant(largest, 3) + ")." + regenerate);
      }

    // two cells that share a face lie on opposite sides of it, whichever way
    // each lists its nodes; on the same side, one is folded over the other
    std::map<std::vector<unsigned int>, std::pair<unsigned int, unsigned int>> first_of_face; // -> cell, face
    for (const auto &cell : coarse.active_cell_iterators())
      {
        Point<dim> centre;
        for (const unsigned int v : cell->vertex_indices())
          centre += cell->vertex(v) / double(cell->n_vertices());
        for (unsigned int f = 0; f < 2 * dim; ++f)
          {
            // the face's vertices, lexicographic within the face
            std::vector<unsigned int> local, global;
            for (const unsigned int v : cell->vertex_indices())
              if (((v >> (f / 2)) & 1u) == f % 2)
                local.push_back(v);
            for (const unsigned int v : local)
              global.push_back(cell->vertex_index(v));
            std::sort(global.begin(), global.end());
            const auto [found, first] = first_of_face.emplace(global, std::make_pair(cell->index(), f));
            if (first)
              continue;
            // the face's normal and centre from the first cell's numbering, both cells' sides
            const auto        other = cell_of(found->second.first);
            std::vector<Point<dim>> x;
            for (unsigned int v = 0; v < GeometryInfo<dim>::vertices_per_cell; ++v)
              if (((v >> (found->second.second / 2)) & 1u) == found->second.second % 2)
                x.push_back(other->vertex(v));
            Tensor<1, dim> normal;
            Point<dim>     face_centre;
            for (const auto &p : x)
              face_centre += p / double(x.size());
            if constexpr (dim == 2)
              {
                normal[0] = x[0][1] - x[1][1];
                normal[1] = x[1][0] - x[0][0];
              }
            else
              normal = cross_product_3d(x[3] - x[0], x[2] - x[1]);
            Point<dim> other_centre;
            for (const unsigned int v : other->vertex_indices())
              other_centre += other->vertex(v) / double(other->n_vertices());
            if (((centre - face_centre) * normal) * ((other_centre - face_centre) * normal) < 0)
              continue;
            // name the inverted one of the two (the one listed the other way round)
            const bool this_one = sign[cell->index()] < 0 || sign[other->index()] > 0;
            const auto folded   = this_one ? cell : other;
            const auto neighbour = this_one ? other : cell;
            mesh_error(mesh_file, cell_text<dim>(folded) + " is inverted: it lies on the same side of the " +
                                    (dim == 2 ? "edge" : "face") + " it shares with " +
                                    cell_text<dim>(neighbour) + " as that cell does, so the two overlap (a cell "
                                    "folded over its neighbour)." + regenerate);
          }
      }

    // cells listed the other way round (a mirrored mesh, or a part of it):
    // turned around, the material and boundary ids kept
    const auto n_reversed = std::count(sign.begin(), sign.end(), -1);
    if (n_reversed == 0)
      return 0;
    auto [vertices, cells, subcell_data] = GridTools::get_coarse_mesh_description(coarse);
    GridTools::invert_cells_with_negative_measure(vertices, cells);
    GridTools::consistently_order_cells(cells);
    coarse.clear();
    coarse.create_triangulation(vertices, cells, subcell_data);
    for (const auto &cell : coarse.active_cell_iterators())
      AssertThrow(scaled_corner_jacobians<dim>(cell).first > degenerate, ExcInternalError());
    return n_reversed;
  }

  template <int dim>
  std::string
  size_warning(const Triangulation<dim>          &coarse,
               const std::vector<types::material_id> &piezoelectric,
               const std::string                 &mesh_file)
  {
    const double largest_piezoelectric = 0.5, largest_body = 10;
    Point<dim>   low_all, high_all, low_piezo, high_piezo;
    bool         any = false, any_piezo = false;
    for (const auto &cell : coarse.active_cell_iterators())
      {
        const bool piezo =
          std::find(piezoelectric.begin(), piezoelectric.end(), cell->material_id()) != piezoelectric.end();
        for (const unsigned int v : cell->vertex_indices())
          {
            const Point<dim> &x = cell->vertex(v);
            for (unsigned int d = 0; d < dim; ++d)
              {
                low_all[d]  = any ? std::min(low_all[d], x[d]) : x[d];
                high_all[d] = any ? std::max(high_all[d], x[d]) : x[d];
                if (piezo)
                  {
                    low_piezo[d]  = any_piezo ? std::min(low_piezo[d], x[d]) : x[d];
                    high_piezo[d] = any_piezo ? std::max(high_piezo[d], x[d]) : x[d];
                  }
              }
            any       = true;
            any_piezo = any_piezo || piezo;
          }
      }
    const auto longest = [](const Point<dim> &low, const Point<dim> &high) {
      double side = 0;
      for (unsigned int d = 0; d < dim; ++d)
        side = std::max(side, high[d] - low[d]);
      return side;
    };
    const std::string hint =
      ": a mesh drawn in millimetres looks like this, and gives frequencies 1000 times too low. Hamilton reads "
      "the mesh in metres: if it is in mm, scale it (add 'Mesh.ScalingFactor = 0.001;' to the .geo file and mesh "
      "again).";
    if (any_piezo && longest(low_piezo, high_piezo) > largest_piezoelectric)
      return "the piezoelectric regions of 'Continuum/Mesh' = '" + mesh_file + "' span " +
             format_significant(longest(low_piezo, high_piezo), 4) + " m (their bounding box " + point_text(low_piezo) +
             " to " + point_text(high_piezo) + " m), more than the " + format_significant(largest_piezoelectric, 2) +
             " m of the largest piezoelectric ceramics and crystals made" + hint;
    if (longest(low_all, high_all) > largest_body)
      return "the body of 'Continuum/Mesh' = '" + mesh_file + "' spans " +
             format_significant(longest(low_all, high_all), 4) + " m (its bounding box " + point_text(low_all) +
             " to " + point_text(high_all) + " m), more than " + format_significant(largest_body, 2) + " m" + hint;
    return "";
  }

  template std::size_t
  orient_cells(Triangulation<2> &, const std::string &);
  template std::size_t
  orient_cells(Triangulation<3> &, const std::string &);
  template std::string
  size_warning(const Triangulation<2> &, const std::vector<types::material_id> &, const std::string &);
  template std::string
  size_warning(const Triangulation<3> &, const std::vector<types::material_id> &, const std::string &);
} // namespace hamilton::continuum
