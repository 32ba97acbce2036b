#ifndef hamilton_lumped_system_h
#define hamilton_lumped_system_h

#include <hamilton/base/input.h>
#include <hamilton/lumped/hamiltonian.h>

#include <ginac/ginac.h>

#include <deal.II/base/parameter_handler.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

/**
 * The lumped extended-Lagrangian library: systems of mechanical and
 * electrical generalized coordinates described by their energy functions
 * (directly in the parameter file, or assembled from components), the
 * symbolic derivation of Lagrange's equations, and their integration.
 * Never includes finite-element headers.
 */
namespace hamilton::lumped
{
  /**
   * An input that varies in time, referred to by name in the generalized
   * forces: constant, step, ramp, sine, or a table read from a CSV file.
   */
  struct TimeFunction
  {
    std::string name;
    enum Kind
    {
      constant,
      step,
      ramp,
      sine,
      table
    } kind                  = constant;
    double value            = 0; ///< constant; step height; ramp slope (per s)
    double start            = 0; ///< s, step and ramp start
    double initial          = 0; ///< value before the step or ramp; sine offset
    double amplitude        = 0; ///< sine
    double frequency        = 0; ///< Hz, sine
    double phase            = 0; ///< rad, sine
    std::vector<double> times, values; ///< table (linear interpolation); set by set_table
    /** Integral of the table from times[0] to times[k] (trapezoids); set by set_table. */
    std::vector<double> cumulative;

    /**
     * Make this a table of (times, values), times strictly increasing, at
     * least two rows, and precompute the cumulative integral so that
     * integral() costs a binary search.
     */
    void
    set_table(std::vector<double> times, std::vector<double> values);

    double
    operator()(double t) const;
    /** du/dt (0 across a step; the slope of a table's segment). */
    double
    rate(double t) const;
    /** d2u/dt2 (0 for steps, ramps and tables: piecewise linear). */
    double
    second_rate(double t) const;
    /**
     * The integral of u from 0 to t (for a table of N rows O(log N) after
     * set_table, O(N) if times and values were assigned directly).
     */
    double
    integral(double t) const;

    /**
     * Symbols of du/dt, d2u/dt2 and of the integral of u from 0, for
     * time-dependent constraints (their rates) and current sources (the
     * charge a current has carried); set by System::add_time_function.
     */
    GiNaC::symbol rate_symbol, second_rate_symbol, integral_symbol;
  };

  /**
   * The value of `e` after evalf as a finite double; nothing if it is not a
   * number, not real, or beyond the range of double (e.g. 1e400).
   */
  std::optional<double>
  finite_value(const GiNaC::ex &e);

  /**
   * A part of the mechanism's drawing for the animation: a polyline in the
   * plane (x, y), its points expressions of the coordinates, t and the time
   * functions.
   */
  struct Polyline
  {
    std::string                                   name;
    std::vector<std::pair<GiNaC::ex, GiNaC::ex>> points;
  };

  /** A generalized coordinate: its symbols and what it describes. */
  struct Coordinate
  {
    std::string   name;
    bool          electrical = false; ///< a charge (or flux linkage)
    GiNaC::symbol position, velocity, acceleration;
    std::optional<double> initial_position, initial_velocity;
  };

  /**
   * What a parameter file (or a program) says about a lumped system, in
   * symbols: coordinates q with velocities (written x_dot) and accelerations
   * (x_ddot), named parameters, time functions, the energy functions, the
   * Rayleigh dissipation, generalized forces, holonomic constraints and
   * named outputs. Components add to it through the same functions.
   *
   * Lagrangian L = T* + W_m* - V - W_e; equations
   *   d/dt dL/dv - dL/dq + dD/dv + Phi_q^T lambda = F + S,   Phi(q, t) = 0,
   * where F are supplied generalized forces (sources, applied torques) and S
   * forces that are not reciprocal (a motor whose torque constant differs
   * from its back-emf constant), booked separately in the energy audit.
   */
  class System
  {
  public:
    /** Declare subsection "Lumped system" (components included). */
    static void
    declare_parameters(dealii::ParameterHandler       &prm,
                       const dealii::ParameterHandler *previous_pass);

    /** Whether the file describes a lumped system at all. */
    static bool
    described_in(dealii::ParameterHandler &prm);

    /** Read subsection "Lumped system"; throws InputError. */
    void
    parse_parameters(Section &section, const std::string &directory);

    /**
     * Add a coordinate (or return the existing one's position symbol); the
     * names x, x_dot and x_ddot are claimed (see claim()) for the entry
     * `entry` of subsection `where`.
     */
    GiNaC::ex
    coordinate(const std::string &name,
               bool               electrical,
               const std::string &where = "Lumped system",
               const std::string &entry = "Coordinates");

    /**
     * Add a named parameter with a value (a symbol in the equations). A
     * name used before (a second definition, a coordinate, ...) is an
     * InputError naming `where`, `entry` and both uses.
     */
    GiNaC::ex
    parameter(const std::string &name,
              double             value,
              const std::string &where = "Lumped system",
              const std::string &entry = "Parameters");

    /**
     * Reserve `name` for `use` (e.g. "the parameter 'k'"): it must be an
     * identifier (a letter, then letters, digits and '_'), not reserved (t,
     * pi, the functions an expression may call, the multipliers lambda_1,
     * lambda_2, ..., the CSV's t_s, constraint_k and audit columns) and not
     * used before; otherwise an InputError names the
     * entry `entry` of subsection `where`, and both uses. I, Pi, Euler and
     * Catalan are ordinary names (GiNaC's constants are not available).
     */
    void
    claim(const std::string &name, const std::string &use, const std::string &where, const std::string &entry);

    /** Why `name` cannot be a user's name ("" if it can): syntax or a reserved word. */
    static std::string
    name_problem(const std::string &name);

    /**
     * Parse an expression in the coordinates, velocities, parameters, the
     * time t and the time functions; `where` names the subsection and entry
     * for the error message. With `energy`, t and time functions are refused
     * (energies must not depend on time explicitly).
     */
    GiNaC::ex
    parse(const std::string &text, const std::string &where, const std::string &entry, bool energy) const;

    /** d/dt of an expression of the coordinates (velocities by the chain rule). */
    GiNaC::ex
    time_derivative(const GiNaC::ex &e) const;

    /** Add a generalized force f along the expression `along` of the coordinates: F_k += f d(along)/dq_k. */
    void
    add_force(const GiNaC::ex &f, const GiNaC::ex &along, bool non_reciprocal = false);

    /**
     * Add a nonlinear resistive force (a diode's voltage drop v(i)) along
     * `along`: R_k += v d(along)/dq_k in the equations, like dD/dv, and
     * v d(along)/dt in the dissipated power (see resistive_forces).
     */
    void
    add_resistive_force(const GiNaC::ex &v, const GiNaC::ex &along);

    /**
     * Add a time function (and the symbols of its rates and integral,
     * claimed as names <name>_rate, <name>_rate2, <name>_integral); returns
     * its symbol.
     */
    GiNaC::ex
    add_time_function(TimeFunction       f,
                      const std::string &where = "Lumped system/Time functions",
                      const std::string &entry = "Names");

    /**
     * The partial derivative of e with respect to time: explicit t and the
     * time functions, their rates and integrals (not the coordinates).
     */
    GiNaC::ex
    partial_time_derivative(const GiNaC::ex &e) const;

    /** The multiplier lambda_{k+1} of constraint k (outputs may use it, e.g. a source voltage). */
    GiNaC::symbol
    multiplier(unsigned int k) const;

    /** Value of each parameter, for substitution. */
    GiNaC::exmap
    parameter_values() const;

    std::vector<Coordinate>                              coordinates;
    std::vector<std::pair<GiNaC::symbol, double>>        parameters;
    std::vector<std::pair<GiNaC::symbol, TimeFunction>>  time_functions;
    GiNaC::symbol                                        time{"t"};
    GiNaC::ex kinetic = 0, potential = 0, magnetic = 0, electric = 0, dissipation = 0;
    std::vector<GiNaC::ex>                           forces, non_reciprocal_forces; ///< per coordinate
    /**
     * Per coordinate: voltages (forces) of dissipative elements whose law
     * is not a Rayleigh function of the velocities (diodes); they enter the
     * residual as dD/dv does and the audit as dissipated power.
     */
    std::vector<GiNaC::ex>                           resistive_forces;
    /**
     * Per diode: its current over its saturation current, i/I_s (linear in
     * the velocities); x = 1 is its knee, where the Newton iteration must
     * not trust a Jacobian from the other side (ida_kernels.h).
     */
    std::vector<GiNaC::ex>                           diode_currents;
    std::vector<GiNaC::ex>                           constraints;
    /**
     * Velocity (non-holonomic) constraints A(q) q_dot + b(q, t) = 0, linear in
     * the velocities; their multipliers follow those of `constraints`.
     */
    std::vector<GiNaC::ex>                           velocity_constraints;
    std::vector<std::pair<std::string, GiNaC::ex>>   outputs;
    /**
     * SI unit of a coordinate or an output, by name (see base/columns.h):
     * defaults from the components that define the coordinates (an angle
     * rad, a position m, a charge C), electrical coordinates C, overridden
     * by the entry 'Units'. Names without one have no unit known.
     */
    std::map<std::string, std::string>               units;
    std::vector<Polyline>                            drawing; ///< parts of the animation
    /**
     * Where relative file names of components are looked up: the run's
     * output directory (files this run wrote, e.g. a ROM), then the
     * parameter file's directory.
     */
    std::vector<std::string> search_directories;
    /**
     * Whether the files found first in search_directories are provisional:
     * of the right shape but with placeholder numbers and possibly more
     * modal coordinates (a coupled file's ROM before its beam is solved).
     * Checks of their sizes then wait for the real files.
     */
    bool provisional_files = false;
    /** Parameters set to zero for the simplified model (e.g. inductances). */
    std::vector<std::string> neglected;
    /** The substitution that sets the neglected parameters to zero (the simplified model). */
    GiNaC::exmap
    neglected_values() const;
    /** "; simplified model: L1 L2 = 0" for the printed equations' heading, "" without neglected parameters. */
    std::string
    neglected_note() const;
    std::vector<std::string> warnings;
    /** The Hamiltonian side: a system given by its Hamiltonian, momenta in the output (hamiltonian.h). */
    HamiltonianForm hamiltonian;

    /**
     * The terms one component (or the file's own entries, element
     * "entries") added, for the energy audit per element: energies,
     * dissipation, forces per coordinate (shorter if coordinates came
     * later) and the constraints [first_constraint, end_constraint).
     */
    struct Element
    {
      std::string            name;
      GiNaC::ex              kinetic = 0, potential = 0, magnetic = 0, electric = 0, dissipation = 0;
      std::vector<GiNaC::ex> forces, non_reciprocal_forces, resistive_forces;
      unsigned int           first_constraint = 0, end_constraint = 0;
    };
    std::vector<Element> elements;
    /** The system's terms now (name empty): the state before an element adds its terms. */
    Element
    terms() const;
    /** Record as element `name` what was added since `before` (from terms()). */
    void
    record_element(const std::string &name, const Element &before);

    /**
     * Check the names of the outputs (components' and the user's): each an
     * identifier, unique, and not a column the CSV has anyway (t_s, the
     * coordinates and velocities, lambda_k, constraint_k, the energy audit).
     * Called at the end of parse_parameters.
     */
    void
    check_outputs(const std::string &where) const;

  private:
    mutable std::vector<GiNaC::symbol> multipliers;
    /** Every name in use, with what it names (for messages of clashes). */
    std::map<std::string, std::string> names;

    GiNaC::symtab
    table(bool energy) const;
  };
} // namespace hamilton::lumped

#endif
