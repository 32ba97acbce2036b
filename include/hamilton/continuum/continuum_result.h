#ifndef hamilton_continuum_continuum_result_h
#define hamilton_continuum_continuum_result_h

#include <hamilton/analyses/analysis.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hamilton::continuum
{
  class ContinuumRun;

  /**
   * What the run of a continuum computed, for the writers: the continuum's
   * description and its static, modal and reduced-model results (the
   * terminal summary and results.json's "continuum"), the reduced model's
   * document, the solution fields (static deflection, modes, the clamped
   * electrostatic solutions) that write_vtu() writes, and the results of the
   * analyses on the continuum as a structure (frequency response, harvester,
   * RL shunt; results of their own, whose terminal summaries are part of
   * this one's). Its warnings (each analysis' prefixed by its name) are here.
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

    /** The static analysis: each electrode's voltage and charge, each output point's fields. */
    struct Static
    {
      struct Electrode
      {
        std::string name;
        double      voltage_V = 0, charge_C = 0;
      };
      struct Point
      {
        std::string         name;
        std::vector<double> displacement_m;
        double              displacement_along_direction_m = 0, potential_V = 0;
        std::vector<double> stress_Pa, electric_field_V_m;
      };
      std::vector<Electrode> electrodes;
      std::vector<Point>     points;
      double                 total_s = 0;
    };

    /** The modal analysis: short- and open-circuit modes, their coupling, the clamped capacitances. */
    struct Modal
    {
      struct Electrode
      {
        std::string name;
        double      modal_coupling_N_per_V = 0, gamma = 0;
      };
      struct Mode
      {
        unsigned int index = 0;
        double       frequency_hz = 0, participation_base_translation = 0;
        bool         rigid_body   = false;
        /** With electrodes: the open-circuit mode paired with it (if any), k_eff and their overlap. */
        bool                   paired = false;
        double                 frequency_open_circuit_hz = 0, coupling_k_eff = 0, open_circuit_overlap = 0;
        std::vector<Electrode> electrodes;
      };
      std::string                                      direct_solver;
      std::vector<Mode>                                modes;
      std::vector<std::pair<std::string, double>>      capacitances_F; ///< clamped, per electrode port
      std::vector<double>                              open_circuit_frequencies_hz;
      double                                           rigid_mass_kg = 0;
      nlohmann::json                                   timings_s;
    };

    /** The reduced model written (rom.json). */
    struct ReducedModel
    {
      std::string         file;
      unsigned int        n_normal_modes = 0, n_correction_modes = 0;
      std::vector<double> frequencies_hz;
    };

    std::string                                 description; ///< the mesh, elements and formulation
    std::string                                 mesh, formulation;
    unsigned long                               cells = 0, n_unknowns = 0;
    unsigned int                                mpi_ranks = 1;
    bool                                        electrodes = false; ///< whether it has electrode ports
    std::vector<std::pair<std::string, double>> timings_s; ///< mesh and dofs, then each analysis on it
    std::optional<Static>                       statics;
    std::optional<Modal>                        modal;
    std::optional<ReducedModel>                 reduced_model;

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

    /** The static, modal and reduced-model summaries, then those of the analyses on the continuum. */
    void
    print_summary(std::ostream &out) const override;

    /** results.json's "continuum" (the analyses on it add their own). */
    void
    add_to_json(nlohmann::json &results) const override;

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
