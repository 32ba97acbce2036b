#ifndef hamilton_continuum_material_h
#define hamilton_continuum_material_h

#include <hamilton/base/input.h>

#include <deal.II/base/tensor.h>

#include <Eigen/Dense>

#include <string>
#include <vector>

namespace hamilton::continuum
{
  /**
   * How a two-dimensional mesh (in the x-y plane) represents a body: plane
   * stress (sigma_zz = sigma_yz = sigma_xz = 0, E_z = 0, for thin bodies of
   * the given thickness), plane strain (eps_zz = gamma_yz = gamma_xz = 0,
   * E_z = 0), axisymmetric (the mesh is the half plane r = x >= 0 of a solid
   * of revolution about the y axis; z is the hoop direction theta: eps_zz =
   * u_x/x, gamma_yz = gamma_xz = 0, E_z = 0), or a three-dimensional mesh.
   */
  enum class Formulation
  {
    plane_stress,
    plane_strain,
    axisymmetric,
    three_dimensional
  };

  /** Strains of a formulation: 3 in plane stress/strain, 4 axisymmetric, 6 in 3D. */
  inline unsigned int
  n_strains(const Formulation formulation)
  {
    return formulation == Formulation::three_dimensional ? 6 : formulation == Formulation::axisymmetric ? 4 : 3;
  }

  /**
   * A linear (piezo)electroelastic material in stress-charge form,
   *   sigma = c^E eps - e^T E,   D = e eps + eps^S E,
   * in IEEE Voigt order (xx, yy, zz, yz, xz, xy) with engineering shear
   * strains, SI units: c^E (Pa, 6 x 6), e (C/m^2, 3 x 6), eps^S (F/m, 3 x 3).
   * An elastic material has e = 0 and carries no potential.
   */
  struct Material
  {
    std::string              name;
    bool                     piezoelectric = false;
    double                   density       = 0; ///< kg/m^3
    Eigen::Matrix<double, 6, 6> c   = Eigen::Matrix<double, 6, 6>::Zero();
    Eigen::Matrix<double, 3, 6> e   = Eigen::Matrix<double, 3, 6>::Zero();
    Eigen::Matrix3d             eps = Eigen::Matrix3d::Zero();

    /** Declare the entries of one material (inside its subsection). */
    static void
    declare_parameters(dealii::ParameterHandler &prm);

    /**
     * Read one material (the section is inside its subsection). Strain-charge
     * data (s^E, d, eps^T) are converted here, once: c^E = (s^E)^-1,
     * e = d c^E, eps^S = eps^T - d c^E d^T. Throws InputError naming the
     * entry when a set is singular or not positive definite.
     */
    static Material
    parse(Section &section, const std::string &name);

    /**
     * The same material with its axes turned so that material axis 3 points
     * along the unit vector `poling` of the mesh's axes (axes 1 and 2 complete
     * a right-handed frame, 1 from the mesh axis least aligned with `poling`,
     * the first such axis in x, y, z order).
     */
    Material
    rotated(const dealii::Tensor<1, 3> &poling) const;

    /**
     * The symmetric matrix H of the electric enthalpy in the variables
     * (strain, grad phi) of the formulation, so that the element stiffness is
     * the integral of B^T H B: 9 x 9 in 3D (6 strains, 3 gradients), 5 x 5 in
     * 2D (eps_xx, eps_yy, gamma_xy, phi_x, phi_y), with the plane-stress
     * reduction computed here (static condensation of the out-of-plane
     * stresses), 6 x 6 axisymmetric (eps_rr, eps_yy, gamma_ry, eps_theta,
     * phi_r, phi_y). The potential block is negative definite.
     */
    Eigen::MatrixXd
    enthalpy_matrix(Formulation formulation) const;
  };

  /**
   * The numbers of a comma-separated entry, each checked by parse_number;
   * a text that is not a number ends with an InputError naming the entry.
   * The caller checks how many there are.
   */
  std::vector<double>
  parse_numbers(const Section &section, const std::string &entry);

  /**
   * Read a poling direction: "+x", "-x", "+y", "-y", "+z", "-z" or three
   * numbers "a, b, c" (normalized); throws InputError naming the entry.
   */
  dealii::Tensor<1, 3>
  parse_direction(const Section &section, const std::string &entry);
} // namespace hamilton::continuum

#endif
