#ifndef hamilton_analyses_frequency_response_h
#define hamilton_analyses_frequency_response_h

#include <hamilton/analyses/analysis.h>
#include <hamilton/analyses/spectral_model.h>
#include <hamilton/analyses/structure.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hamilton
{
  /**
   * Frequencies of a sweep: a linear or logarithmic grid between two
   * frequencies, optionally refined near every short-circuit resonance and
   * its open-circuit estimate (81 extra points over f_sc (1 - 6 zeta) ...
   * f_oc (1 + 6 zeta), at least +-0.3 %), sorted and unique.
   */
  struct FrequencyGrid
  {
    double       minimum    = 1;
    double       maximum    = 1000;
    unsigned int n          = 500;
    bool         logarithmic = false;
    bool         refine      = true;

    /** Declare the entries in the current subsection. */
    static void
    declare(dealii::ParameterHandler &prm, double default_min, double default_max);
    void
    parse(Section &section);
    std::vector<double>
    frequencies_hz(const SpectralModel &model) const;
  };

  /**
   * "tip: 0.1, mid: 0.05" -> named positions (m); a bare number names itself.
   * Positions must be finite and >= 0; whether they lie on the beam is
   * checked by points_on_beam() once the model is known.
   */
  std::vector<std::pair<std::string, double>>
  parse_output_points(Section &section, const std::string &entry);

  /**
   * Throw an InputError naming `path` and 'Number of modes' if `n_modes`
   * exceeds the number of unknowns (the modes there are): a model is never
   * silently truncated.
   */
  void
  check_number_of_modes(unsigned int n_modes, const Problem &problem, const std::string &path);

  /**
   * Throw an InputError if the complete modal basis of the problem (dense,
   * 'Number of modes = 0') does not fit in memory_limit_bytes.
   */
  void
  require_full_modal_basis(const Problem &problem, const std::string &path);

  /**
   * The points moved onto the beam's ends and joints within the position
   * tolerance (BeamModel::snap). A point beyond the end throws an InputError
   * naming `path`, `entry`, the point and the length, to full precision.
   */
  std::vector<std::pair<std::string, double>>
  points_on_beam(const std::vector<std::pair<std::string, double>> &points,
                 const BeamModel                                   &model,
                 const std::string                                 &path,
                 const std::string                                 &entry);

  /**
   * A reduced model checked against direct solves of the full model (see
   * check_reduction()): at which frequencies (none listed: one per optimum),
   * each comparison, the largest relative difference.
   */
  struct ReductionCheck
  {
    std::vector<double> frequencies_hz;
    nlohmann::json      comparisons; ///< check_reduction()'s list
    double              largest_relative_difference = 0;

    /** {"frequencies_hz" (if any), "comparisons", "largest_relative_difference"} */
    nlohmann::json
    to_json() const;
  };

  /** Result of a frequency response: amplitudes per frequency. */
  class FrequencyResponseResult : public AnalysisResult
  {
  public:
    /** The largest |w_rel| of an output point over the window. */
    struct PointPeak
    {
      std::string           name;
      std::optional<double> position_m; ///< none: a named point of a continuum
      double                frequency_hz = 0;
      double                w_rel_m      = 0;
      std::string           largest_at; ///< "interior" (a peak), "lower edge" or "upper edge"
    };
    /** The largest power into an electrode's load over the window. */
    struct ElectrodePeak
    {
      std::string name;
      double      frequency_hz = 0;
      double      power_W      = 0;
      std::string largest_at;
    };

    Table                         table{"frf", {}, {}};
    std::string                   input; ///< 'Input': base acceleration or force
    bool                          average_power = false; ///< else peak |V|^2 Re Y
    unsigned int                  n_modes       = 0;
    std::vector<PointPeak>        points;
    std::vector<ElectrodePeak>    electrodes;
    std::optional<ReductionCheck> reduction_check; ///< a reduced model only
    std::vector<std::string>      lines; ///< the terminal summary's lines

    void
    print_summary(std::ostream &out) const override;
    void
    add_to_json(nlohmann::json &results) const override;
    std::vector<Table>
    tables() const override
    {
      return {table};
    }
  };

  /**
   * The "frequency response" analysis, on any Structure: a beam in its
   * complete modal basis, or a continuum's reduced model, checked against a
   * direct solve of the full continuum at a few frequencies.
   */
  class FrequencyResponseAnalysis : public StructureAnalysis
  {
  public:
    static void
    declare_parameters(dealii::ParameterHandler &prm);
    void
    parse_parameters(Section &section) override;
    void
    check_on(const Structure &structure) const override;
    std::unique_ptr<AnalysisResult>
    run_on(const Structure &structure) const override;

  private:
    std::string               input;
    SpectralModel::Excitation excitation;
    OutputPoint               force_point;
    FrequencyGrid             grid;
    std::vector<OutputPoint>  points;
    bool                      average_power = false;
    unsigned int              n_modes       = 0;
    bool                      include_prestress = true;
    /** Frequencies (Hz) of the direct solves that check a reduced model;
        empty: chosen automatically. */
    std::vector<double> check_frequencies;
    bool                automatic_checks = true;
  };

  /**
   * The frequencies (Hz) at which a reduced model is checked against a direct
   * solve when none are given: the window's ends and middle, each moved off
   * any of the model's resonances by at least 2 % of it (the direct solve is
   * undamped).
   */
  std::vector<double>
  automatic_check_frequencies(const SpectralModel &model, double minimum_hz, double maximum_hz);

  /**
   * Compare the reduced structure's undamped spectral model with direct solves
   * of the full model at `frequencies_hz`: port voltages and point
   * displacements. Returns a JSON list (frequency, quantity, reduced, full,
   * relative difference) and the largest relative difference.
   */
  std::pair<nlohmann::json, double>
  check_reduction(const Structure                                    &structure,
                  const SpectralModel                                &model,
                  const SpectralModel::Excitation                    &excitation,
                  const std::function<std::vector<SpectralModel::Circuit>(double)> &circuits,
                  const std::vector<OutputPoint>                     &points,
                  const std::vector<double>                          &frequencies_hz);
} // namespace hamilton

#endif
