#include <hamilton/base/rom_file.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace hamilton
{
  using Matrix = std::vector<std::vector<double>>;

  namespace
  {
    // A number to 17 significant digits (the library of this file does not
    // link the beam model's formatter).
    std::string
    format_number(double value)
    {
      std::ostringstream s;
      s << std::setprecision(17) << value;
      return s.str();
    }

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
    j["base_rotation_available"]              = base_rotation_available;
    return j;
  }

  nlohmann::json
  ReducedModel::units()
  {
    return {{"frequency", "rad/s"}, {"mass", "kg"}, {"stiffness", "N/m"}, {"coupling", "N/V"},
            {"capacitance", "F"}, {"length", "m"}, {"geometric_rotation", "per (rad/s)^2"}};
  }

  namespace
  {
    // Typed access to the fields of a ROM file: a missing field or one of the
    // wrong JSON type fails with the file, the field, what was found and what
    // is expected.
    class Reader
    {
    public:
      Reader(const std::string &source)
        : source(source)
      {}

      const nlohmann::json &
      field(const nlohmann::json &object, const std::string &key, const std::string &name) const
      {
        if (!object.is_object())
          fail(source, name, "cannot be read: its parent is " + type_of(object) + ", not a JSON object.");
        if (!object.contains(key))
          fail(source, name, "is missing. The file may be truncated or not written by Hamilton; export it again.");
        return object.at(key);
      }

      double
      number(const nlohmann::json &object, const std::string &key, const std::string &name) const
      {
        const auto &value = field(object, key, name);
        if (!value.is_number())
          wrong_type(name, value, "a number");
        const double x = value.get<double>();
        if (!std::isfinite(x))
          fail(source, name, "= " + value.dump() + " is not a finite number.");
        return x;
      }

      unsigned int
      count(const nlohmann::json &object, const std::string &key, const std::string &name) const
      {
        const auto &value = field(object, key, name);
        if (!value.is_number_integer() || value.get<long long>() < 0 || value.get<long long>() > 1000000)
          wrong_type(name, value, "a whole number between 0 and 1000000");
        return value.get<unsigned int>();
      }

      std::string
      text(const nlohmann::json &object, const std::string &key, const std::string &name) const
      {
        const auto &value = field(object, key, name);
        if (!value.is_string())
          wrong_type(name, value, "a string");
        return value.get<std::string>();
      }

      std::vector<double>
      vector(const nlohmann::json &value, const std::string &name) const
      {
        if (!value.is_array())
          wrong_type(name, value, "an array of numbers");
        std::vector<double> v;
        for (const auto &x : value)
          {
            if (!x.is_number())
              wrong_type(name + "[" + std::to_string(v.size()) + "]", x, "a number");
            v.push_back(x.get<double>());
            if (!std::isfinite(v.back()))
              fail(source, name, "holds a number that is not finite.");
          }
        return v;
      }

      std::vector<double>
      vector(const nlohmann::json &object, const std::string &key, const std::string &name) const
      {
        return vector(field(object, key, name), name);
      }

      Matrix
      matrix(const nlohmann::json &object, const std::string &key, const std::string &name) const
      {
        const auto &value = field(object, key, name);
        if (!value.is_array())
          wrong_type(name, value, "an array of rows (arrays of numbers)");
        Matrix A;
        for (const auto &row : value)
          A.push_back(vector(row, name + " row " + std::to_string(A.size() + 1)));
        return A;
      }

      const nlohmann::json &
      array(const nlohmann::json &object, const std::string &key, const std::string &name) const
      {
        const auto &value = field(object, key, name);
        if (!value.is_array())
          wrong_type(name, value, "an array");
        return value;
      }

      static std::string
      type_of(const nlohmann::json &value)
      {
        return std::string(value.is_array() ? "an " : "a ") + value.type_name();
      }

    private:
      std::string source;

      [[noreturn]] void
      wrong_type(const std::string &name, const nlohmann::json &value, const std::string &expected) const
      {
        std::string shown = value.dump();
        if (shown.size() > 40)
          shown = shown.substr(0, 37) + "...";
        fail(source, name, "= " + shown + " is " + type_of(value) + "; it must be " + expected +
                             ". Export the ROM again, or correct the field.");
      }
    };
  } // namespace

  ReducedModel
  ReducedModel::from_json(const nlohmann::json &j, const std::string &source)
  {
    const Reader read(source);
    if (!j.is_object())
      throw RomError("ROM file '" + source + "' holds " + Reader::type_of(j) +
                     ", not a JSON object with 'format' = \"hamilton-rom\": this is not a Hamilton ROM file.");
    if (!j.contains("format") || !j["format"].is_string() || j["format"].get<std::string>() != "hamilton-rom")
      fail(source, "format",
           (j.contains("format") ? "= " + j["format"].dump() : std::string("is missing")) +
             ", not \"hamilton-rom\": this is not a Hamilton ROM file.");
    if (!j.contains("version") || j["version"] != version)
      fail(source, "version", "= " + (j.contains("version") ? j["version"].dump() : std::string("missing")) +
                                  ": this Hamilton reads version " + std::to_string(version) +
                                  ". Export the ROM again with this version.");
    if (j.value("units", nlohmann::json()) != units())
      fail(source, "units", "= " + j.value("units", nlohmann::json()).dump() + ": this Hamilton reads SI, " +
                              units().dump() + ". Convert the file or export it again.");
    ReducedModel rom;
    const unsigned int n_modes = read.count(j, "n_modes", "n_modes");
    rom.n_normal_modes         = read.count(j, "n_normal_modes", "n_normal_modes");
    rom.n_correction_modes     = read.count(j, "n_correction_modes", "n_correction_modes");
    rom.omega                  = read.vector(j, "angular_frequencies_rad_s", "angular_frequencies_rad_s");
    rom.damping_ratios         = read.vector(j, "damping_ratios", "damping_ratios");
    rom.mass                   = read.matrix(j, "mass_matrix", "mass_matrix");
    rom.stiffness              = read.matrix(j, "stiffness_matrix", "stiffness_matrix");
    rom.participation_translation =
      read.vector(j, "participation_base_translation", "participation_base_translation");
    rom.participation_rotation = read.vector(j, "participation_base_rotation", "participation_base_rotation");
    if (j.contains("base_rotation_available"))
      {
        if (!j["base_rotation_available"].is_boolean())
          fail(source, "base_rotation_available", "must be true or false.");
        rom.base_rotation_available = j["base_rotation_available"].get<bool>();
      }
    const auto &rigid          = read.field(j, "rigid_body", "rigid_body");
    rom.rigid_mass             = read.number(rigid, "mass_kg", "rigid_body/mass_kg");
    rom.first_moment           = read.number(rigid, "first_moment_kg_m", "rigid_body/first_moment_kg_m");
    rom.second_moment          = read.number(rigid, "second_moment_kg_m2", "rigid_body/second_moment_kg_m2");
    for (const auto &e : read.array(j, "electrodes", "electrodes"))
      rom.electrodes.push_back({read.text(e, "name", "electrodes/name"),
                                read.number(e, "capacitance_F", "electrodes/capacitance_F"),
                                read.vector(e, "coupling_N_per_V", "electrodes/coupling_N_per_V")});
    for (const auto &o : read.array(j, "outputs", "outputs"))
      rom.outputs.push_back({read.text(o, "name", "outputs/name"),
                             read.number(o, "position_m", "outputs/position_m"),
                             read.vector(o, "displacement", "outputs/displacement"),
                             read.vector(o, "slope", "outputs/slope")});
    if (j.contains("shape"))
      {
        rom.shape_x = read.vector(j["shape"], "x_m", "shape/x_m");
        rom.shape_w = read.matrix(j["shape"], "displacement", "shape/displacement");
      }
    rom.geometric_unit_axial =
      read.matrix(j, "geometric_stiffness_unit_axial_force", "geometric_stiffness_unit_axial_force");
    rom.geometric_rotation = read.matrix(j, "geometric_stiffness_rotation", "geometric_stiffness_rotation");

    const unsigned int n = rom.omega.size();
    if (n == 0)
      fail(source, "angular_frequencies_rad_s", "is empty: the ROM has no modes.");
    if (n_modes != n)
      fail(source, "n_modes", "= " + std::to_string(n_modes) + " disagrees with the " + std::to_string(n) +
                                " frequencies of 'angular_frequencies_rad_s'.");
    if (rom.n_normal_modes + rom.n_correction_modes != n || rom.n_normal_modes == 0)
      fail(source, "n_normal_modes",
           "= " + std::to_string(rom.n_normal_modes) + " plus 'n_correction_modes' = " +
             std::to_string(rom.n_correction_modes) + " must equal the " + std::to_string(n) +
             " modes, with at least one normal mode.");
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
    // signs after the sizes: the loop reads damping_ratios[r] (n entries checked above)
    for (unsigned int r = 0; r < n; ++r)
      {
        if (!(rom.omega[r] >= 0))
          fail(source, "angular_frequencies_rad_s",
               "entry " + std::to_string(r + 1) + " = " + format_number(rom.omega[r]) +
                 " rad/s is negative: angular frequencies are >= 0 (0 for a rigid-body mode).");
        if (!(rom.damping_ratios[r] >= 0))
          fail(source, "damping_ratios",
               "entry " + std::to_string(r + 1) + " = " + format_number(rom.damping_ratios[r]) +
                 " is negative: a negative damping ratio creates energy. Give ratios >= 0.");
      }
    for (unsigned int i = 0; i < n; ++i)
      if (!(rom.mass[i][i] > 0))
        fail(source, "mass_matrix", "has a non-positive diagonal entry " + format_number(rom.mass[i][i]) +
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
                                          format_number(rom.mass[i][k]) +
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
    std::error_code ec;
    if (std::filesystem::is_directory(filename, ec))
      throw RomError("ROM file '" + filename + "' is a directory, not a file. Give the path of the ROM file "
                     "(e.g. 'rom.json' in the output directory of the run that exported it).");
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
