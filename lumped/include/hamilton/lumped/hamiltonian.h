#ifndef hamilton_lumped_hamiltonian_h
#define hamilton_lumped_hamiltonian_h

#include <ginac/ginac.h>

#include <ostream>
#include <string>
#include <vector>

namespace dealii
{
  class ParameterHandler;
}

/**
 * The Hamiltonian side of the lumped library (the Hamiltonian lecture notes):
 *
 * - for a system given by energies (a Lagrangian L(q, q_dot)), the
 *   generalized momenta p = dL/dq_dot, the Hamiltonian H(q, p) = p . q_dot - L
 *   by the Legendre transform (when L is quadratic in the velocities with a
 *   regular mass matrix) and Hamilton's canonical equations, printed by
 *   --print-equations; the momenta as CSV columns p_<coordinate>;
 * - a system given by its Hamiltonian (entry 'Hamiltonian'): for each
 *   coordinate q a momentum coordinate p_q, and the canonical equations of
 *   The Hamiltonian lecture notes' general form
 *
 *     dq/dt = dH/dp - f(q, p, t) - f_d(q, p),
 *     dp/dt = -dH/dq + e(q, p, t) - e_d(q, p),
 *
 *   e the efforts ('Generalized forces'), f the flow sources ('Flow
 *   sources'), e_d = dD/dq_dot at q_dot = dH/dp (the Rayleigh function
 *   'Dissipation') and f_d the dissipative flows ('Dissipative flows').
 *   They are integrated by the lumped DAE machinery as the Lagrange
 *   equations of the phase-space Lagrangian p . q_dot - H: every velocity is
 *   algebraic, the residuals are the two lines above. The energy audit
 *   books H as the stored energy, e . dH/dp - f . dH/dq as supplied and
 *   e_d . dH/dp + f_d . dH/dq as dissipated power;
 * - the canonical transformation (p, q) -> (-q*, p*) of the Hamiltonian lecture notes, which maps the
 *   forcing terms as f* = e, e* = -f, f_d* = -e_d, e_d* = f_d.
 */
namespace hamilton
{
  class Section;
}

namespace hamilton::lumped
{
  class System;
  class Equations;

  /** One canonical pair (q, p) and the non-conservative terms of its equations. */
  struct CanonicalPair
  {
    GiNaC::symbol q, p;
    GiNaC::ex     effort = 0, flow = 0, dissipative_effort = 0, dissipative_flow = 0;
  };

  /** A system given by its Hamiltonian, after and (if transformed) before the canonical transformation. */
  struct HamiltonianForm
  {
    bool given = false; ///< the system is given by 'Hamiltonian'
    GiNaC::ex                  H = 0;
    std::vector<CanonicalPair> pairs;
    /** The indices of q and p of each pair in System::coordinates. */
    std::vector<std::pair<unsigned int, unsigned int>> indices;
    /** 'Canonical transformation': none or exchange; `original` holds H and the pairs before it. */
    std::string                transformation = "none";
    GiNaC::ex                  original_H     = 0;
    std::vector<CanonicalPair> original_pairs;
    /** 'Inverse Legendre transform': print L(q, q_dot) (H must be convex in p). */
    bool inverse_legendre = false;
    /** 'Simulation/Momenta in output': columns p_<coordinate> (Lagrangian systems). */
    bool momenta_in_output = false;
    /** The momentum columns (p_<coordinate>) and their units, for results.json. */
    std::vector<std::pair<std::string, std::string>> momentum_units;
  };

  /** Declare the entries of the Hamiltonian side in subsection "Lumped system" (entered). */
  void
  declare_hamiltonian_parameters(dealii::ParameterHandler &prm);

  /**
   * Read 'Hamiltonian' (with its momenta p_<coordinate>, made coordinates
   * here), 'Flow sources', 'Dissipative flows' and the options; called by
   * System::parse_parameters in subsection "Lumped system" after the
   * components, before the energies and generalized forces.
   */
  void
  parse_hamiltonian(System &system, Section &section);

  /**
   * After the whole subsection is read: for a Hamiltonian system, refuse
   * Lagrangian energies, constraints and initial velocities, form the
   * efforts and dissipative efforts, apply the canonical transformation;
   * for a Lagrangian system, add the momenta as outputs if asked.
   */
  void
  finish_hamiltonian(System &system, Section &section);

  /** The residuals, energy and powers of a Hamiltonian system (Equations' constructor). */
  void
  derive_canonical_equations(Equations &equations);

  /**
   * Print the Hamiltonian side: for a Hamiltonian system its canonical
   * equations (and the transformed ones, and L if asked); for a Lagrangian
   * one the momenta, H by the Legendre transform (checked against the
   * Jacobi integral) and the canonical equations, or why H has no symbolic form.
   */
  void
  print_hamiltonian_side(const Equations &equations, std::ostream &out);
} // namespace hamilton::lumped

#endif
