#include <hamilton/discretization/discretization.h>

#include <iomanip>
#include <sstream>

namespace hamilton
{
  using namespace dealii;

  void
  Discretization::declare_parameters_of_all(ParameterHandler &prm)
  {
    const auto &registry = DiscretizationRegistry::instance();
    prm.enter_subsection("Discretization");
    prm.declare_entry("Method",
                      "finite elements",
                      Patterns::Selection(registry.pattern()),
                      "How the beam is discretized. Choices:" +
                        registry.documentation());
    registry.declare_parameters(prm);
    prm.leave_subsection();
  }

  std::unique_ptr<Discretization>
  Discretization::create(Section &section)
  {
    Section::Scope scope(section, "Discretization");
    auto           discretization =
      DiscretizationRegistry::instance().create(section.get("Method"));
    discretization->parse_parameters(section);
    return discretization;
  }

  void
  require_memory(double             bytes,
                 const std::string &path,
                 const std::string &entry,
                 const std::string &value,
                 const std::string &what)
  {
    if (bytes <= memory_limit_bytes)
      return;
    std::ostringstream m;
    m << std::setprecision(3) << "needs about " << bytes / (1024. * 1024. * 1024.) << " GiB for "
      << what << ", more than the " << memory_limit_bytes / (1024. * 1024. * 1024.)
      << " GiB a run may use. Reduce it.";
    input_error(path, entry, value, m.str());
  }

} // namespace hamilton
