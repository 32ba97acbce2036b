#ifndef hamilton_analyses_structure_h
#define hamilton_analyses_structure_h

#include <hamilton/analyses/spectral_model.h>

#include <complex>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hamilton
{
  /**
   * A discretized structure with electrical ports, as the analyses that work
   * in a modal basis see it (doc/layout.md, "Structures with electrical ports"):
   * frequency response, harvester study and RL shunt are written once
   * against this interface. The beam (finite elements or assumed modes)
   * offers its complete modal basis, in which every response is exact for
   * the discretization; the continuum offers its reduced model (modes and
   * static corrections) and a direct solve of the full model at single
   * frequencies that checks the reduction.
   */
  class Structure
  {
  public:
    virtual ~Structure() = default;

    /** "beam" or "continuum", for messages. */
    virtual std::string
    noun() const = 0;

    /** The subsection where its electrodes are declared, for messages. */
    virtual std::string
    electrodes_path() const = 0;

    /** Its electrodes with a port, in the order of the modal couplings. */
    virtual std::vector<ElectricalPort>
    ports() const = 0;

    /**
     * Throw an InputError naming `path` and 'Number of modes' if the
     * structure cannot give `n_modes` modal coordinates (0: all it has).
     */
    virtual void
    check_modes(unsigned int n_modes, const std::string &path) const = 0;

    /** The number of coordinates spectral_model(n_modes, ...) has. */
    virtual unsigned int
    n_coordinates(unsigned int n_modes) const = 0;

    /** Its steady-state model in a modal basis (n_modes = 0: all it has). */
    virtual SpectralModel
    spectral_model(unsigned int n_modes, bool include_prestress) const = 0;

    /**
     * The point moved onto the structure (a beam's end within its position
     * tolerance) after checking it; a point that does not exist throws an
     * InputError naming `path` and `entry`.
     */
    virtual OutputPoint
    resolve(const OutputPoint &point, const std::string &path, const std::string &entry) const = 0;

    /** The point a driving-point analysis uses by default (a beam's free end). */
    virtual OutputPoint
    default_point(const std::string &path, const std::string &entry) const = 0;

    /** Warnings about its electrodes (couplings that cancel). */
    virtual std::vector<std::string>
    warnings() const
    {
      return {};
    }

    /** True if the couplings of electrode `name` cancel (it cannot harvest). */
    virtual bool
    coupling_cancels(const std::string & /*name*/) const
    {
      return false;
    }

    /**
     * The exact short- and open-circuit frequencies (Hz) of mode 1 with port
     * `port` open and the others as their circuits leave them, where the
     * structure knows them better than its spectral model; none otherwise.
     */
    virtual std::optional<std::pair<double, double>>
    first_mode_frequencies(unsigned int /*port*/) const
    {
      return {};
    }

    /** The undamped steady state of the full model at one frequency. */
    struct DirectResponse
    {
      std::vector<std::complex<double>> V;      ///< port voltages (V)
      std::vector<std::complex<double>> points; ///< displacement at the points (m)
    };

    /**
     * Whether the spectral model is a reduction that direct_response() can
     * check (a continuum's ROM), or exact for the discretization (a beam in
     * its complete modal basis).
     */
    virtual bool
    is_reduced() const
    {
      return false;
    }

    /**
     * The full model's undamped response at omega (rad/s) to `excitation`
     * with `circuits` on the ports, at `points` (resolved): a direct solve,
     * to verify a reduced spectral model. Only for is_reduced() structures.
     */
    virtual DirectResponse
    direct_response(double                                     omega,
                    const SpectralModel::Excitation           &excitation,
                    const std::vector<SpectralModel::Circuit> &circuits,
                    const std::vector<OutputPoint>            &points) const;
  };

  /** The beam of a problem as a Structure (its complete modal basis). */
  std::unique_ptr<Structure>
  beam_structure(const Problem &problem);

  /**
   * An analysis written on a Structure, so that it runs on a beam and on a
   * continuum alike: check_on() and run_on() do the work; on a beam, check()
   * and run() call them with beam_structure().
   */
  class StructureAnalysis : public Analysis
  {
  public:
    void
    check(const Problem &problem) const final;
    std::unique_ptr<AnalysisResult>
    run(const Problem &problem) const final;

    virtual void
    check_on(const Structure &structure) const = 0;
    virtual std::unique_ptr<AnalysisResult>
    run_on(const Structure &structure) const = 0;
  };

  /**
   * "tip: 0.1, mid: 0.05, tip_z" -> points: 'name: x' or a bare number (a
   * beam position, which names itself), or a bare name (a continuum's output
   * point). Positions must be finite and >= 0; whether a point exists is
   * checked by Structure::resolve() once the structure is known.
   */
  std::vector<OutputPoint>
  parse_points(Section &section, const std::string &entry);

  /** One point entry ('name: x', 'x' or 'name'); empty text gives no point. */
  std::optional<OutputPoint>
  parse_point(Section &section, const std::string &entry);
} // namespace hamilton

#endif
