#ifndef hamilton_analyses_static_h
#define hamilton_analyses_static_h

#include <hamilton/analyses/analysis.h>

namespace hamilton
{
  /** Result of a static analysis: deflection, slope, moment along x, reactions. */
  class StaticResult : public AnalysisResult
  {
  public:
    dealii::Vector<double> solution;
    std::vector<double>    x, w, slope, curvature, moment; ///< m, m, rad, 1/m, N m
    /** Per electrode: circuit, voltage (V) and charge (C). */
    struct ElectrodeState
    {
      std::string name, circuit;
      double      voltage = 0, charge = 0;
    };
    std::vector<ElectrodeState> electrodes;
    struct Reaction
    {
      std::string support, component;
      double      position = 0, value = 0; ///< m; N or N m
    };
    std::vector<Reaction> reactions;
    bool                  with_prestress = false;

    void
    print_summary(std::ostream &out) const override;
    void
    add_to_json(nlohmann::json &results) const override;
    std::vector<Table>
    tables() const override;
    std::vector<std::pair<std::string, std::vector<Field>>>
    fields() const override;
  };

  /** The "static" analysis: (K [+ K_g]) u = f for the loads of subsection Loads. */
  class StaticAnalysis : public Analysis
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
    bool         include_prestress   = true;
    unsigned int samples_per_element = 8;
  };
} // namespace hamilton

#endif
