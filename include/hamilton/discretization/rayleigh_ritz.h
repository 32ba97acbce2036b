#ifndef hamilton_discretization_rayleigh_ritz_h
#define hamilton_discretization_rayleigh_ritz_h

#include <hamilton/discretization/discretization.h>

#include <array>
#include <functional>

namespace hamilton
{
  /**
   * Rayleigh-Ritz (assumed modes): n global trial functions on [0, L] that
   * satisfy the geometric conditions of the supports. Families:
   * - "polynomials": orthonormal Legendre polynomials in x/L, combined to
   *   satisfy the conditions (null space of the constraint rows);
   * - "sine series": 1, x, x^2, x^3 and sin(k pi x/L), combined likewise;
   * - "beam eigenfunctions": the exact modes of a uniform beam with the same
   *   end conditions (rigid-body modes included), in the numerically stable
   *   form A cos bx + B sin bx + C e^(-bx) + D e^(-b(L-x)).
   * The operators are integrated by Gauss quadrature between key points
   * (segment ends, electrodes, supports, masses, loads). Reactions are not
   * computed (they need the constrained unknowns that Ritz removes).
   */
  class RayleighRitz : public Discretization
  {
  public:
    static void
    declare_parameters(dealii::ParameterHandler &prm);
    void
    parse_parameters(Section &section) override;

    /** Set directly (tests): family name and number of functions. */
    void
    set(const std::string &family, unsigned int n_functions);

    void
    setup(const BeamModel &model) override;
    unsigned int
    n_dofs() const override
    {
      return n;
    }
    std::unique_ptr<Operators>
    assemble() const override;
    void
    evaluate(const dealii::Vector<double> &u,
             double                        x,
             double                       &w,
             double                       &slope,
             double                       &curvature) const override;
    std::vector<double>
    sample_points(unsigned int per_element) const override;
    void
    assemble_geometric_stiffness(const std::function<double(double)> &axial_force,
                                 dealii::SparseMatrix<double>        &matrix) const override;
    std::string
    description() const override;

  private:
    std::string      family = "polynomials";
    unsigned int     n      = 10;
    const BeamModel *model  = nullptr;

    /** Value, first and second derivative of every trial function at x. */
    using Values = std::array<std::vector<double>, 3>;
    std::function<void(double, Values &)> functions;

    /** Call f(x, JxW, segment midpoint) at every quadrature point. */
    void
    for_each_quadrature_point(const std::function<void(double, double, double)> &f) const;
  };
} // namespace hamilton

#endif
