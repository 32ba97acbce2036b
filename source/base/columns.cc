#include <hamilton/base/columns.h>
#include <hamilton/base/files.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <map>

namespace hamilton
{
  namespace
  {
    bool
    ends_with(const std::string &text, const std::string &suffix)
    {
      return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
    }

    const std::string power_meaning =
      "electrical power in the load at the run's excitation amplitude: peak |V|^2 Re(Y) by default, the cycle "
      "average (half of it) with 'Power = average' (results.json says which)";
  } // namespace

  ColumnDescription
  describe_column(const std::string &name)
  {
    // whole names first
    static const std::vector<ColumnDescription> exact{
      {"index", "1", "number of the mode (from 1, by increasing frequency)"},
      {"frequency_hz", "Hz", "frequency"},
      {"frequency_open_circuit_hz", "Hz", "frequency of the mode with every electrode in open circuit"},
      {"k_eff", "1", "effective electromechanical coupling sqrt((f_oc^2 - f_sc^2)/f_oc^2)"},
      {"eigenvalue_1_s2", "1/s^2", "eigenvalue omega^2 (negative: unstable, buckled)"},
      {"participation", "kg^1/2", "participation phi^T M r of the mass-normalized mode in a rigid base translation"},
      {"effective_mass_kg", "kg", "effective modal mass (participation^2)"},
      {"roundoff_estimate", "1", "estimated relative round-off error of the eigenvalue"},
      {"x_m", "m", "position along the beam"},
      {"w_m", "m", "deflection"},
      {"slope_rad", "rad", "slope w' of the deflection"},
      {"curvature_1_m", "1/m", "curvature w''"},
      {"bending_moment_Nm", "N m", "bending moment"},
      {"load_factor", "1", "critical load factor: the applied axial loads times it buckle the beam"},
      {"normal_mode", "1", "1: a normal mode of the ROM, 0: a static-correction coordinate"},
      {"damping_ratio", "1", "modal damping ratio"},
      {"participation_translation", "kg", "participation of the ROM coordinate in a rigid base translation"},
      {"participation_rotation", "kg m", "participation of the ROM coordinate in a rigid base rotation"},
      {"resistance_ohm", "Ohm", "load resistance"},
      {"optimal_resistance_ohm", "Ohm", "load resistance of the largest power at this frequency"},
      {"voltage_V", "V", "voltage amplitude across the load at the run's excitation amplitude"},
      {"current_A", "A", "current amplitude through the load at the run's excitation amplitude"},
      {"power_W", "W", power_meaning},
      {"short_circuit_m_N", "m/N", "tip receptance |w/F| with the electrode short-circuited"},
      {"open_circuit_m_N", "m/N", "tip receptance |w/F| with the electrode open"},
      {"hvf_m_N", "m/N", "tip receptance |w/F| with the RL shunt tuned by Hagood and von Flotow"},
      {"optimum_m_N", "m/N", "tip receptance |w/F| with the equal-peak optimal RL shunt"},
    };
    for (const auto &c : exact)
      if (c.name == name)
        return c;
    // a point's, electrode's or mode's name, then a suffix with the unit
    static const std::vector<ColumnDescription> suffixes{
      {"_w_rel_phase_deg", "deg", "phase of the deflection relative to the base, against the excitation"},
      {"_w_rel_m", "m", "amplitude of the deflection relative to the base at the run's excitation amplitude"},
      {"_w_abs_m", "m", "amplitude of the absolute deflection (base motion included)"},
      {"_v_rel_m_s", "m/s", "amplitude of the velocity relative to the base"},
      {"_v_abs_m_s", "m/s", "amplitude of the absolute velocity"},
      {"_V_phase_deg", "deg", "phase of the electrode's voltage against the excitation"},
      {"_V_V", "V", "amplitude of the electrode's voltage at the run's excitation amplitude"},
      {"_I_A", "A", "amplitude of the electrode's current"},
      {"_power_W", "W", power_meaning},
      {"_w_full_m", "m", "deflection amplitude per unit base acceleration (m/s^2), full model"},
      {"_w_rom_m", "m", "deflection amplitude per unit base acceleration (m/s^2), reduced model"},
      {"_V_full_V", "V", "voltage amplitude per unit base acceleration (m/s^2), full model"},
      {"_V_rom_V", "V", "voltage amplitude per unit base acceleration (m/s^2), reduced model"},
      {"_relative_difference", "1", "|ROM - full| / |full|"},
      {"_N_per_V", "N/V", "modal coupling chi of the electrode (per unit ROM coordinate)"},
    };
    for (const auto &c : suffixes)
      if (ends_with(name, c.name) && name.size() > c.name.size())
        return {name, c.unit, name.substr(0, name.size() - c.name.size()) + ": " + c.meaning};
    static const std::vector<std::pair<std::string, ColumnDescription>> prefixes{
      {"w_mode_", {"", "kg^-1/2", "deflection of the mass-normalized mode shape (phi^T M phi = 1) of mode "}},
      {"frequency_hz_mode_", {"", "Hz", "frequency of mode "}},
    };
    for (const auto &[prefix, c] : prefixes)
      if (name.rfind(prefix, 0) == 0)
        return {name, c.unit, c.meaning + name.substr(prefix.size())};
    if (name.find('/') != std::string::npos) // a sweep's parameter: the path of an entry
      return {name, unit_of_entry(name), "the value of the entry '" + name + "'"};
    return {name, "", ""};
  }

  std::string
  unit_from_suffix(const std::string &name)
  {
    static const std::vector<std::pair<std::string, std::string>> suffixes{
      {"_rad_s", "rad/s"}, {"_N_per_V", "N/V"}, {"_m_s2", "m/s^2"}, {"_hz", "Hz"}, {"_ohm", "Ohm"},
      {"_rpm", "rpm"},     {"_Nm2", "N m^2"},   {"_Nm", "N m"},     {"_kg_m", "kg/m"}, {"_kg", "kg"},
      {"_rad", "rad"},     {"_W", "W"},         {"_V", "V"},        {"_A", "A"},     {"_J", "J"},
      {"_F", "F"},         {"_C", "C"},         {"_N", "N"},        {"_s", "s"},     {"_m", "m"}};
    for (const auto &[suffix, unit] : suffixes)
      if (name.size() > suffix.size() && ends_with(name, suffix))
        return unit;
    return "";
  }

  std::string
  unit_of_entry(const std::string &path)
  {
    static const std::map<std::string, std::string> units{
      {"Resistance", "Ohm"},       {"Inductance", "H"},         {"Capacitance", "F"},     {"Thickness", "m"},
      {"Width", "m"},              {"Length", "m"},             {"Start", "m"},           {"End", "m"},
      {"Position", "m"},           {"Mass", "kg"},              {"Density", "kg/m^3"},    {"Young's modulus", "Pa"},
      {"Minimum frequency", "Hz"}, {"Maximum frequency", "Hz"}, {"Frequency", "Hz"},      {"Axial force", "N"}};
    const auto found = units.find(path.substr(path.rfind('/') + 1));
    return found == units.end() ? "" : found->second;
  }

  void
  write_column_descriptions(const std::string &csv_filename, const std::vector<ColumnDescription> &columns)
  {
    nlohmann::json list = nlohmann::json::array();
    for (const auto &c : columns)
      list.push_back({{"name", c.name}, {"unit", c.unit}, {"meaning", c.meaning}});
    const nlohmann::json j{{"format", "hamilton-columns"},
                           {"version", 1},
                           {"file", std::filesystem::path(csv_filename).filename().string()},
                           {"unit_convention", "SI; '1': dimensionless; '': unknown"},
                           {"columns", list}};
    write_file(csv_filename + ".columns.json", [&](std::ostream &out) { out << std::setw(2) << j << "\n"; });
  }

  const std::vector<std::string> &
  known_units()
  {
    static const std::vector<std::string> units{
      "1",     "m",   "rad", "C",      "Wb",    "A",     "V",      "W",    "J",     "N",     "N m",
      "s",     "Hz",  "kg",  "kg m^2", "m/s",   "rad/s", "m/s^2",  "rad/s^2", "Ohm", "F",   "H",
      "Pa",    "K",   "deg", "rpm",    "N/V",   "m/N",   "V/(m/s^2)", "W/(m/s^2)^2", "kg^1/2 m"};
    return units;
  }

  bool
  is_known_unit(const std::string &unit)
  {
    const auto &u = known_units();
    return std::find(u.begin(), u.end(), unit) != u.end();
  }

  std::string
  rate_unit(const std::string &unit)
  {
    if (unit.empty())
      return "";
    if (unit == "1")
      return "1/s";
    if (unit == "C")
      return "A";
    if (unit == "Wb")
      return "V";
    if (unit == "m/s" || unit == "rad/s")
      return unit + "^2";
    return unit.find(' ') != std::string::npos || unit.find('/') != std::string::npos ? "(" + unit + ")/s" :
                                                                                        unit + "/s";
  }
} // namespace hamilton
