#include <hamilton/discretization/discretization.h>

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
} // namespace hamilton
