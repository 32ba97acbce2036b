#ifndef hamilton_study_h
#define hamilton_study_h

#include <hamilton/base/input.h>
#include <hamilton/run.h>

#include <deal.II/base/parameter_handler.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace hamilton
{
  /**
   * A study (subsection 'Study'): a whole run of the parameter file (every
   * analysis it holds, beam, lumped or coupled) repeated over values of
   * entries named by path, one row of result quantities per point. Designs:
   * a grid (product of the value lists, the first parameter outermost),
   * zip (paired lists), monte carlo (samples of normal or uniform
   * distributions) and optimize (NLopt, maximize or minimize one quantity
   * within bounds). The results of a point are the results.json that a run
   * of the file with the point's values would write; a quantity is a path
   * into it such as 'modes/0/frequency_hz'.
   */
  class Study
  {
  public:
    /** Declare subsection 'Study'; its parameter names come from `first_pass`. */
    static void
    declare_parameters(dealii::ParameterHandler &prm, const dealii::ParameterHandler *first_pass);

    /** Whether the file asks for a study ('Study/Design' other than none). */
    static bool
    described_in(const dealii::ParameterHandler &prm);

    /** Read and check subsection 'Study' against the entries of `prm`. */
    void
    parse_parameters(Section &section);

    /**
     * The parameter values of every point of a grid, zip or monte carlo
     * design, one vector (one value per parameter) per point.
     */
    std::vector<std::vector<double>>
    points() const;

    /** One parameter of the study. */
    struct Parameter
    {
      /** The user's name (a subsection of 'Study/Parameters'); the CSV column. */
      std::string name;
      /** The entry: "Subsection/.../Entry". */
      std::string path;
      /** Grid and zip: the values. */
      std::vector<double> values;
      /** Monte carlo: "normal" or "uniform". */
      std::string distribution;
      /** Monte carlo: the nominal value and the relative tolerance. */
      double nominal = 0, tolerance = 0;
      /** Optimize: the bounds and the starting value. */
      double lower = 0, upper = 0, initial = 0;
    };

    std::string            design;
    std::vector<Parameter> parameters;
    /** Result quantities (paths into results.json); empty: the default set. */
    std::vector<std::string> quantities;
    unsigned int             n_samples = 0;
    std::uint64_t            seed      = 0;
    std::string              objective, goal, algorithm;
    double                   relative_tolerance = 0;
    unsigned int             max_evaluations    = 0;
    bool                     write_point_outputs = false;
    bool                     continue_on_failure = false;
  };

  /**
   * The samples of a monte carlo design: `n_samples` points; for each point
   * the parameters in order draw from one std::mt19937_64 seeded with
   * `seed`. A uniform number is u = (r >> 11) 2^-53 from one draw r (in
   * [0, 1)); a uniform parameter is nominal (1 + tolerance (2u - 1)); a
   * normal one nominal (1 + tolerance z) with z = sqrt(-2 ln(1 - u1))
   * cos(2 pi u2) from two draws (Box-Muller), so the tolerance is the
   * relative standard deviation. Everything but the mt19937_64 (whose
   * sequence the C++ standard fixes) is written out here, so the samples do
   * not depend on the standard library.
   */
  std::vector<std::vector<double>>
  monte_carlo_samples(const std::vector<Study::Parameter> &parameters, unsigned int n_samples, std::uint64_t seed);

  /**
   * The quantities a study reports when none are named, from the results of
   * one run: the first three frequencies (and f_oc, k_eff of the first
   * mode of a piezo beam), static tip deflection, buckling load factor, peak
   * power per electrode, optimal load and maximum power, ROM frequencies, the
   * final values of a lumped system's coordinates and velocities, the largest
   * value of each of its power outputs (names ending in _W), its
   * linearization's eigenvalues and its energy audit's relative residual.
   */
  std::vector<std::string>
  default_quantities(const nlohmann::json &results);

  /** The unit of a quantity, from the suffix of its name ("_hz": "Hz"); "" if unknown. */
  std::string
  quantity_unit(const std::string &quantity);

  /** Mean, standard deviation (n - 1), min, max and the 5/50/95 % percentiles (linear interpolation). */
  nlohmann::json
  statistics(std::vector<double> values);

  /**
   * How many times this process has solved a beam (read, discretized and ran
   * its analyses, exporting a ROM). A study's point of a file with a beam and
   * a lumped system takes the beam of the point before when they differ only
   * in entries of 'Lumped system' (run.cc).
   */
  unsigned long
  beam_solves();

  /** Free the beam kept for the next point of a study (at its end). */
  void
  forget_solved_beam();

  /**
   * Run the study of the file `options.parameter_file` (already read into
   * `prm`): each point a whole run in process; its StudyResult
   * (analyses/study_result.h) goes to the writers (study.csv row by row,
   * results.json, parameters_used.prm, the terminal table), into
   * `directory`, committed atomically; progress on stderr. With
   * `options.validate_only`, check the study and the file at its first point.
   */
  void
  run_study(const RunOptions         &options,
            dealii::ParameterHandler &prm,
            const std::string        &directory,
            const std::string        &origin,
            std::ostream             &out);
} // namespace hamilton

#endif
