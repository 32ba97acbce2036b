#ifndef hamilton_base_rom_file_h
#define hamilton_base_rom_file_h

#include <hamilton/base/input.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace hamilton
{
  /**
   * A reduced modal model with electrical ports, the hand-off from the beam
   * solver to lumped simulations (file format "hamilton-rom", version 1, SI
   * units; see doc/reduced-models.md). Coordinates q: the modal basis is mass-normalized
   * (mass matrix I) and diagonalizes the stiffness (omega^2).
   */
  struct ReducedModel
  {
    static constexpr int version = 1;

    unsigned int        n_normal_modes     = 0; ///< short-circuit modes kept
    unsigned int        n_correction_modes = 0; ///< static corrections added
    std::vector<double> omega;                  ///< rad/s, size n
    std::vector<double> damping_ratios;         ///< size n
    std::vector<std::vector<double>> mass, stiffness; ///< n x n (kg, N/m)
    std::vector<double> participation_translation;    ///< phi^T M r (kg^1/2)
    std::vector<double> participation_rotation;       ///< phi^T M r_theta (kg^1/2 m)
    double              rigid_mass = 0, first_moment = 0, second_moment = 0; ///< about the root
    struct Electrode
    {
      std::string         name;
      double              capacitance = 0; ///< F
      std::vector<double> coupling;        ///< N/V per modal coordinate
    };
    std::vector<Electrode> electrodes;
    struct Output
    {
      std::string         name;
      double              position = 0;
      std::vector<double> displacement, slope; ///< per modal coordinate
    };
    std::vector<Output> outputs;
    /**
     * Optional (for drawings): the deflection of every modal coordinate at
     * points along the beam, shape_w[point][coordinate] at shape_x[point] (m).
     */
    std::vector<double>              shape_x;
    std::vector<std::vector<double>> shape_w;
    /**
     * Whether the rotation data (participation_rotation, the moments,
     * geometric_rotation, geometric_unit_axial) describe the structure: true
     * for beams; false for a continuum, whose ROM has zeros there and must not
     * turn with a root angle (file key "base_rotation_available", true if
     * absent).
     */
    bool base_rotation_available = true;
    /** Projected K_g for N0 = 1 N and for rotation (N0 per (rad/s)^2). */
    std::vector<std::vector<double>> geometric_unit_axial, geometric_rotation;

    unsigned int
    size() const
    {
      return omega.size();
    }

    nlohmann::json
    to_json() const;

    /** The units of the fields (SI), written to and required in the file. */
    static nlohmann::json
    units();

    /** Read and validate (version, sizes, symmetry, positive masses). */
    static ReducedModel
    from_json(const nlohmann::json &json, const std::string &source);
    static ReducedModel
    read(const std::string &filename);
  };

  /** Error in a ROM file: names the file, the field and what is wrong. */
  class RomError : public InputError
  {
  public:
    using InputError::InputError;
  };

} // namespace hamilton

#endif
