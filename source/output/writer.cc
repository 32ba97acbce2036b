#include <hamilton/output/writer.h>

namespace hamilton
{
  namespace
  {
    nlohmann::json
    describe_model(const BeamModel &model, const Discretization &d)
    {
      nlohmann::json segments = nlohmann::json::array();
      for (const auto &s : model.segments)
        segments.push_back({{"name", s.name},
                            {"x_start_m", s.x_start},
                            {"x_end_m", s.x_end},
                            {"bending_stiffness_Nm2", s.section.bending_stiffness},
                            {"mass_per_length_kg_m", s.section.mass_per_length},
                            {"neutral_axis_from_bottom_m", s.section.neutral_axis},
                            {"thickness_m", s.section.thickness}});
      return {{"length_m", model.length()},
              {"total_mass_kg", model.total_mass()},
              {"segments", segments},
              {"discretization", d.description()},
              {"n_unknowns", d.n_dofs()}};
    }
  } // namespace

  nlohmann::json
  RunResults::to_json() const
  {
    nlohmann::json results;
    results["format"]  = "hamilton-results";
    results["version"] = 1;
    results["input"]   = input;
    if (model != nullptr && discretization != nullptr)
      results["model"] = describe_model(*model, *discretization);
    results["warnings"] = warnings;
    for (const auto *r : this->results)
      r->add_to_json(results);
    return results;
  }

  void
  Writers::declare_parameters(dealii::ParameterHandler &prm)
  {
    // the entries that several writers read, declared once here
    prm.declare_entry("Write VTU",
                      "true",
                      dealii::Patterns::Bool(),
                      "Whether to write the fields of the results as VTU/PVD for ParaView: a beam's mode "
                      "shapes and deflections, a continuum's solution fields.");
    WriterRegistry::instance().declare_parameters(prm);
  }

  Writers::Writers(Section &section)
  {
    Section::Scope scope(section, "Output");
    const auto    &registry = WriterRegistry::instance();
    for (const auto &name : registry.names())
      {
        writers.emplace_back(name, registry.create(name));
        writers.back().second->parse_parameters(section);
      }
  }

  void
  Writers::check(const RunResults &run) const
  {
    for (const auto &w : writers)
      w.second->check(run);
  }

  void
  Writers::print(const AnalysisResult &result, std::ostream &out) const
  {
    for (const auto &w : writers)
      w.second->print(result, out);
  }

  void
  Writers::write(const AnalysisResult &result, const RunResults &run, const Destination &destination) const
  {
    for (const auto &w : writers)
      if (destination.root || w.second->collective())
        w.second->write(result, run, destination);
  }

  std::vector<std::unique_ptr<RowSink>>
  Writers::open_rows(const AnalysisResult &result, const Destination &destination) const
  {
    std::vector<std::unique_ptr<RowSink>> sinks;
    for (const auto &w : writers)
      if (auto sink = w.second->open_rows(result, destination))
        sinks.push_back(std::move(sink));
    return sinks;
  }

  void
  Writers::finish(const RunResults &run, const Destination &destination) const
  {
    if (destination.root)
      for (const auto &w : writers)
        w.second->finish(run, destination);
  }
} // namespace hamilton
