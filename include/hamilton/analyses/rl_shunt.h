#ifndef hamilton_analyses_rl_shunt_h
#define hamilton_analyses_rl_shunt_h

#include <hamilton/analyses/frequency_response.h>

namespace hamilton
{
  /** Result of RL shunt tuning. */
  class RLShuntResult : public AnalysisResult
  {
  public:
    Table          table{"rl_shunt", {"frequency_hz", "short_circuit_m_N", "open_circuit_m_N", "hvf_m_N", "optimum_m_N"}, {}};
    nlohmann::json summary;

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
