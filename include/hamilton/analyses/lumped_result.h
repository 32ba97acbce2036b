#ifndef hamilton_analyses_lumped_result_h
#define hamilton_analyses_lumped_result_h

#include <hamilton/analyses/analysis.h>
#include <hamilton/lumped/lumped_run.h>

#include <nlohmann/json.hpp>

namespace hamilton
{
  /**
   * The result of a lumped system's run, for the writers: the run (its
   * system and options, for writers that stream its rows, such as the
   * animation: it is handed to Writer::open_rows() before the integration),
   * what it computed (the terminal summary and results.json's "lumped"),
   * what the row sinks said when they ended (results.json's "lumped/<sink
   * name>") and its linearization (linearization.json). The lumped run
   * prints its description while it works; the static equilibrium is part of
   * the summary; its warnings are the run's (not repeated here).
   */
  class LumpedResult : public AnalysisResult
  {
  public:
    const lumped::LumpedRun                            *run = nullptr;
    lumped::RunSummary                                  summary;
    std::vector<std::pair<std::string, nlohmann::json>> row_sinks;
    nlohmann::json                                      linearization; ///< null: none asked for

    void
    print_summary(std::ostream &out) const override
    {
      summary.print(out);
    }

    void
    add_to_json(nlohmann::json &results) const override
    {
      auto lumped = summary.to_json();
      for (const auto &[name, said] : row_sinks)
        lumped[name] = said;
      results["lumped"] = lumped;
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
