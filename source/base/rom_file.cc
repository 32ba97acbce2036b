#include <hamilton/base/rom_file.h>

#include <cmath>
#include <fstream>

namespace hamilton
{
  using Matrix = std::vector<std::vector<double>>;

  namespace
  {
    [[noreturn]] void
    fail(const std::string &source, const std::string &field, const std::string &what)
    {
      throw RomError("ROM file '" + source + "': '" + field + "' " + what);
    }
  } // namespace

  nlohmann::json
  ReducedModel::to_json() const
  {
    nlohmann::json j;
    j["format"]  = "hamilton-rom";
    j["version"] = version;
    j["units"]   = units();
    j["n_modes"]                   = size();
    j["n_normal_modes"]            = n_normal_modes;
    j["n_correction_modes"]        = n_correction_modes;
    j["angular_frequencies_rad_s"] = omega;
    std::vector<double> f;
    for (const double w : omega)
      f.push_back(w / (2 * M_PI));
    j["frequencies_hz"]                 = f;
    j["damping_ratios"]                 = damping_ratios;
    j["mass_matrix"]                    = mass;
    j["stiffness_matrix"]               = stiffness;
    j["participation_base_translation"] = participation_translation;
    j["participation_base_rotation"]    = participation_rotation;
    j["rigid_body"] = {{"mass_kg", rigid_mass}, {"first_moment_kg_m", first_moment},
                       {"second_moment_kg_m2", second_moment}};
    j["electrodes"] = nlohmann::json::array();
    for (const auto &e : electrodes)
      j["electrodes"].push_back({{"name", e.name}, {"capacitance_F", e.capacitance}, {"coupling_N_per_V", e.coupling}});
    j["outputs"] = nlohmann::json::array();
    for (const auto &o : outputs)
      j["outputs"].push_back({{"name", o.name}, {"position_m", o.position},
                              {"displacement", o.displacement}, {"slope", o.slope}});
    if (!shape_x.empty())
      j["shape"] = {{"x_m", shape_x}, {"displacement", shape_w}};
    j["geometric_stiffness_unit_axial_force"] = geometric_unit_axial;
    j["geometric_stiffness_rotation"]         = geometric_rotation;
    return j;
  }

  nlohmann::json
  ReducedModel::units()
  {
    return {{"frequency", "rad/s"}, {"mass", "kg"}, {"stiffness", "N/m"}, {"coupling", "N/V"},
            {"capacitance", "F"}, {"length", "m"}, {"geometric_rotation", "per (rad/s)^2"}};
  }

  ReducedModel
  ReducedModel::from_json(const nlohmann::json &j, const std::string &source)
  {
    if (j.value("format", std::string()) != "hamilton-rom")
      fail(source, "format", "is not 'hamilton-rom': this is not a Hamilton ROM file.");
    if (!j.contains("version") || j["version"] != version)
      fail(source, "version", "= " + (j.contains("version") ? j["version"].dump() : std::string("missing")) +
                                  ": this Hamilton reads version " + std::to_string(version) +
                                  ". Export the ROM again with this version.");
    if (j.value("units", nlohmann::json()) != units())
      fail(source, "units", "= " + j.value("units", nlohmann::json()).dump() + ": this Hamilton reads SI, " +
                              units().dump() + ". Convert the file or export it again.");
    ReducedModel rom;
    try
      {
        rom.n_normal_modes     = j.at("n_normal_modes");
        rom.n_correction_modes = j.at("n_correction_modes");
        rom.omega              = j.at("angular_frequencies_rad_s").get<std::vector<double>>();
        rom.damping_ratios     = j.at("damping_ratios").get<std::vector<double>>();
        rom.mass               = j.at("mass_matrix").get<Matrix>();
        rom.stiffness          = j.at("stiffness_matrix").get<Matrix>();
        rom.participation_translation = j.at("participation_base_translation").get<std::vector<double>>();
        rom.participation_rotation    = j.at("participation_base_rotation").get<std::vector<double>>();
        rom.rigid_mass    = j.at("rigid_body").at("mass_kg");
        rom.first_moment  = j.at("rigid_body").at("first_moment_kg_m");
        rom.second_moment = j.at("rigid_body").at("second_moment_kg_m2");
        for (const auto &e : j.at("electrodes"))
          rom.electrodes.push_back({e.at("name"), e.at("capacitance_F"), e.at("coupling_N_per_V").get<std::vector<double>>()});
        for (const auto &o : j.at("outputs"))
          rom.outputs.push_back({o.at("name"), o.at("position_m"),
                                 o.at("displacement").get<std::vector<double>>(),
                                 o.at("slope").get<std::vector<double>>()});
        if (j.contains("shape"))
          {
            rom.shape_x = j["shape"].at("x_m").get<std::vector<double>>();
            rom.shape_w = j["shape"].at("displacement").get<Matrix>();
          }
        rom.geometric_unit_axial = j.at("geometric_stiffness_unit_axial_force").get<Matrix>();
        rom.geometric_rotation   = j.at("geometric_stiffness_rotation").get<Matrix>();
      }
    catch (const nlohmann::json::exception &e)
      {
        throw RomError("ROM file '" + source + "': a field is missing or has the wrong type (" +
                       e.what() + "). The file may be truncated; export it again.");
      }
    const unsigned int n = rom.omega.size();
    if (n == 0)
      fail(source, "angular_frequencies_rad_s", "is empty: the ROM has no modes.");
    if (j.value("n_modes", 0u) != n || rom.n_normal_modes + rom.n_correction_modes != n)
      fail(source, "n_modes", "disagrees with the " + std::to_string(n) + " frequencies given.");
    const auto check_vector = [&](const std::vector<double> &v, const char *field) {
      if (v.size() != n)
        fail(source, field, "has " + std::to_string(v.size()) + " entries, expected " + std::to_string(n) + " (one per mode).");
    };
    const auto check_matrix = [&](const Matrix &A, const char *field) {
      if (A.size() != n)
        fail(source, field, "has " + std::to_string(A.size()) + " rows, expected " + std::to_string(n) + ".");
      for (unsigned int i = 0; i < n; ++i)
        {
          if (A[i].size() != n)
            fail(source, field, "row " + std::to_string(i + 1) + " has " + std::to_string(A[i].size()) +
                                  " entries, expected " + std::to_string(n) + ".");
          for (unsigned int k = 0; k < i; ++k)
            if (std::abs(A[i][k] - A[k][i]) > 1e-10 * (std::abs(A[i][k]) + std::abs(A[k][i])) + 1e-300)
              fail(source, field, "is not symmetric: entries (" + std::to_string(i + 1) + "," +
                                    std::to_string(k + 1) + ") and (" + std::to_string(k + 1) + "," +
                                    std::to_string(i + 1) + ") differ.");
        }
    };
    check_vector(rom.damping_ratios, "damping_ratios");
    check_vector(rom.participation_translation, "participation_base_translation");
    check_vector(rom.participation_rotation, "participation_base_rotation");
    check_matrix(rom.mass, "mass_matrix");
    check_matrix(rom.stiffness, "stiffness_matrix");
    check_matrix(rom.geometric_unit_axial, "geometric_stiffness_unit_axial_force");
    check_matrix(rom.geometric_rotation, "geometric_stiffness_rotation");
    for (unsigned int i = 0; i < n; ++i)
      if (!(rom.mass[i][i] > 0))
        fail(source, "mass_matrix", "has a non-positive diagonal entry " + std::to_string(rom.mass[i][i]) +
                                      " (mode " + std::to_string(i + 1) + "): masses must be positive.");
    // the coordinates must be modal: M = I, K = diag(omega^2)
    double k_max = 0;
    for (const double w : rom.omega)
      k_max = std::max(k_max, w * w);
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int k = 0; k < n; ++k)
        {
          if (std::abs(rom.mass[i][k] - (i == k ? 1. : 0.)) > 1e-8)
            fail(source, "mass_matrix", "entry (" + std::to_string(i + 1) + "," + std::to_string(k + 1) + ") = " +
                                          std::to_string(rom.mass[i][k]) +
                                          ": the coordinates are not mass-normalized modes (M = I expected).");
          const double expected = i == k ? rom.omega[i] * rom.omega[i] : 0.;
          if (std::abs(rom.stiffness[i][k] - expected) > 1e-8 * k_max)
            fail(source, "stiffness_matrix", "entry (" + std::to_string(i + 1) + "," + std::to_string(k + 1) +
                                               ") disagrees with diag(omega^2) of 'angular_frequencies_rad_s'.");
        }
    if (!(rom.rigid_mass > 0))
      fail(source, "rigid_body/mass_kg", "must be positive.");
    for (const auto &e : rom.electrodes)
      {
        check_vector(e.coupling, "electrodes/coupling_N_per_V");
        if (!(e.capacitance > 0))
          fail(source, "electrodes/capacitance_F", "of '" + e.name + "' must be positive.");
      }
    for (const auto &o : rom.outputs)
      {
        check_vector(o.displacement, "outputs/displacement");
        check_vector(o.slope, "outputs/slope");
      }
    if (rom.shape_w.size() != rom.shape_x.size())
      fail(source, "shape/displacement", "has " + std::to_string(rom.shape_w.size()) + " rows for " +
                                           std::to_string(rom.shape_x.size()) + " points of 'shape/x_m'.");
    for (const auto &row : rom.shape_w)
      check_vector(row, "shape/displacement");
    return rom;
  }

  ReducedModel
  ReducedModel::read(const std::string &filename)
  {
    std::ifstream in(filename);
    if (!in)
      throw RomError("Cannot open ROM file '" + filename + "'. Check the path.");
    nlohmann::json j;
    try
      {
        in >> j;
      }
    catch (const nlohmann::json::exception &e)
      {
        throw RomError("ROM file '" + filename + "' is not valid JSON (" + e.what() +
                       "); it may be truncated. Export it again.");
      }
    return from_json(j, filename);
  }
} // namespace hamilton
