#ifndef hamilton_rom_state_space_h
#define hamilton_rom_state_space_h

#include <hamilton/beam/beam_model.h>
#include <hamilton/rom/reduced_model.h>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace hamilton
{
  /**
   * A port of the state-space model: "base acceleration", or a kind and a
   * target, e.g. {"voltage", "harvester"}, {"displacement", "tip"}.
   */
  struct Port
  {
    std::string kind;
    std::string target;
    std::string
    name() const
    {
      return target.empty() ? kind : kind + ": " + target;
    }
  };

  /**
   * x' = A x + B u, y = C x + D u of a reduced model with its electrode
   * circuits. States: modal coordinates q, their rates, the voltage of every
   * electrode that is neither short-circuited nor driven, the inductor
   * current of every RL shunt. Inputs (SI): base acceleration (m/s^2),
   * voltage of a driven electrode (V), current injected into an electrode
   * (A), point force at an output point (N). Outputs: displacement, velocity
   * (relative to the base) and slope at output points, electrode voltage,
   * charge, and current into the electrode's load.
   */
  struct StateSpace
  {
    std::vector<std::string> states, inputs, outputs; ///< names with units
    Eigen::MatrixXd          A, B, C, D;

    /** H(i omega) = C (i omega I - A)^-1 B + D. */
    Eigen::MatrixXcd
    transfer(double omega) const;

    nlohmann::json
    to_json() const;
  };

  /**
   * Parse "base acceleration, voltage: drive, displacement: tip" into ports;
   * throws InputError naming `section` and `entry`.
   */
  std::vector<Port>
  parse_ports(const std::string &text,
              const std::string &section,
              const std::string &entry,
              const std::vector<std::string> &allowed_kinds);

  /**
   * Build the state space. `circuits` holds the beam model's electrodes in
   * the order of the ROM's. Throws InputError (naming `section`) for a port
   * whose target is unknown or whose circuit does not allow it.
   */
  StateSpace
  build_state_space(const ReducedModel            &rom,
                    const std::vector<Electrode>  &circuits,
                    const std::vector<Port>       &inputs,
                    const std::vector<Port>       &outputs,
                    const std::string             &section);
} // namespace hamilton

#endif
