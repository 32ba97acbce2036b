// Checks of a continuum mesh as it is read, before anything
// is built on it (see mesh_check.cc): finite node coordinates, cells that all
// have the orientation deal.II needs (a mirrored mesh is turned around), and
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

  /** What orient_cells() found. */
  enum class MeshOrientation
  {
    positive, ///< every cell as deal.II numbers it (counter-clockwise in 2D, right-handed in 3D)
    reversed  ///< every cell the other way (a mirrored mesh): turned around
  };

  /**
   * Check the orientation of every cell of `coarse` by the sign of the
   * Jacobian determinant of its (bi-/tri-)linear map at each of its 2^dim
   * corners, scaled by the lengths of the corner's edges (the sine of the
   * corner's angle in 2D, aspect-ratio free):
   * - all cells positive at all corners: nothing to do;
   * - all cells negative at all corners (a mesh written clockwise, e.g. from
   *   a mirrored .geo or a clockwise 'Curve Loop'): the cells are inverted
   *   and consistently reordered (GridTools::invert_all_negative_measure_cells,
   *   consistently_order_cells), `coarse` is rebuilt with its material and
   *   boundary ids, and `reversed` returned. Unchanged, such cells have
   *   negative Jacobians: every integral changes sign and the solution with it;
   * - a cell whose corners differ in sign or whose scaled determinant is
   *   below 1e-8 at a corner (folded, tangled or degenerate), or a cell whose
   *   orientation is opposite to the others' (inverted among its neighbours):
   *   an InputError naming 'Continuum/Mesh' = `mesh_file`, the cell (its
   *   index in the order of the file's cells) and its vertices.
   */
  template <int dim>
  MeshOrientation
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
