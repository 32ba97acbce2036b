// Checks of a continuum mesh as it is read, before anything is built on it
// (see mesh_check.cc): finite node coordinates; convex cells that do not
// overlap, those listed the other way round (a mirrored mesh) turned around;
// the size of the body (a mesh drawn in millimetres).

#ifndef hamilton_continuum_mesh_check_h
#define hamilton_continuum_mesh_check_h

#include <deal.II/grid/tria.h>

#include <cstddef>
#include <string>
#include <vector>

namespace hamilton::continuum
{
  /**
   * Throw an InputError naming 'Continuum/Mesh' = `mesh_file`, the node (its
   * Gmsh tag) and its coordinates if a coordinate of a node is not a finite
   * number. `tags` (n) and `coordinates` (3 n, x y z per node) are as
   * gmsh::model::mesh::getNodes returns them.
   */
  void
  check_node_coordinates(const std::vector<std::size_t> &tags,
                         const std::vector<double>      &coordinates,
                         const std::string              &mesh_file);

  /**
   * Check the cells of `coarse` and turn around those listed the other way
   * round; return how many were (0: none). Each cell's orientation is the
   * sign of the Jacobian determinant of its (bi-/tri-)linear map at its
   * 2^dim corners, scaled by the lengths of the corner's edges (the sine of
   * the corner's angle in 2D, free of the aspect ratio):
   * - a cell whose corners differ in sign, or whose scaled determinant is
   *   below 1e-8 at a corner (folded, tangled or degenerate), and
   * - two cells that lie on the same side of the face they share (one
   *   folded over the other, whichever way each lists its nodes)
   *   end with an InputError naming 'Continuum/Mesh' = `mesh_file`, the cell
   *   (its index in the order of the file's cells) and its vertices;
   * - cells negative at every corner (clockwise in 2D, left-handed in 3D: a
   *   mirrored mesh or a mirrored part of one, from a mirrored .geo, a
   *   clockwise 'Curve Loop' or a Symmetry{} copy) are inverted and the mesh
   *   consistently reordered (GridTools::invert_cells_with_negative_measure,
   *   consistently_order_cells), `coarse` rebuilt with its material and
   *   boundary ids. Unchanged, such cells have negative Jacobians: every
   *   integral over them changes sign, and the solution with it.
   */
  template <int dim>
  std::size_t
  orient_cells(dealii::Triangulation<dim> &coarse, const std::string &mesh_file);

  /**
   * The plausibility of the mesh's size: a warning (empty if none) if the
   * bounding box of the piezoelectric cells has a side longer than 0.5 m (no
   * piezoelectric ceramic or crystal is made that large), or that of all
   * cells a side longer than 10 m. A mesh drawn in millimetres gives such
   * sizes, and frequencies 1000 times too low. `piezoelectric` holds the
   * material ids of the piezoelectric regions.
   */
  template <int dim>
  std::string
  size_warning(const dealii::Triangulation<dim>                &coarse,
               const std::vector<dealii::types::material_id> &piezoelectric,
               const std::string                             &mesh_file);
} // namespace hamilton::continuum

#endif
