#ifndef hamilton_continuum_continuum_result_h
#define hamilton_continuum_continuum_result_h

#include <hamilton/analyses/analysis.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace hamilton::continuum
{
  class ContinuumRun;

  /**
   * What the run of a continuum computed, for the writers: the summary
   * (results.json's "continuum"), the reduced model's document, the
   * solution fields (static deflection, modes, the clamped electrostatic
   * solutions) that write_vtu() writes, and the results of the analyses on
   * the continuum as a structure (frequency response, harvester, RL shunt;
   * results of their own). The continuum prints its terminal summary while
   * it solves; its warnings (each analysis' prefixed by its name) are here.
   */
  class ContinuumResult : public AnalysisResult
  {
  public:
    struct SolutionField
    {
      std::string name;
      double      time  = 0; ///< position in the PVD series (mode number)
      double      value = 0; ///< frequency (Hz) of a mode, 0 otherwise
    };

    nlohmann::json              summary;
    std::string                 rom_file;
    nlohmann::json              rom_document; ///< null: no reduced model asked for
    std::vector<SolutionField>  solution_fields;
    std::vector<const AnalysisResult *> analyses;
    const ContinuumRun         *run = nullptr;

    /**
     * Write solution field `k` (displacement, potential, strain, stress,
     * electric field, region) as the VTU file `filename` through deal.II's
     * parallel VTU output: every MPI rank must call it.
     */
    void
    write_vtu(std::size_t k, const std::string &filename) const;

    void
    print_summary(std::ostream &) const override
    {}

    void
    add_to_json(nlohmann::json &results) const override
    {
      results["continuum"] = summary;
    }

    std::vector<std::pair<std::string, nlohmann::json>>
    documents() const override
    {
      if (rom_document.is_null())
        return {};
      return {{rom_file, rom_document}};
    }
  };
} // namespace hamilton::continuum

#endif
