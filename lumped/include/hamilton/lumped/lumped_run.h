#ifndef hamilton_lumped_lumped_run_h
#define hamilton_lumped_lumped_run_h

#include <hamilton/lumped/equations.h>
#include <hamilton/lumped/simulation.h>
#include <hamilton/lumped/statics.h>
#include <hamilton/lumped/system.h>
#include <hamilton/output/row_sink.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <ostream>
#include <string>

namespace hamilton::lumped
{
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
     * begun with the columns' descriptions; after the summary, each sink's
     * end() (its own line on `out`), stored under its name(). The summary for
     * results.json; the linearization, if asked for, in `linearization`.
     */
    nlohmann::json
    run(const std::vector<std::unique_ptr<RowSink>> &sinks, std::ostream &out);

    /** The linearized descriptor state space (linearization.json), if 'Linearize at' asks for it. */
    nlohmann::json linearization;

    /**
     * The steady-state harmonic analysis at `frequency` (Hz): each column of
     * `rows` fitted by mean + harmonics 1 to 3 (least squares); the mean, the
     * fundamental's amplitude and phase against sin(2 pi f t), the fit's
     * residual and the largest |value| of the rows (and when). The table
     * goes to `out` if given.
     */
    nlohmann::json
    harmonic_fit(const std::vector<std::string>         &columns,
                 const std::vector<std::vector<double>> &rows,
                 double                                  frequency,
                 std::ostream                           *out) const;

    /**
     * The automatic steady state: the dominant period of the column
     * 'Steady-state signal' detected from `rows` (the last half of the run,
     * see detect_period()), the harmonic analysis over the last 'Harmonic
     * periods' periods, and how steady: the change of the mean and the
     * amplitude of every column from the 'Harmonic periods' periods before.
     * Without a period, the reason (terminal and results.json), no numbers.
     */
    nlohmann::json
    detected_steady_state(const std::vector<std::string>         &columns,
                          const std::vector<std::vector<double>> &rows,
                          std::ostream                           &out) const;

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
