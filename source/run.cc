#include <hamilton/analyses/analysis.h>
#include <hamilton/analyses/modal.h>
#include <hamilton/base/input.h>
#include <hamilton/beam/beam_model.h>
#include <hamilton/discretization/discretization.h>
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/output/writers.h>
#include <hamilton/run.h>
#include <hamilton/sweep.h>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>

namespace hamilton
{
  using namespace dealii;

  namespace
  {
    struct OutputOptions
    {
      std::string  directory;
      bool         write_vtu           = true;
      unsigned int samples_per_element = 8;
    };

    void
    declare_output(ParameterHandler &prm)
    {
      prm.enter_subsection("Output");
      prm.declare_entry("Directory",
                        "",
                        Patterns::Anything(),
                        "Directory for results.json, the CSV tables, the VTU/PVD "
                        "files and the parameters used. Empty: 'output/<name "
                        "of the parameter file without .prm>'.");
      prm.declare_entry("Write VTU",
                        "true",
                        Patterns::Bool(),
                        "Whether to write mode shapes and deflections as "
                        "VTU/PVD for ParaView.");
      prm.declare_entry("Samples per element",
                        "4",
                        Patterns::Integer(1),
                        "Subdivisions per element of the 3D beam in the VTU files.");
      prm.leave_subsection();
    }

    OutputOptions
    parse_output(Section &s, const RunOptions &options)
    {
      Section::Scope scope(s, "Output");
      OutputOptions  o;
      o.directory           = s.get("Directory");
      o.write_vtu           = s.get_bool("Write VTU");
      o.samples_per_element = s.get_unsigned("Samples per element");
      if (!options.output_directory.empty())
        o.directory = options.output_directory;
      if (o.directory.empty())
        o.directory =
          "output/" + std::filesystem::path(options.parameter_file).stem().string();
      return o;
    }

    nlohmann::json
    describe_model(const BeamModel &model, const Discretization &d)
    {
      nlohmann::json segments = nlohmann::json::array();
      for (const auto &s : model.segments)
        segments.push_back(
          {{"name", s.name},
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

  void
  declare_all_parameters(ParameterHandler &prm, const ParameterHandler *first_pass)
  {
    BeamModel::declare_parameters(prm, first_pass);
    Discretization::declare_parameters_of_all(prm);
    Analysis::declare_parameters_of_all(prm);
    Sweep::declare_parameters(prm);
    lumped::LumpedRun::declare_parameters(prm, first_pass);
    declare_output(prm);
  }

  void
  read_parameters(ParameterHandler                                       &prm,
                  const std::string                                      &parameter_file,
                  const std::vector<std::pair<std::string, std::string>> &changes)
  {
    read_parameter_file(prm, parameter_file, declare_all_parameters);
    for (const auto &[path, value] : changes)
      {
        auto              parts = Utilities::split_string_list(path, '/');
        const std::string entry = parts.back();
        parts.pop_back();
        for (const auto &p : parts)
          prm.enter_subsection(p);
        prm.set(entry, value);
        for (std::size_t i = 0; i < parts.size(); ++i)
          prm.leave_subsection();
      }
  }

  std::unique_ptr<LoadedBeam>
  load_beam(const std::string                                      &parameter_file,
            const std::vector<std::pair<std::string, std::string>> &changes)
  {
    ParameterHandler prm;
    read_parameters(prm, parameter_file, changes);
    Section section(prm);
    auto    loaded = std::make_unique<LoadedBeam>();
    loaded->model.parse_parameters(section);
    loaded->discretization = Discretization::create(section);
    loaded->discretization->setup(loaded->model);
    loaded->operators = loaded->discretization->assemble();
    return loaded;
  }

  namespace
  {
    bool
    describes_beam(ParameterHandler &prm)
    {
      return !split_list(prm.get({"Beam", "Segments"}, "Names")).empty();
    }

    /** The beam part of a run: analyses (or a sweep), then their files. */
    void
    run_beam(ParameterHandler &prm, Section &section, const RunOptions &options, const OutputOptions &output,
             nlohmann::json &results, std::vector<std::string> &warnings, std::ostream &out)
    {
      BeamModel model;
      model.parse_parameters(section);
      auto discretization = Discretization::create(section);
      auto analyses       = Analysis::create_selected(section);
      Sweep sweep;
      sweep.parse_parameters(section);

      discretization->setup(model);
      auto          operators = discretization->assemble();
      const Problem problem{model, *discretization, *operators};
      for (const auto &a : analyses)
        a.second->check(problem);
      if (sweep.enabled())
        sweep.check(prm, analyses);

      if (options.validate_only)
        {
          out << "'" << options.parameter_file << "' is valid: " << model.segments.size()
              << " segment(s), length " << model.length() << " m, " << discretization->description() << ".\n";
          return;
        }

      out << "Hamilton: " << options.parameter_file << "\n"
          << "  beam length " << model.length() << " m, mass " << model.total_mass() << " kg, "
          << discretization->description() << "\n";
      results["model"] = describe_model(model, *discretization);

      std::vector<std::unique_ptr<AnalysisResult>> outcomes;
      if (sweep.enabled())
        outcomes.push_back(sweep.run(prm, section, out));
      else
        for (const auto &a : analyses)
          outcomes.push_back(a.second->run(problem));
      for (const auto &r : outcomes)
        {
          r->print_summary(out);
          r->add_to_json(results);
          for (const auto &w : r->warnings)
            {
              warnings.push_back(w);
              out << "  WARNING: " << w << "\n";
            }
        }

      // everything succeeded: only now write the output directory
      std::filesystem::create_directories(output.directory);
      for (const auto &r : outcomes)
        {
          for (const auto &table : r->tables())
            write_csv(table, output.directory + "/" + table.name + ".csv");
          for (const auto &[name, document] : r->documents())
            {
              std::ofstream file(output.directory + "/" + name);
              file << std::setw(2) << document << "\n";
            }
          if (output.write_vtu)
            for (const auto &[group, fields] : r->fields())
              write_vtu_series(model, *discretization, fields, output.samples_per_element, output.directory, group);
        }
    }
  } // namespace

  void
  run(const RunOptions &options, std::ostream &out)
  {
    ParameterHandler prm;
    read_parameter_file(prm, options.parameter_file, declare_all_parameters);
    Section section(prm);
    const OutputOptions output = parse_output(section, options);
    const bool          beam   = describes_beam(prm);
    const bool          lumped = lumped::LumpedRun::described_in(prm);
    if (!beam && !lumped)
      throw InputError("'" + options.parameter_file + "' describes neither a beam (subsection 'Beam/Segments', "
                       "'Names') nor a lumped system (subsection 'Lumped system', 'Coordinates' or "
                       "'Components/Names'). Start from 'hamilton --print-parameters' or an example in prm/.");

    // the lumped system is read and its equations derived before anything
    // runs, so that bad input stops the run with nothing written; with a
    // beam in the same file, after the beam's run, whose files (a ROM) the
    // lumped system may use
    lumped::LumpedRun lumped_run;
    const std::string directory = std::filesystem::path(options.parameter_file).parent_path().string();
    if (lumped && !beam)
      lumped_run.parse_parameters(section, directory);
    if (options.print_equations && beam)
      throw InputError("'" + options.parameter_file + "' also describes a beam: --print-equations needs the "
                       "lumped system alone (its ROM may come from the beam's run). Run the file, or move "
                       "the lumped system to a file of its own.");
    if (options.print_equations)
      {
        if (!lumped)
          throw InputError("'" + options.parameter_file + "' has no lumped system: --print-equations prints "
                           "the equations of subsection 'Lumped system'.");
        lumped_run.print_equations(out);
        return;
      }

    nlohmann::json results;
    results["format"]  = "hamilton-results";
    results["version"] = 1;
    results["input"]   = std::filesystem::path(options.parameter_file).filename().string();
    std::vector<std::string> warnings;
    if (beam)
      run_beam(prm, section, options, output, results, warnings, out);
    if (lumped && beam && !options.validate_only)
      {
        lumped_run.system.search_directories.push_back(output.directory);
        lumped_run.parse_parameters(section, directory);
      }
    if (lumped && (!beam || !options.validate_only)) // nothing written before this check
      lumped_run.check_initial_state(options.validate_only);
    if (options.validate_only)
      {
        if (lumped && !beam)
          {
            out << "'" << options.parameter_file << "' is valid: lumped system of "
                << lumped_run.system.coordinates.size() << " coordinates, equations derived, consistent initial "
                << "state found.\n";
            for (const auto &w : lumped_run.system.warnings)
              out << "  WARNING: " << w << "\n";
          }
        if (lumped && beam)
          out << "  Its lumped system is read after the beam's run (it may use the files the run "
                 "writes, such as a ROM); run the file to check it.\n";
        return;
      }
    std::filesystem::create_directories(output.directory);
    if (lumped)
      {
        if (!beam)
          out << "Hamilton: " << options.parameter_file << "\n";
        results["lumped"] = lumped_run.run(output.directory, out);
        for (const auto &w : lumped_run.system.warnings)
          warnings.push_back(w);
      }
    results["warnings"] = warnings;
    {
      std::ofstream json(output.directory + "/results.json");
      json << std::setw(2) << results << "\n";
    }
    prm.print_parameters(output.directory + "/parameters_used.prm", ParameterHandler::ShortPRM);
    out << "Results written to " << output.directory << "/\n";
  }
} // namespace hamilton
