#ifndef hamilton_lumped_statics_h
#define hamilton_lumped_statics_h

#include <hamilton/lumped/equations.h>

#include <nlohmann/json.hpp>

#include <complex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace hamilton::lumped
{
  /**
   * The static equilibrium of a lumped system (the principle of virtual
   * work, Preumont 2006 section 1.4): at rest (v = 0) and at the inputs of time T,
   *
   *   G(q, lambda) = d(V + W_e)/dq - F(q, T) + Phi_q^T lambda = 0,   Phi(q, T) = 0,
   *
   * the equations of motion without their velocity and acceleration terms,
   * solved by Newton's method with the symbolic Jacobian from a guess (the
   * multipliers from their least-squares estimate at the guessed q), with
   * the multipliers (the constraints' reactions) and the eigenvalues of the
   * tangent stiffness dG/dq projected onto the constraints' tangent space
   * Z^T (dG/dq) Z (Z an orthonormal basis of the null space of Phi_q): all
   * positive, the equilibrium is stable.
   */
  class Statics
  {
  public:
    /** Declare subsection "Lumped system/Statics" (the handler at the top level). */
    static void
    declare_parameters(dealii::ParameterHandler &prm);

    /** Read subsection "Lumped system/Statics" (the section at the top level). */
    void
    parse_parameters(Section &section, const System &system);

    /** Whether an equilibrium is asked for. */
    bool
    enabled() const
    {
      return analysis != "none";
    }

    /** Whether the simulation runs too. */
    bool
    simulate() const
    {
      return analysis != "equilibrium";
    }

    /** The result of solve(). */
    struct Result
    {
      std::vector<double>               q, lambda;
      unsigned int                      iterations = 0;
      double                            residual   = 0; ///< |G, Phi| (2-norm) at the solution
      std::vector<std::complex<double>> stiffness_eigenvalues; ///< sorted by real part
      bool                              symmetric = true, stable = false;
    };

    /**
     * Newton's method from the guess; throws InputError naming
     * 'Lumped system/Statics' with the residual and the last iterate if it
     * does not converge.
     */
    Result
    solve(const Equations &equations) const;

    /**
     * The equilibrium as a run reports it: the terminal table (print()) and
     * results.json's 'lumped/statics' (to_json()).
     */
    struct Equilibrium
    {
      double                   time_s = 0; ///< the inputs' time
      Result                   result;
      std::vector<std::string> coordinates, multipliers; ///< names, in the order of result.q and result.lambda

      void
      print(std::ostream &out) const;

      nlohmann::json
      to_json() const;
    };

    /** The equilibrium `result` of `equations`, to report. */
    Equilibrium
    equilibrium(const Result &result, const Equations &equations) const;

    std::string                          analysis = "none";
    double                               time     = 0;     ///< s, the inputs' time
    double                               tolerance = 1e-12; ///< relative Newton step
    unsigned int                         max_iterations = 50;
    std::vector<std::optional<double>>   guess; ///< per coordinate
    /** The equilibrium, once check_initial_state() or run() has solved for it. */
    std::optional<Result>                result;
  };
} // namespace hamilton::lumped

#endif
