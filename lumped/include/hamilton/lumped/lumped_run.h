#ifndef hamilton_lumped_lumped_run_h
#define hamilton_lumped_lumped_run_h

#include <hamilton/lumped/equations.h>
#include <hamilton/lumped/simulation.h>
#include <hamilton/lumped/statics.h>
#include <hamilton/lumped/system.h>
#include <hamilton/output/row_sink.h>

#include <nlohmann/json.hpp>

#include <array>
#include <complex>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace hamilton::lumped
{
  /**
   * The steady-state harmonic analysis of the rows of a lumped run at one
   * frequency (LumpedRun::harmonic_fit()): each column's mean, fundamental
   * and the fit's residual.
   */
  struct HarmonicFit
  {
    struct Column
    {
      std::string name;
      double      amplitude = 0, phase_deg = 0, mean = 0, largest_fit_residual = 0, peak = 0, peak_time_s = 0;
      /** The automatic steady state: the change from the periods before, if measured. */
      std::optional<double> mean_change, amplitude_change;
      /**
       * The column's own fundamental as a harmonic k of the fit's frequency
       * f (2 for a power of a current at f): amplitude and phase are those of
       * k f (phase against sin(2 pi k f t)), the residual is relative to it.
       */
      unsigned int harmonic = 1;
    };
    double              frequency_hz = 0;
    unsigned int        periods      = 0;
    double              from_s       = 0;
    std::size_t         rows         = 0;
    std::vector<Column> columns; ///< in the order of lumped.csv, the time left out

    /** The table: amplitude, phase and relative residual of each column (not the audit's integrals). */
    void
    print(std::ostream &out) const;

    nlohmann::json
    to_json() const;
  };

  /** The steady state of a lumped run: at the given 'Harmonic frequency', or detected (LumpedRun::detected_steady_state()). */
  struct SteadyState
  {
    bool        given = false; ///< the frequency given, else detected from 'Steady-state signal'
    std::string signal, searched; ///< detected: the column and the span searched
    bool        found = false;
    std::string reason;          ///< detected, not found: why
    /** Detected, not found: the frequency of the period detected (Hz) if the signal is not periodic over the fit; else 0. */
    double      detected_frequency = 0;
    double      correlation = 0; ///< detected: the autocorrelation at one period
    HarmonicFit fit;             ///< given or found
    /** Found: the change of the signal's mean and amplitude from the periods before, if measured. */
    bool   steadiness_measured = false;
    double previous_from_s = 0, mean_change = 0, amplitude_change = 0;

    void
    print(std::ostream &out) const;

    nlohmann::json
    to_json() const;
  };

  /**
   * What a lumped run computed (LumpedRun::run()), for its terminal summary
   * (print()) and results.json's "lumped" (to_json()).
   */
  struct RunSummary
  {
    std::optional<Statics::Equilibrium> statics; ///< if asked for
    bool                     simulated = false; ///< false: the static equilibrium alone
    std::vector<std::string> warnings;

    struct Coordinate
    {
      std::string name;
      bool        electrical = false, algebraic_velocity = false;
    };
    std::vector<Coordinate>  coordinates;
    unsigned int             constraints = 0;
    bool                     matrix_form = false;
    std::vector<std::string> neglected;
    double                   final_time_s = 0;
    unsigned int             rows         = 0;

    /**
     * A column of lumped.csv: the final value, mean and amplitude ((max -
     * min)/2) over the summary's window, the peak (largest |value|, with its
     * sign) of the run and when, the range of the run.
     */
    struct Column
    {
      std::string name, unit;
      double      final = 0, mean = 0, amplitude = 0, peak = 0, peak_time_s = 0, min = 0, max = 0;
    };
    std::vector<Column>      columns; ///< in the order of lumped.csv, the time left out
    std::vector<std::string> shown;   ///< the table's rows: the outputs, the coordinates and velocities (at most 12)
    double                   summary_from_s = 0, summary_to_s = 0;

    std::optional<SteadyState> steady_state;

    struct Evaluation
    {
      bool          compiled = false;
      unsigned long interpreted_evaluations = 0;
      double        interpreted_s = 0, compile_estimate_s = 0;
      std::string   summary;
    } evaluation;
    double derivation_s = 0, compilation_s = 0, integration_s = 0;

    struct EnergyAudit
    {
      double supplied_work_J = 0, source_work_J = 0, dissipated_energy_J = 0, stored_energy_change_J = 0,
             largest_residual_J = 0, largest_relative_residual = 0, largest_parts_residual_J = 0;
      std::string                                 relative_to;
      std::vector<std::pair<std::string, double>> parts; ///< per element and domain, final values
      /**
       * What the relative residual is relative to: the column of lumped.csv
       * (supplied_work_J, or the largest energy term's, such as
       * kinetic_energy_change_J) and its magnitude (J).
       */
      std::string reference_column;
      double      reference_J = 0;

      /**
       * The relative residual in words: "2.51e-11 of the supplied work", or
       * "3.1e-10 relative to the largest energy term, kinetic_energy_change_J
       * = 0.5 J in magnitude; nothing is supplied", or "every energy term is
       * zero".
       */
      std::string
      relative_text() const;
    } energy_audit;

    unsigned long residual_evaluations = 0, jacobian_evaluations = 0, steps = 0;
    /**
     * Global error control (SimulationOptions::global_error_control): the
     * relative tolerance the rows were integrated at, and the global error
     * estimated at the given tolerances, in units of rtol |y| + atol of the
     * largest value of each column (-1: not estimated).
     */
    double relative_tolerance_used = 0, estimated_global_error = -1;
    std::optional<double> residual_per_period; ///< with a given harmonic frequency
    /** Diodes: Newton iterations rescued by damping (tried, converged) and knee refreshes; if any. */
    std::optional<std::array<unsigned long, 3>> newton_rescues;

    /** A system given by its Hamiltonian (or with momenta): the transformation and the momenta's units. */
    struct Hamiltonian
    {
      bool                                             given = false;
      std::string                                      transformation;
      std::vector<std::pair<std::string, std::string>> momenta;
    };
    std::optional<Hamiltonian> hamiltonian;

    /** 'Linearize at': where, and the eigenvalues (1/s); the matrices are LumpedRun::linearization. */
    struct Linearization
    {
      double                            time_s = 0;
      std::vector<std::complex<double>> eigenvalues;
    };
    std::optional<Linearization> linearization;

    /**
     * After the integration: the costs, the energy audit, the aligned
     * summary of the outputs and coordinates, the steady state and the
     * linearization's eigenvalues.
     */
    void
    print(std::ostream &out) const;

    nlohmann::json
    to_json() const;
  };

  /**
   * The lumped part of a run: read subsection "Lumped system", derive the
   * equations (errors before anything is written), then compile, integrate
   * and hand every row to the writers' row sinks as soon as it is computed
   * (lumped.csv, so that a run stopped by a lock-up leaves a valid CSV up to
   * that time; the animation).
   */
  class LumpedRun
  {
  public:
    static void
    declare_parameters(dealii::ParameterHandler &prm, const dealii::ParameterHandler *previous_pass);

    /** Whether the file describes a lumped system. */
    static bool
    described_in(dealii::ParameterHandler &prm);

    /** Read the system and the simulation options; derive the equations. */
    void
    parse_parameters(Section &section, const std::string &directory);

    /**
     * The checks of a run that need no integration, before anything is
     * written: make the evaluation of the equations (interpreted for
     * `validate_only`, else as 'Simulation/Evaluation' says; run() uses it)
     * and the consistent initial state at t = 0, which refuses constraints
     * without a solution near the initial positions, a singular mass matrix
     * and non-finite terms.
     */
    void
    check_initial_state(bool validate_only);

    void
    print_equations(std::ostream &out) const;

    /** The most rows lumped.csv may have (README, "Lumped systems"). */
    static constexpr double max_rows = 1e7;
    /** The largest estimated size of lumped.csv (bytes). */
    static constexpr double max_csv_bytes = 1073741824.;

    /**
     * Compile and integrate; each row of the output table (time, the
     * coordinates, their rates, the outputs, the audit) goes to every sink,
     * begun with the columns' descriptions (the caller ends them). Prints
     * the system's description, its warnings and static equilibrium on
     * `out`; returns what the run computed; the linearization, if asked
     * for, in `linearization`.
     */
    RunSummary
    run(const std::vector<std::unique_ptr<RowSink>> &sinks, std::ostream &out);

    /** The linearized descriptor state space (linearization.json), if 'Linearize at' asks for it. */
    nlohmann::json linearization;

    /**
     * The steady-state harmonic analysis at `frequency` (Hz): each column of
     * `rows` fitted by mean + harmonics 1 to 3 (least squares); the mean, the
     * fundamental's amplitude and phase against sin(2 pi f t), the fit's
     * residual and the largest |value| of the rows (and when).
     */
    HarmonicFit
    harmonic_fit(const std::vector<std::string>         &columns,
                 const std::vector<std::vector<double>> &rows,
                 double                                  frequency) const;

    /**
     * The automatic steady state: the dominant period of the column
     * 'Steady-state signal' detected from `rows` (the last half of the run,
     * see detect_period()), the harmonic analysis over the last 'Harmonic
     * periods' periods, and how steady: the change of the mean and the
     * amplitude of every column from the 'Harmonic periods' periods before.
     * Without a period, the reason, no numbers.
     */
    SteadyState
    detected_steady_state(const std::vector<std::string> &columns, const std::vector<std::vector<double>> &rows) const;

    System                     system;
    std::unique_ptr<Equations> equations;
    /** The evaluation of the equations, made by check_initial_state() or run(). */
    std::unique_ptr<CompiledSystem> compiled;
    SimulationOptions          options;
    double                     derive_seconds = 0;
    std::string                linearize_at   = "none";
    double                     harmonic_frequency = 0; ///< Hz given; 0: none given
    bool                       automatic_steady_state = true; ///< 'Harmonic frequency = automatic'
    std::string                steady_state_signal;       ///< the column whose period is detected
    unsigned int               harmonic_periods   = 10;
    double                     frame_interval     = 0; ///< s; 0: no animation
    Statics                    statics; ///< the static equilibrium, if asked for
  };
} // namespace hamilton::lumped

#endif
