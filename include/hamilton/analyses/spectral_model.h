#ifndef hamilton_analyses_spectral_model_h
#define hamilton_analyses_spectral_model_h

#include <hamilton/analyses/analysis.h>

#include <complex>
#include <limits>
#include <optional>
#include <functional>
#include <string>
#include <vector>

namespace hamilton
{
  struct ReducedModel;

  /**
   * A point where a structure's displacement is read and where a point force
   * may act: on a beam a position x (m) along it, on a continuum one of its
   * named output points (a point and a direction, 'Continuum/Output points').
   * The user writes 'name: x' or 'x' for a beam, and the name for a continuum.
   */
  struct OutputPoint
  {
    std::string name;
    double      x = std::numeric_limits<double>::quiet_NaN(); ///< m; NaN: named only

    bool
    has_position() const
    {
      return x == x;
    }
  };

  /** An electrode with a port and the circuit the parameter file gives it. */
  struct ElectricalPort
  {
    std::string      name;
    ElectrodeCircuit circuit    = ElectrodeCircuit::short_circuit;
    double           voltage    = 0; ///< V, when prescribed
    double           resistance = 0; ///< Ohm (resistor, RL shunts)
    double           inductance = 0; ///< H (RL shunts)
  };


  /**
   * The steady-state electromechanics of a discretized beam in the basis of
   * its short-circuit modes (K [+ K_g], M). With all modes kept it is the
   * full finite-element model written in another basis, not a reduction:
   * every frequency response is exact for the discretization. Keeping n
   * modes gives the n-mode (e.g. single-mode) model of the literature.
   *
   * Per frequency omega, with modal coordinates q_r and electrode voltages V_e:
   *   (omega_r^2 - omega^2 + 2 i zeta_r omega_r omega) q_r
   *      = f_r + sum_e chi_re V_e,
   *   i omega (sum_r chi_re q_r + C_e V_e) + Y_e(omega) V_e = 0
   * for electrodes with a load of admittance Y_e (open circuit: Y = 0);
   * short-circuited electrodes have V = 0 and prescribed ones a given V.
   */
  class SpectralModel
  {
  public:
    /**
     * Build from the problem: modes of K [+ K_g] (all if n_modes == 0),
     * damping from the model, couplings and capacitances of the electrodes.
     */
    SpectralModel(const Problem &problem, unsigned int n_modes, bool include_prestress);

    /**
     * Build from a reduced model (its coordinates, couplings and output
     * points); the problem supplies only the electrode circuits. Mode values
     * exist at the ROM's output points only.
     */
    SpectralModel(const Problem &problem, const ReducedModel &rom);

    /**
     * Build from a reduced model of any structure, with the circuits of its
     * ports (in the order of the ROM's electrodes). Mode values exist at the
     * ROM's output points, found by name, or by position within
     * `position_tolerance` (m).
     */
    SpectralModel(const ReducedModel &rom, std::vector<ElectricalPort> ports, double position_tolerance);

    /** What drives the structure. */
    struct Excitation
    {
      double base_acceleration = 0; ///< amplitude (m/s^2)
      double force             = 0; ///< point force amplitude (N)
      double force_position    = 0; ///< m (a beam)
      std::string force_point  = {}; ///< a named output point (a continuum)
      /** phi_r(force_position), if already known (speeds up sweeps). */
      std::vector<double> force_mode_values = {};
    };

    /** Load on electrode e: kind and admittance. */
    struct Circuit
    {
      enum Kind
      {
        short_circuit,
        admittance, ///< includes open circuit (Y = 0)
        prescribed
      } kind = short_circuit;
      std::complex<double> value = 0; ///< Y (S) or V (V)
    };

    /** The circuits the parameter file gives the electrodes, at omega. */
    std::vector<Circuit>
    circuits_of_model(double omega) const;

    /** The steady state at omega (rad/s). */
    struct State
    {
      std::vector<std::complex<double>> q; ///< modal amplitudes
      std::vector<std::complex<double>> V; ///< electrode voltages (V)
      std::vector<std::complex<double>> I; ///< current into each load (A)
    };
    State
    solve(double                      omega,
          const Excitation           &excitation,
          const std::vector<Circuit> &circuits) const;

    /**
     * phi_r(x) of every mode (m per unit modal coordinate). A model built
     * from a ROM knows its output points only; another x throws.
     */
    std::vector<double>
    mode_values(double x) const;

    /** phi_r at a point: its position if it has one, else its name. */
    std::vector<double>
    mode_values(const OutputPoint &point) const;

    /** Relative deflection amplitude (m) from mode values at a point. */
    static std::complex<double>
    deflection(const State &state, const std::vector<double> &mode_values);

    /**
     * Angular frequencies (rad/s) with the electrodes flagged in `open` in
     * open circuit: eigenvalues of diag(omega_r^2) + sum_e chi_e chi_e^T/C_e.
     * With all modes kept this is the exact condensed value of the full
     * model; with one mode, the single-mode estimate omega (1 + gamma)^1/2.
     */
    std::vector<double>
    open_circuit_omega(const std::vector<bool> &open) const;

    unsigned int
    n_modes() const
    {
      return omega.size();
    }

    std::vector<double> omega;         ///< rad/s, short circuit
    std::vector<double> zeta;          ///< damping ratios
    std::vector<double> participation; ///< phi_r^T M r (base translation)
    std::vector<std::vector<double>> chi; ///< chi[e][r] = phi_r . coupling_e
    std::vector<double>              capacitance;
    std::vector<std::string>         electrode_names;

    std::vector<ElectricalPort>                ports; ///< circuits, in the order of chi

  private:
    /** The beam whose modes these are (their values along x); or none. */
    std::optional<Problem>              problem;
    double                              position_tolerance = 0;
    std::vector<dealii::Vector<double>> shapes;
    /** Of a ROM: output points and the mode values there. */
    std::vector<std::pair<OutputPoint, std::vector<double>>> point_values;
  };

  /**
   * The maximum of a unimodal function on [a, b] by golden-section search,
   * to a relative interval width `tolerance`. Returns the argument.
   */
  double
  maximize_unimodal(const std::function<double(double)> &f,
                    double                               a,
                    double                               b,
                    double                               tolerance = 1e-10);

  /** The admittance Y(omega) (S) of a resistor or RL shunt of a port. */
  std::complex<double>
  load_admittance(const ElectricalPort &port, double omega);

  /** The port of a beam electrode (its name and circuit). */
  ElectricalPort
  port_of(const Electrode &electrode);

  /** Standard gravity as used by the harvester literature (m/s^2). */
  constexpr double g_acceleration = 9.81;
} // namespace hamilton

#endif
