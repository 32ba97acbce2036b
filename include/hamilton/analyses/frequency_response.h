#ifndef hamilton_analyses_frequency_response_h
#define hamilton_analyses_frequency_response_h

#include <hamilton/analyses/analysis.h>
#include <hamilton/analyses/spectral_model.h>

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

  /** Result of a frequency response: amplitudes per frequency. */
  class FrequencyResponseResult : public AnalysisResult
  {
  public:
    Table                    table{"frf", {}, {}};
    nlohmann::json           summary;
    std::vector<std::string> lines;

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

  /** The "frequency response" analysis. */
  class FrequencyResponseAnalysis : public Analysis
  {
  public:
    static void
    declare_parameters(dealii::ParameterHandler &prm);
    void
    parse_parameters(Section &section) override;
    void
    check(const Problem &problem) const override;
    std::unique_ptr<AnalysisResult>
    run(const Problem &problem) const override;

  private:
    std::string                                 input;
    SpectralModel::Excitation                   excitation;
    FrequencyGrid                               grid;
    std::vector<std::pair<std::string, double>> points;
    bool                                        average_power = false;
    unsigned int                                n_modes       = 0;
    bool                                        include_prestress = true;
  };
} // namespace hamilton

#endif
