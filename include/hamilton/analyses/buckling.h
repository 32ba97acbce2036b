#ifndef hamilton_analyses_buckling_h
#define hamilton_analyses_buckling_h

#include <hamilton/analyses/analysis.h>
#include <hamilton/analyses/eigensolver.h>

namespace hamilton
{
  /** Result of linear buckling: (K + lambda K_g) x = 0 for the reference N0. */
  class BucklingResult : public AnalysisResult
  {
  public:
    struct Mode
    {
      unsigned int           index       = 0;
      double                 load_factor = 0; ///< lambda: N_cr(x) = lambda N0(x)
      dealii::Vector<double> shape;           ///< largest unknown = 1
    };
    std::vector<Mode> modes;
    std::string       backend;
    double            reference_axial_force_at_0 = 0; ///< N0(0) (N)

    void
    print_summary(std::ostream &out) const override;
    void
    add_to_json(nlohmann::json &results) const override;
    std::vector<Table>
    tables() const override;
    std::vector<std::pair<std::string, std::vector<Field>>>
    fields() const override;
  };

  /** The "buckling" analysis. */
  class BucklingAnalysis : public Analysis
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
    unsigned int       n_modes = 3;
    EigensolverBackend backend = EigensolverBackend::automatic;
  };
} // namespace hamilton

#endif
