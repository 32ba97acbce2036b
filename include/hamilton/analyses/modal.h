#ifndef hamilton_analyses_modal_h
#define hamilton_analyses_modal_h

#include <hamilton/analyses/analysis.h>
#include <hamilton/analyses/eigensolver.h>

namespace hamilton
{
  /** Result of a modal analysis: the lowest n modes of (K [+ K_g]) x = w^2 M x. */
  class ModalResult : public AnalysisResult
  {
  public:
    struct Mode
    {
      unsigned int index = 0;
      /** Eigenvalue omega^2 (1/s^2); negative means unstable (buckled). */
      double eigenvalue = 0;
      /** f = sqrt(omega^2)/(2 pi) (Hz); -sqrt(-omega^2)/(2 pi) if unstable. */
      double frequency_hz = 0;
      /** phi^T M r for a rigid unit base translation r (kg^(1/2)). */
      double participation = 0;
      /** participation^2 (kg). */
      double effective_mass = 0;
      /** True for a rigid-body mode (|omega^2| below round-off). */
      bool rigid_body = false;
      /** Estimated relative round-off error of the eigenvalue. */
      double roundoff_estimate = 0;
      /** Mass-normalized mode, phi^T M phi = 1, free unknowns. */
      dealii::Vector<double> shape;

      /**
       * With electrodes: the frequency of the same mode with every electrode
       * in open circuit (exact condensation, Hz) and the effective coupling
       * k_eff = sqrt((f_oc^2 - f_sc^2)/f_oc^2).
       */
      double frequency_open_circuit_hz = 0;
      double k_eff                     = 0;

      /** Per electrode: modal coupling and the mode with only it open. */
      struct ElectrodeCoupling
      {
        /** chi = phi^T coupling (N/V per unit modal coordinate). */
        double modal_coupling = 0;
        /** gamma = chi^2/(C omega_sc^2) (Erturk and Inman's coupling). */
        double gamma = 0;
        /** Frequency with only this electrode open (Hz) and its k_eff. */
        double frequency_open_circuit_hz = 0;
        double k_eff                     = 0;
      };
      std::vector<ElectrodeCoupling> electrodes;
    };

    std::vector<Mode> modes;
    /** Names and capacitances (F) of the electrodes, if any. */
    std::vector<std::pair<std::string, double>> capacitances;
    std::string       backend;
    bool              with_prestress = false;
    double            rigid_mass     = 0;
    /** Sampled shapes for tables: x and w of every mode at these points. */
    std::vector<double>              x;
    std::vector<std::vector<double>> w;

    void
    print_summary(std::ostream &out) const override;
    void
    add_to_json(nlohmann::json &results) const override;
    std::vector<Table>
    tables() const override;
    std::vector<std::pair<std::string, std::vector<Field>>>
    fields() const override;
  };

  /** Options of a modal analysis. */
  struct ModalOptions
  {
    unsigned int       n_modes         = 6;
    EigensolverBackend backend         = EigensolverBackend::automatic;
    bool               include_prestress = true;
    /** Warn when a mode's estimated round-off error exceeds this. */
    double roundoff_warning = 1e-6;
    unsigned int samples_per_element = 8;
  };

  /**
   * Compute the lowest modes (the work of the modal analysis, callable from
   * sweeps and tests).
   */
  std::unique_ptr<ModalResult>
  compute_modes(const Problem &problem, const ModalOptions &options);

  /** The "modal" analysis: frequencies, mass-normalized modes, participation. */
  class ModalAnalysis : public Analysis
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

    ModalOptions options;
  };
} // namespace hamilton

#endif
