#ifndef hamilton_elements_c1_beam_element_h
#define hamilton_elements_c1_beam_element_h

#include <deal.II/base/polynomial.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <array>
#include <functional>
#include <vector>

namespace hamilton
{
  /**
   * C1-conforming beam element of degree p >= 3 on [x0, x0 + h]: the Hermite
   * cubic plus p - 3 hierarchical bubbles. Bubble j (j = 2 .. p-2) is the
   * second primitive of the orthonormal Legendre polynomial of degree j on
   * [0, 1]; it vanishes with its slope at both ends, its curvature is
   * orthogonal to every other curvature of the element, so the stiffness
   * matrix of a uniform element is block diagonal and well conditioned.
   *
   * Local unknowns, size p + 1: w at the left node, the scaled slope s0 w' at
   * the left node, w and s1 w' at the right node, then the bubble amplitudes
   * (m). The slope scales s0, s1 (m) are chosen per node by the
   * discretization so that all unknowns have the unit and size of a
   * displacement.
   *
   * The element supplies local operators and shape values; it never assembles.
   */
  class C1BeamElement
  {
  public:
    explicit C1BeamElement(unsigned int degree);

    unsigned int
    degree() const
    {
      return p;
    }

    /** Number of local unknowns, p + 1. */
    unsigned int
    n_dofs() const
    {
      return p + 1;
    }

    /**
     * Values of the shape functions and their first and second x-derivatives
     * at reference coordinate xi in [0, 1], for an element of length h and
     * node slope scales s0, s1. Each output has size n_dofs().
     */
    void
    shape(double               xi,
          double               h,
          double               s0,
          double               s1,
          dealii::Vector<double> &value,
          dealii::Vector<double> &first,
          dealii::Vector<double> &second) const;

    /** Local operators of one element; all matrices n_dofs() x n_dofs(). */
    struct LocalOperators
    {
      dealii::FullMatrix<double> mass;      ///< int rhoA N_i N_j dx (kg)
      dealii::FullMatrix<double> stiffness; ///< int EI N_i'' N_j'' dx (N/m)
      dealii::FullMatrix<double> geometric; ///< int N0 N_i' N_j' dx (N/m)
      dealii::Vector<double>     load;      ///< int q N_i dx (N)
      dealii::Vector<double>     curvature; ///< int N_i'' dx (1/m; rotation)
    };

    /**
     * Compute the local operators for constant EI (N m^2) and rhoA (kg/m) and
     * x-dependent axial force N0(x) (N) and load q(x) (N/m); an empty
     * function stands for zero.
     */
    void
    local_operators(double                               x0,
                    double                               h,
                    double                               s0,
                    double                               s1,
                    double                               EI,
                    double                               rhoA,
                    const std::function<double(double)> &axial_force,
                    const std::function<double(double)> &load,
                    LocalOperators                      &out) const;

  private:
    unsigned int                                 p;
    std::vector<dealii::Polynomials::Polynomial<double>> bubbles;
    dealii::QGauss<1>                            quadrature;
    /** Reference values, derivatives at each quadrature point (cached). */
    std::vector<std::array<std::vector<double>, 3>> reference;

    void
    reference_shape(double xi, std::array<std::vector<double>, 3> &out) const;
  };
} // namespace hamilton

#endif
