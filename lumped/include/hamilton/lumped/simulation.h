#ifndef hamilton_lumped_simulation_h
#define hamilton_lumped_simulation_h

#include <hamilton/base/columns.h>
#include <hamilton/lumped/equations.h>

#include <Eigen/Dense>

#include <complex>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace hamilton::lumped
{
  /** How the derived expressions are evaluated (see CompiledSystem). */
  enum class Evaluation
  {
    automatic,
    compiled,
    interpreted
  };

  /** Options of a time integration. */
  struct SimulationOptions
  {
    double final_time         = 1;     ///< s
    double output_interval    = 0.01;  ///< s
    double relative_tolerance = 1e-8;
    double absolute_tolerance = 1e-10;
    Evaluation evaluation     = Evaluation::compiled;
    /**
     * Whether the tolerances bound the global error of the run (true) or,
     * as IDA's own control does, the local error of each step (false).
     * IDA keeps each step's error below the tolerances; over the tens of
     * thousands of steps of a fast rotation these errors add up, and a
     * speed that depends on the phase of a winding angle was off by 1e5
     * times the relative tolerance (doc/lumped.md, "Error control"). With
     * global control, simulate() first integrates quietly at ten times the
     * tolerances and at the tolerances; the difference of the two runs
     * estimates the global error, and the run is integrated at tolerances
     * tightened until that estimate is within 10 times the relative
     * tolerance (at most to a relative tolerance of 1e-15, near the
     * rounding of double precision). When the run at the given tolerances
     * meets that, its rows are delivered (no third run). Not for systems with
     * diodes, whose error is that of their switching times (IDA's control).
     */
    bool global_error_control = true;
  };

  /**
   * A failure during the integration (a mechanism locking, IDA giving up):
   * the message names the time and the configuration. Rows delivered before
   * it remain valid.
   */
  class SimulationError : public InputError
  {
  public:
    using InputError::InputError;
  };

  /**
   * The equations linearized at a point, in descriptor form
   * E x' = A x + B u, y = C x + D u, x = (q, v, lambda, mu), u the time
   * functions, y the named outputs (the work integrals left out), with the
   * finite generalized eigenvalues of (A, E) (1/s), sorted by modulus; the
   * infinite ones belong to the constraints and algebraic unknowns.
   */
  struct Linearization
  {
    Eigen::MatrixXd                   E, A, B, C, D;
    std::vector<std::complex<double>> eigenvalues;
  };

  /**
   * Whether CompiledSystem keeps the parameters of a system as symbols of the
   * generated code, their values passed at run time (all but the neglected
   * ones, zero in the simplified model). Off by default: a single run
   * substitutes every value before code generation, as it always has. A
   * study that varies entries of 'Lumped system' turns it on, so that its
   * points, whose C sources then differ in no number, share one compiled
   * library (see compilations()). The rounding then differs from a single
   * run's (in the last bits of a residual evaluation). Process-wide.
   */
  void
  set_runtime_parameters(bool runtime);

  /** Whether set_runtime_parameters(true) is in effect. */
  bool
  runtime_parameters();

  /**
   * How many times this process has run the C compiler on derived
   * equations or loaded them from the disk cache (a source compiled earlier
   * in the process is reused from memory; the cache: compile_and_load() in
   * simulation.cc, `hamilton --no-cache`).
   */
  unsigned long
  compilations();

  /** A compiled function: (number of arguments, arguments, number of results, results). */
  using CompiledFunction = void (*)(const int *, const double *, const int *, double *);

  /**
   * The equations compiled to machine code (GiNaC compile_ex through the C
   * compiler), with the parameters' values substituted (or passed at run
   * time, see set_runtime_parameters()): residual and
   * Jacobian of the DAE, outputs. Unknowns y = (q, v, lambda, mu, W_supplied,
   * W_source, W_dissipated): the index-2 stabilized (Gear-Gupta-Leimkuhler)
   * form q' = v + Phi_q^T mu, R(q, v, v', lambda) = 0, Phi_q v + Phi_t = 0,
   * Phi(q, t) = 0, with the supplied, source and dissipated work integrated as
   * three more unknowns.
   */
  class CompiledSystem
  {
  public:
    /**
     * Derive the residual, Jacobian, outputs and linearization lists and
     * their C source. `evaluation` chooses how they are evaluated:
     * compiled (the C compiler now), interpreted (GiNaC, no compiler), or
     * automatic: interpreted until that has taken as long as compiling is
     * estimated to take, then compiled (at most twice the cost of the better
     * choice for the run at hand).
     */
    explicit CompiledSystem(const Equations &equations, Evaluation evaluation = Evaluation::compiled);
    ~CompiledSystem();

    /**
     * n_parts: the powers of the audit per element (Equations::element_powers);
     * n_domains: the stored energies by domain (Equations::domain_energies;
     * none for a system given by its Hamiltonian).
     */
    unsigned int n, m, n_inputs, n_outputs, n_parts, n_domains;
    unsigned int
    size() const
    {
      return 2 * n + 2 * m + 3;
    }
    /**
     * The number of values outputs() writes: the named outputs, E, Gamma (m),
     * Phi (m), the stored energy by domain (Equations::domain_energies).
     */
    unsigned int
    output_size() const
    {
      return n_outputs + 1 + 2 * m + n_domains;
    }
    /** Time functions at t (the inputs u). */
    std::vector<double>
    inputs(double t) const;
    /** The powers of the audit per element at (t, y, y') (n_parts; IDAS integrates them as quadratures). */
    void
    audit_powers(double t, const double *y, const double *y_dot, double *result) const;
    /** F(t, y, y'). */
    void
    residual(double t, const double *y, const double *y_dot, double *result) const;
    /** dF/dy and dF/dy' (dense, row-major, size x size each). */
    void
    jacobian(double t, const double *y, const double *y_dot, double *dy, double *dy_dot) const;
    /** The linearization at (t, y, y'). */
    Linearization
    linearize(double t, const double *y, const double *y_dot) const;

    /** Named outputs, the Jacobi integral E, Gamma = d(Phi_q v)/dq v (m), Phi (m), E per domain (4). */
    void
    outputs(double t, const double *y, double *result) const;

    /** Whether the C functions are in use (an interpreted run never compiles). */
    bool
    is_compiled() const;

    Evaluation               evaluation;
    double                   source_seconds = 0, compile_estimate = 0; ///< s
    mutable double           compile_seconds = 0, interpreted_seconds = 0; ///< s
    mutable unsigned long    residual_calls = 0, jacobian_calls = 0, interpreted_calls = 0;

  private:
    /** Compile the C source and use it from now on. */
    void
    compile() const;
    /** Evaluate list 0..4 (residual, Jacobian, outputs, linearization, audit powers) at the arguments x. */
    void
    evaluate(unsigned int list, const std::vector<double> &x, double *result) const;
    /** The input array of the compiled functions at (t, y, y'). */
    const std::vector<double> &
    arguments(double t, const double *y, const double *y_dot) const;
    mutable std::vector<double> buffer, jacobian_values;
    /** The values of the parameters that are arguments of the code (set_runtime_parameters()), in order. */
    std::vector<double> parameter_arguments;

    struct Functions;
    std::unique_ptr<Functions> functions;
    const Equations           &equations;
  };

  /** What an integration produced besides its rows. */
  struct SimulationSummary
  {
    std::vector<std::string> columns;
    double supplied_work = 0, source_work = 0, dissipated_energy = 0, stored_energy_change = 0;
    /**
     * The audit per element and domain at the end: column name and value
     * (the columns after audit_residual_J), and the largest difference
     * between a total and the sum of its parts over the rows (J).
     */
    std::vector<std::pair<std::string, double>> audit_parts;
    double largest_parts_residual = 0;
    double largest_audit_residual = 0; ///< J, over the output times
    /**
     * J: the largest magnitude over the rows of the stored energy change,
     * the supplied, source and dissipated work and the change of the stored
     * energy of each domain (Equations::domain_energies), and the name of its
     * column in lumped.csv.
     */
    double      largest_energy_term = 0;
    std::string largest_energy_term_name;
    double integrate_seconds      = 0;
    unsigned long residual_calls = 0, jacobian_calls = 0, steps = 0;
    /**
     * The tolerances the rows were integrated at (those of the options, or
     * tighter under global error control), the global error estimated at
     * the options' tolerances (largest over the coordinates, velocities,
     * named outputs and energies, in units of rtol |largest value| + atol
     * of each; -1 if not estimated) and the integrations spent on estimating it
     * (steps, residual and Jacobian evaluations and time are included in
     * the counts above).
     */
    double       relative_tolerance_used = 0, absolute_tolerance_used = 0, estimated_global_error = -1;
    unsigned int calibration_runs = 0;
    /** With diodes: the Newton iterations rescued by damping (README, "Rectifier circuits"), and those tried. */
    unsigned long newton_rescued = 0, newton_rescues = 0;
    /** With diodes: the Jacobians evaluated again because those of the iteration were from across a knee. */
    unsigned long knee_refreshes = 0;
    unsigned int  rows           = 0;
    /** The state after the consistent initialization and at the end. */
    std::vector<double> initial_y, initial_y_dot, final_y, final_y_dot;
  };

  /**
   * The consistent state at t = 0 (y = (q, v, lambda, mu, W), y' the same):
   * the initial positions projected onto Phi = 0 (Gauss-Newton on the
   * coordinates without a given initial position), the velocities onto
   * Phi_q v + Phi_t = 0, then the accelerations, the algebraic velocities
   * and the multipliers from the equations of motion with each constraint
   * at velocity level (if it involves an algebraic velocity) or
   * acceleration level. Throws InputError (constraints without a solution
   * near the given positions, a singular mass matrix) or SimulationError
   * (non-finite terms), naming the constraint or equation.
   */
  void
  consistent_initial_state(const CompiledSystem &compiled,
                           const Equations      &equations,
                           Eigen::VectorXd      &y,
                           Eigen::VectorXd      &y_dot);

  /**
   * The columns of the rows simulate() produces: t_s, the coordinates, their
   * velocities (x_dot), the multipliers, the named outputs, the constraint
   * values Phi_k (constraint_k), then the energy
   * audit (stored energy change, supplied work, source work, dissipated
   * energy, residual; J).
   */
  std::vector<std::string>
  output_columns(const Equations &equations);

  /**
   * The unit and meaning of each of output_columns() (for the sidecar
   * lumped.csv.columns.json): units of coordinates and outputs from
   * System::units, of velocities their rates.
   */
  std::vector<ColumnDescription>
  describe_output_columns(const Equations &equations);

  /**
   * Project the initial conditions onto the constraints, make them
   * consistent (accelerations, multipliers, algebraic velocities) and
   * integrate with SUNDIALS IDAS (BDF, dense direct solver with the compiled
   * Jacobian; called directly because deal.II 9.4's wrapper checks IDA's
   * return codes only in debug builds and cannot raise the step limit) to
   * `final_time`; every output time gives one row to
   * `on_row` (columns in the summary). Progress goes to `progress`.
   */
  SimulationSummary
  simulate(const CompiledSystem                             &compiled,
           const Equations                                  &equations,
           const SimulationOptions                          &options,
           const std::function<void(const std::vector<double> &)> &on_row,
           std::ostream                                     *progress);
} // namespace hamilton::lumped

#endif
