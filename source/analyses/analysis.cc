#include <hamilton/analyses/analysis.h>

namespace hamilton
{
  using namespace dealii;

  void
  Analysis::declare_parameters_of_all(ParameterHandler &prm)
  {
    const auto &registry = AnalysisRegistry::instance();
    prm.enter_subsection("Analysis");
    prm.declare_entry("Analyses",
                      "modal",
                      Patterns::MultipleSelection(registry.pattern()),
                      "Comma-separated list of the analyses to run, in this "
                      "order. Choices:" +
                        registry.documentation());
    registry.declare_parameters(prm);
    prm.leave_subsection();
  }

  std::vector<std::pair<std::string, std::unique_ptr<Analysis>>>
  Analysis::create_selected(Section &section)
  {
    Section::Scope scope(section, "Analysis");
    std::vector<std::pair<std::string, std::unique_ptr<Analysis>>> result;
    for (const auto &name : section.get_names("Analyses"))
      {
        auto analysis = AnalysisRegistry::instance().create(name);
        Section::Scope own(section, AnalysisRegistry::instance().subsection(name));
        analysis->parse_parameters(section);
        result.emplace_back(name, std::move(analysis));
      }
    return result;
  }
} // namespace hamilton
