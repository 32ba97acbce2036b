#ifndef hamilton_analyses_harvester_h
#define hamilton_analyses_harvester_h

#include <hamilton/analyses/frequency_response.h>

#include <optional>

namespace hamilton
{
  /** Result of a harvester study: the R x f map, peaks, optimal loads. */
  class HarvesterResult : public AnalysisResult
  {
  public:
    Table          map{"harvester_map", {"resistance_ohm", "frequency_hz", "voltage_V", "current_A", "power_W"}, {}};
    Table          peaks{"harvester_peaks", {"resistance_ohm", "frequency_hz", "power_W", "voltage_V"}, {}};
    Table          optimum{"harvester_optimum", {"frequency_hz", "optimal_resistance_ohm", "power_W", "voltage_V"}, {}};
    std::string  electrode;
    bool         average_power = false; ///< else peak |V|^2/R
    unsigned int n_modes       = 0;
    double       base_acceleration_m_s2 = 0;
    /** The reduced model against direct solves at the optimal loads (frequencies_hz empty); a reduced model only. */
    std::optional<ReductionCheck> reduction_check;
    /** Wall time of the R x f map (s); printed, never written to files. */
    double map_seconds = 0;

    void
    print_summary(std::ostream &out) const override;
    void
    add_to_json(nlohmann::json &results) const override;
    std::vector<Table>
    tables() const override
    {
      return {map, peaks, optimum};
    }
  };

  /**
   * The "harvester" analysis: one electrode with a load resistor R under
   * harmonic base acceleration; voltage, current and power over a family of
   * resistances and a frequency range, the maximum-power frequency of each
   * R, and the optimal load and maximum power at chosen frequencies.
   */
  class HarvesterAnalysis : public StructureAnalysis
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

    /** Power (W) into R at omega for the base acceleration (m/s^2). */
    static double
    power(const SpectralModel &model,
          unsigned int         electrode,
          double               resistance,
          double               omega,
          double               base_acceleration,
          std::complex<double> *voltage = nullptr);

    /**
     * The load resistance (Ohm) that takes the most power from the port at
     * omega: |Z_s|, the modulus of the port's source (Thevenin) impedance.
     * The port's voltage is affine in its current, V = V_oc - Z_s I, so
     * P(R) = |V_oc|^2 R / |Z_s + R|^2 has its only maximum at R = |Z_s|;
     * Z_s is the inverse of the port's driving-point admittance. Exact to
     * round-off (a search for the maximum of the flat P(R) resolves R only
     * to sqrt(eps)).
     */
    static double
    optimal_resistance(const SpectralModel &model, unsigned int electrode, double omega);

  private:
    std::string         electrode;
    std::vector<double> resistances;
    FrequencyGrid       grid;
    std::vector<double> frequencies_of_interest;
    double              base_acceleration = g_acceleration;
    double              power_factor      = 1;
    unsigned int        n_modes           = 0;
  };
} // namespace hamilton

#endif
