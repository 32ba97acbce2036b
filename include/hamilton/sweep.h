#ifndef hamilton_sweep_h
#define hamilton_sweep_h

#include <hamilton/analyses/analysis.h>

#include <deal.II/base/parameter_handler.h>

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace hamilton
{
  /**
   * A design study: the modal analysis repeated over one or two parameters of
   * the file (any numeric entry, named by its path such as
   * "Beam/Point masses/tip/Mass"), each combination a full model, one CSV row
   * per point.
   */
  class Sweep
  {
  public:
    static void
    declare_parameters(dealii::ParameterHandler &prm);
    void
    parse_parameters(Section &section);

    bool
    enabled() const
    {
      return !axes.empty();
    }

    /**
     * Refuse a sweep in a file without a beam (it would be ignored), saying
     * to write a study.
     */
    static void
    check_without_beam(dealii::ParameterHandler &prm);

    /**
     * Check the paths exist and that the modal analysis is selected, and
     * refuse other analyses or a lumped system (the sweep would drop them),
     * saying to write a study.
     */
    void
    check(dealii::ParameterHandler &prm,
          const std::vector<std::pair<std::string, std::unique_ptr<Analysis>>>
            &analyses);

    /** Run all points; prints progress to stderr and a summary to `out`. */
    std::unique_ptr<AnalysisResult>
    run(dealii::ParameterHandler &prm, Section &section, std::ostream &out) const;

  private:
    struct Axis
    {
      std::string         path;
      std::vector<double> values;
    };
    std::vector<Axis> axes;
    const Analysis   *modal = nullptr;
  };
} // namespace hamilton

#endif
