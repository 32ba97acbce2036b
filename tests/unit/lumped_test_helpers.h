#ifndef hamilton_tests_lumped_test_helpers_h
#define hamilton_tests_lumped_test_helpers_h

// Helpers shared by the lumped library's unit tests: a lumped system read
// from a parameter file of the repository, and its symbols by name.
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/run.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hamilton::testing
{
  /** The lumped part of `file` (relative to the source tree), with entries replaced by `changes`. */
  inline std::unique_ptr<lumped::LumpedRun>
  load_lumped(const std::string &file, const std::vector<std::pair<std::string, std::string>> &changes = {})
  {
    dealii::ParameterHandler prm;
    read_parameters(prm, std::string(HAMILTON_SOURCE_DIR) + "/" + file, changes);
    Section section(prm);
    auto    run = std::make_unique<lumped::LumpedRun>();
    run->parse_parameters(section, std::string(HAMILTON_SOURCE_DIR) + "/prm/lumped");
    return run;
  }

  /**
   * The lumped part of a parameter file holding `text`, written as `name`.prm
   * to the temporary directory (relative files it names are read from there),
   * with entries replaced by `changes`.
   */
  inline std::unique_ptr<lumped::LumpedRun>
  lumped_from_text(const std::string &name, const std::string &text,
                   const std::vector<std::pair<std::string, std::string>> &changes = {})
  {
    const std::string file = (std::filesystem::temp_directory_path() / (name + ".prm")).string();
    std::ofstream(file) << text;
    dealii::ParameterHandler prm;
    read_parameters(prm, file, changes);
    Section section(prm);
    auto    run = std::make_unique<lumped::LumpedRun>();
    run->parse_parameters(section, std::filesystem::temp_directory_path().string());
    return run;
  }

  /** The symbol of a parameter, coordinate, velocity or acceleration, or a time function, by name. */
  inline GiNaC::ex
  sym(const lumped::System &s, const std::string &name)
  {
    for (const auto &p : s.parameters)
      if (p.first.get_name() == name)
        return p.first;
    for (const auto &c : s.coordinates)
      {
        if (c.name == name)
          return c.position;
        if (c.name + "_dot" == name)
          return c.velocity;
        if (c.name + "_ddot" == name)
          return c.acceleration;
      }
    for (const auto &f : s.time_functions)
      if (f.second.name == name)
        return f.first;
    throw std::invalid_argument("no symbol " + name);
  }
} // namespace hamilton::testing

#endif
