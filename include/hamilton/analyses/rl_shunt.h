#ifndef hamilton_analyses_rl_shunt_h
#define hamilton_analyses_rl_shunt_h

#include <hamilton/analyses/frequency_response.h>

#include <array>
#include <optional>

namespace hamilton
{
  /** Result of RL shunt tuning. */
  class RLShuntResult : public AnalysisResult
  {
  public:
    /** A tuning of the shunt and the largest driving-point receptance |w/F| with it. */
    struct Tuning
    {
      double inductance_H   = 0;
      double resistance_ohm = 0;
      double LC_omega_sc2   = 0; ///< L C omega_sc^2
      double r              = 0; ///< R C omega_sc
      double peak_m_N       = 0; ///< largest |w/F| over 0.6 ... 1.5 f_sc
      double normalized_peak = 0; ///< peak_m_N over the modal static compliance phi(x)^2/omega_sc^2
    };

    Table        table{"rl_shunt", {"frequency_hz", "short_circuit_m_N", "open_circuit_m_N", "hvf_m_N", "optimum_m_N"}, {}};
    std::string  electrode;
    unsigned int mode     = 1;
    unsigned int n_modes  = 0; ///< of the model
    double       frequency_short_circuit_hz = 0;
    double       frequency_open_circuit_hz  = 0;
    double       K2            = 0; ///< (omega_oc^2 - omega_sc^2)/omega_sc^2
    double       capacitance_F = 0;
    Tuning       hvf;     ///< Hagood-von Flotow
    Tuning       optimum; ///< the equal-peak (H-infinity) optimum
    std::array<double, 2> optimum_peak_frequencies_hz{}, optimum_peak_values_m_N{};
    std::optional<ReductionCheck> reduction_check; ///< a reduced model only

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
   * The "rl shunt" analysis: a series RL shunt on one electrode tuned to one
   * mode. The Hagood-von Flotow tuning (L = 1/(C omega_oc^2), R = r/(C
   * omega_sc) with r = sqrt(2) K/(1 + K^2), K^2 = (omega_oc^2 -
   * omega_sc^2)/omega_sc^2) and the numerical H-infinity optimum (L and R
   * minimizing the largest |w/F| at the point over 0.6 ... 1.5 f_sc, which
   * gives two equal peaks), with the driving-point receptance w/F of both.
   */
  class RLShuntAnalysis : public StructureAnalysis
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
    /** The force and response point, or the structure's default point. */
    OutputPoint
    point_on(const Structure &structure) const;

    std::string                electrode;
    unsigned int               mode    = 1;
    std::optional<OutputPoint> point; ///< none: the structure's default
    unsigned int               n_modes = 0;
  };
} // namespace hamilton

#endif
