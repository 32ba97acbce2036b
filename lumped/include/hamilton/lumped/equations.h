#ifndef hamilton_lumped_equations_h
#define hamilton_lumped_equations_h

#include <hamilton/lumped/system.h>

#include <ostream>

namespace hamilton::lumped
{
  /** Whether e is zero: expanded, or after GiNaC::normal for rational expressions. */
  inline bool
  vanishes(const GiNaC::ex &e)
  {
    return e.expand().is_zero() || GiNaC::normal(e).is_zero();
  }

  /**
   * Lagrange's equations of a System, derived symbolically (GiNaC), with the
   * parameters kept as symbols (the simplified model's neglected parameters
   * set to zero). With q, v = q_dot, a = v_dot and multipliers lambda:
   *
   *   R_i = sum_j M_ij a_j + sum_j (dp_i/dq_j) v_j - dL/dq_i + dD/dv_i
   *         + sum_k dPhi_k/dq_i lambda_k - F_i - S_i = 0,
   *
   * p = dL/dv, M = dp/dv. A coordinate whose row of M vanishes (an
   * inductance neglected) has an algebraic velocity. The Jacobi integral
   * E = v . p - L is the stored energy of the audit; the powers are
   * F . v + lambda . Phi_t (supplied: forces, and constraints that depend
   * on time), S . v (non-reciprocal sources) and v . dD/dv (dissipated).
   */
  class Equations
  {
  public:
    /**
     * Derive; throws InputError for a coordinate that cannot be solved for
     * (unless `dynamics` is false: a static analysis alone needs no inertia).
     */
    explicit Equations(const System &system, bool dynamics = true);

    const System &system;
    unsigned int  n = 0; ///< coordinates
    unsigned int  m = 0; ///< constraints: the holonomic ones, then the velocity constraints

    GiNaC::matrix                mass;        ///< n x n, M(q, v)
    std::vector<GiNaC::ex>       residual;    ///< R_i (n)
    std::vector<GiNaC::symbol>   multipliers; ///< lambda_k (m)
    std::vector<GiNaC::ex>       constraints; ///< Phi_k (m); A_k v + b_k for a velocity constraint
    GiNaC::matrix                constraint_jacobian; ///< m x n: Phi_q, or A for a velocity constraint
    std::vector<GiNaC::ex>       constraint_rates;    ///< Phi_t (m), or b: 0 unless a constraint depends on time
    /** Per constraint: a velocity (non-holonomic) constraint A(q) v + b(q, t) = 0, imposed at velocity level only. */
    std::vector<bool>            on_velocities;
    GiNaC::ex                    energy, supplied_power, source_power, dissipated_power;
    std::vector<bool>            algebraic; ///< velocity i algebraic (row of M zero)

    /**
     * The directions u (each of n entries, exact rationals as doubles) in
     * which the mass matrix is singular beyond its zero rows, M u = 0 for
     * every q (a node group of a flux-linkage network with no capacitor to
     * ground: u = 1 on the group). Along u, u^T R holds no acceleration: it
     * is an algebraic equation (floating_equations) that fixes the velocity
     * component along u (index 1, when it depends on that velocity: a
     * resistor from the group to ground), solved by IDA with the rest.
     * Directions whose equation holds positions only are index2_directions;
     * Equations refuses a direction that no equation fixes (an isolated
     * group, or g_q U singular).
     */
    std::vector<std::vector<double>> floating_directions;
    std::vector<GiNaC::ex>           floating_equations; ///< u^T R, per direction

    /**
     * Directions u of a singular mass matrix along which u^T R = g(q, t)
     * holds positions and time only (a node group tied to ground by
     * inductors and current sources: index 2). Each is integrated as a
     * holonomic constraint Phi = g/s (s > 0 the norm of g_q at the initial
     * state, so that the rows of Phi_q are of unit scale), appended after
     * the system's own constraints (the last n_floating_constraints of the
     * m): in the stabilized index-2 form of Gear, Gupta and Leimkuhler its
     * velocity form g_q v + g_t = 0 fixes the velocity along u (g_q U is
     * regular, checked) and g = 0 is kept at position level by mu. Its
     * lambda enters R as Phi_q^T lambda; since u^T R = g, the row along u
     * reads g + (g_q u) lambda/s = 0, so with g = 0, lambda = 0 and the
     * other rows are the system's own: the same solution as replacing the
     * row along u by g_q v + g_t = 0 (lambda is an output that shows it).
     */
    std::vector<std::vector<double>> index2_directions;
    std::vector<GiNaC::ex>           index2_equations; ///< u^T R = g(q, t), per direction (unscaled)
    unsigned int                     n_floating_constraints = 0;

    /**
     * The energy audit per element (System::elements) and domain. Per
     * element, the powers that are not identically zero, named by their CSV
     * column and integrated like the totals: supplied_work_<e>_J (forces
     * F.v and time-dependent constraints lambda.Phi_t), source_work_<e>_J
     * (non-reciprocal S.v), dissipated_energy_<e>_J (v.dD/dv and resistive
     * forces such as diodes), coupling_work_<e>_J (the power the mechanical
     * coordinates deliver to the terms of the element's Lagrangian that
     * hold both mechanical and electrical coordinates, Manhaes et al. 2018 section 2.1's
     * E_F). Per domain, the stored energy's four energy functions
     * (kinetic v.d(T*)/dv - T*, V, magnetic v.d(W_m*)/dv - W_m*, W_e), whose
     * sum is `energy`. The parts of each kind sum to the totals.
     */
    std::vector<std::pair<std::string, GiNaC::ex>> element_powers, domain_energies;

    /**
     * The matrix form M a + C v + G v + D v + g = B u + f of
     * Hoang and Vuong 2019 when L is quadratic in the velocities, D
     * quadratic and the forces linear in the time functions u: C from the
     * Christoffel symbols, G the gyroscopic (skew) part of the terms linear
     * in v (motor couplings), g = d(V + W_e)/dq, f what remains of F + S.
     */
    struct MatrixForm
    {
      bool          exists = false;
      std::string   why_not;
      GiNaC::matrix M, C, G, D, g, B, f;
    } matrix_form;

    /** Fill element_powers and domain_energies (lumped/source/audit.cc). */
    void
    derive_audit(const GiNaC::exmap &neglected);

    /** Print the equations as text and LaTeX (parameters as symbols). */
    void
    print(std::ostream &out) const;
  };
} // namespace hamilton::lumped

#endif
