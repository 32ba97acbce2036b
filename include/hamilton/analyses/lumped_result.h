#ifndef hamilton_analyses_lumped_result_h
#define hamilton_analyses_lumped_result_h

#include <hamilton/analyses/analysis.h>

#include <nlohmann/json.hpp>

namespace hamilton
{
  namespace lumped
  {
    class LumpedRun;
  }

  /**
   * The result of a lumped system's run, for the writers: the run (its
   * system and options, for writers that stream its rows, such as the
   * animation: it is handed to Writer::open_rows() before the integration),
   * the summary it returns (results.json's "lumped") and its linearization
   * (linearization.json). The lumped run prints its own terminal summary
   * while it integrates, and its warnings are the run's (not repeated here).
   */
  class LumpedResult : public AnalysisResult
  {
  public:
    const lumped::LumpedRun *run = nullptr;
    nlohmann::json           summary;
    nlohmann::json           linearization; ///< null: none asked for

    void
    print_summary(std::ostream &) const override
    {}

    void
    add_to_json(nlohmann::json &results) const override
    {
      results["lumped"] = summary;
    }

    std::vector<std::pair<std::string, nlohmann::json>>
    documents() const override
    {
      if (linearization.is_null())
        return {};
      return {{"linearization.json", linearization}};
    }
  };
} // namespace hamilton

#endif
