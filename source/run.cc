#include <hamilton/analyses/analysis.h>
#include <hamilton/analyses/lumped_result.h>
#include <hamilton/analyses/modal.h>
#include <hamilton/base/files.h>
#include <hamilton/base/input.h>
#include <hamilton/base/process.h>
#include <hamilton/beam/beam_model.h>
#include <hamilton/continuum/continuum.h>
#include <hamilton/discretization/discretization.h>
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/output/writer.h>
#include <hamilton/run.h>
#include <hamilton/study.h>
#include <hamilton/sweep.h>

#include <filesystem>
#include <sstream>
#include <iomanip>
#include <iostream>

namespace hamilton
{
  using namespace dealii;

  namespace
  {
    struct OutputOptions
    {
      std::string directory;
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
      Writers::declare_parameters(prm);
      prm.leave_subsection();
    }

    OutputOptions
    parse_output(Section &s, const RunOptions &options)
    {
      Section::Scope scope(s, "Output");
      OutputOptions  o;
      o.directory = s.get("Directory");
      if (!options.output_directory.empty())
        o.directory = options.output_directory;
      if (o.directory.empty())
        o.directory =
          "output/" + std::filesystem::path(options.parameter_file).stem().string();
      return o;
    }
  } // namespace

  void
  declare_all_parameters(ParameterHandler &prm, const ParameterHandler *first_pass)
  {
    BeamModel::declare_parameters(prm, first_pass);
    continuum::ContinuumModel::declare_parameters(prm, first_pass);
    Discretization::declare_parameters_of_all(prm);
    Analysis::declare_parameters_of_all(prm);
    Sweep::declare_parameters(prm);
    Study::declare_parameters(prm, first_pass);
    lumped::LumpedRun::declare_parameters(prm, first_pass);
    declare_output(prm);
  }

  void
  read_parameters(ParameterHandler                                       &prm,
                  const std::string                                      &parameter_file,
                  const std::vector<std::pair<std::string, std::string>> &changes)
  {
    read_parameter_file(prm, parameter_file, declare_all_parameters, changes);
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

    unsigned long n_beam_solves = 0;

    /** The beam part of a file: model, discretization and analyses. */
    struct BeamRun
    {
      BeamModel                                                model;
      std::unique_ptr<Discretization>                          discretization;
      std::unique_ptr<Operators>                               operators;
      std::vector<std::pair<std::string, std::unique_ptr<Analysis>>> analyses;
      Sweep                                                    sweep;
      std::vector<std::unique_ptr<AnalysisResult>>             outcomes;

      /** Read and check everything; no solve. */
      void
      parse(ParameterHandler &prm, Section &section)
      {
        model.parse_parameters(section);
        discretization = Discretization::create(section);
        analyses       = Analysis::create_selected(section);
        sweep.parse_parameters(section);
        discretization->setup(model);
        operators = discretization->assemble();
        const Problem problem{model, *discretization, *operators};
        for (const auto &a : analyses)
          a.second->check(problem);
        if (sweep.enabled())
          sweep.check(prm, analyses);
      }

      /** Run the analyses (or the sweep); results stay in memory. */
      void
      solve(ParameterHandler &prm, Section &section, std::ostream &out)
      {
        ++n_beam_solves;
        const Problem problem{model, *discretization, *operators};
        if (sweep.enabled())
          outcomes.push_back(sweep.run(prm, section, out));
        else
          for (const auto &a : analyses)
            outcomes.push_back(a.second->run(problem));
      }

      /** The beam and its results, for the writers. */
      void
      add_to(RunResults &run) const
      {
        run.model          = &model;
        run.discretization = discretization.get();
        for (const auto &r : outcomes)
          run.results.push_back(r.get());
      }

      /** Hand the results to every writer: tables, documents (a ROM) and fields into `destination`. */
      void
      write(const Writers &writers, const Destination &destination) const
      {
        RunResults run;
        add_to(run);
        for (const auto &r : outcomes)
          {
            writers.write(*r, run, destination);
            check_interrupt();
          }
      }
    };

    /**
     * Read and check the lumped system of a file that also holds a beam,
     * before the beam is solved: against provisional files of the shape the
     * beam's analyses will write (a ROM's electrodes and output points, at
     * least its number of modal coordinates, placeholder numbers). Mistakes
     * in the lumped part's own entries are thus reported before any solve;
     * the checks that need the real numbers follow once the files exist.
     */
    void
    check_lumped_before_solve(const BeamRun &beam_run, Section &section, const std::string &directory)
    {
      const Problem   problem{beam_run.model, *beam_run.discretization, *beam_run.operators};
      OutputDirectory scratch((temporary_directory() / "hamilton-provisional").string(),
                              "scratch directory of the lumped system's checks");
      for (const auto &a : beam_run.analyses)
        for (const auto &[name, document] : a.second->provisional_documents(problem))
          write_file(scratch.path() + "/" + name, [&](std::ostream &file) { file << document << "\n"; });
      lumped::LumpedRun provisional;
      provisional.system.provisional_files = true;
      provisional.system.search_directories.push_back(scratch.path());
      provisional.parse_parameters(section, directory);
    }

    /**
     * Read the lumped system of a file that also holds a beam against the
     * files the beam's analyses produce (a ROM): the beam is solved quietly,
     * its files written into a scratch directory that is removed again. For
     * --validate and --print-equations, which write nothing.
     */
    void
    parse_lumped_with_beam_files(BeamRun           &beam_run,
                                 ParameterHandler  &prm,
                                 Section           &section,
                                 lumped::LumpedRun &lumped_run,
                                 const std::string &directory)
    {
      std::ostringstream ignored;
      beam_run.solve(prm, section, ignored);
      OutputDirectory scratch((temporary_directory() / "hamilton-validate").string(),
                              "scratch directory of the beam's files");
      beam_run.write(Writers(section), Destination{scratch.path(), true});
      lumped_run.system.search_directories.push_back(scratch.path());
      lumped_run.parse_parameters(section, directory);
    }

    /**
     * Integrate the lumped system, its rows streamed to the writers' row
     * sinks (lumped.csv, the animation) as they are computed; then its
     * result goes to the writers: its terminal summary, its files
     * (linearization.json).
     */
    void
    run_lumped(lumped::LumpedRun &lumped_run,
               LumpedResult      &result,
               const Writers     &writers,
               const RunResults  &run,
               const Destination &destination,
               std::ostream      &out)
    {
      result.run           = &lumped_run;
      const auto sinks     = writers.open_rows(result, destination);
      result.summary       = lumped_run.run(sinks, out);
      result.linearization = lumped_run.linearization;
      writers.print(result, out);
      for (const auto &sink : sinks) // after the summary: their own lines
        if (auto said = sink->end(out); !said.is_null())
          result.row_sinks.emplace_back(sink->name(), std::move(said));
      writers.write(result, run, destination);
    }

    /**
     * After a lumped run stopped during its integration: keep only the rows
     * computed so far, as lumped.partial.csv, in the output directory. Returns
     * a sentence for the message, or "" if there was nothing to keep.
     */
    std::string
    keep_partial_table(OutputDirectory &directory)
    {
      namespace fs = std::filesystem;
      const fs::path  temporary = directory.path();
      std::error_code error;
      if (!fs::exists(temporary / "lumped.csv", error))
        return "";
      fs::rename(temporary / "lumped.csv", temporary / "lumped.partial.csv", error);
      std::vector<fs::path> others;
      for (const auto &entry : fs::directory_iterator(temporary, error))
        if (entry.path().filename() != "lumped.partial.csv")
          others.push_back(entry.path());
      for (const auto &other : others)
        fs::remove_all(other, error);
      try
        {
          directory.commit();
        }
      catch (const std::exception &)
        {
          return "";
        }
      return " The rows computed until then are in '" + directory.target() +
             "/lumped.partial.csv' (no results.json: the run did not finish).";
    }

    /**
     * The beam of a study's last point, solved, with what it was solved
     * from: every entry of the file (after --set and the point's changes)
     * but those of subsection 'Lumped system'. A point whose entries outside
     * 'Lumped system' are the same takes it instead of reading and solving
     * the beam (and exporting its ROM) again.
     */
    struct SolvedBeam
    {
      std::string              key;
      std::shared_ptr<BeamRun> run;
    };

    SolvedBeam &
    solved_beam()
    {
      static SolvedBeam last;
      return last;
    }

    /** The file's name and its entries, 'Lumped system' left out (the key of SolvedBeam). */
    std::string
    beam_key(const ParameterHandler &prm, const std::string &parameter_file)
    {
      std::ostringstream text;
      prm.print_parameters(text, ParameterHandler::ShortPRM);
      std::istringstream lines(text.str());
      std::string        key = parameter_file + "\n", line;
      bool               lumped = false;
      while (std::getline(lines, line))
        {
          if (line == "subsection Lumped system")
            lumped = true;
          else if (!lumped)
            key += line + "\n";
          else if (line == "end")
            lumped = false;
        }
      return key;
    }
  } // namespace

  unsigned long
  beam_solves()
  {
    return n_beam_solves;
  }

  void
  forget_solved_beam()
  {
    solved_beam() = {};
  }

  namespace
  {
    /**
     * A file that describes a piezoelectric continuum, alone or with a lumped
     * system that uses its reduced model: read and check the continuum on
     * every MPI rank, solve on all of them, print on rank 0; rank 0 creates
     * the output directory, every rank writes its share of the VTU files
     * there, rank 0 writes the rest, runs the lumped system (serial) against
     * the files just written, and commits.
     */
    void
    run_continuum(const RunOptions  &options,
                  ParameterHandler  &prm,
                  Section           &section,
                  const OutputOptions &output,
                  const std::string &origin,
                  const bool         lumped,
                  std::ostream      &terminal)
    {
      const std::string directory = std::filesystem::path(options.parameter_file).parent_path().string();
      continuum::ContinuumRun continuum_run;
      continuum_run.parse(section, directory);
      const bool         root = Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
      std::ostringstream silent;
      std::ostream      &out = root ? terminal : silent;
      if (options.validate_only && !lumped)
        {
          out << "'" << options.parameter_file << "' is valid: continuum of " << continuum_run.description() << ".\n";
          for (const auto &w : continuum_run.warnings())
            out << "  WARNING: " << w << "\n";
          return;
        }
      OutputDirectory::check_target(output.directory, origin);
      const Writers      writers(section);
      std::ostringstream quiet;
      std::ostream      &log = options.validate_only ? quiet : out;
      log << "Hamilton: " << options.parameter_file << "\n  continuum: " << continuum_run.description() << "\n";
      const auto &continuum_result = continuum_run.solve();
      writers.print(continuum_result, log);
      RunResults run;
      run.input      = std::filesystem::path(options.parameter_file).filename().string();
      run.parameters = &prm;
      run.results.push_back(&continuum_result);
      run.results.insert(run.results.end(), continuum_result.analyses.begin(), continuum_result.analyses.end());
      run.warnings = continuum_result.warnings;

      InterruptPolling                 polling;
      std::unique_ptr<OutputDirectory> written;
      std::string                      path;
      if (root)
        {
          written = options.validate_only ?
                      std::make_unique<OutputDirectory>(
                        (temporary_directory() / "hamilton-validate").string(),
                        "scratch directory of --validate") :
                      std::make_unique<OutputDirectory>(output.directory, origin);
          path = written->path();
        }
      path = Utilities::MPI::broadcast(MPI_COMM_WORLD, path, 0);
      const Destination destination{path, options.validate_only, root};
      for (const auto *r : run.results)
        writers.write(*r, run, destination);
      if (!root)
        return;
      LumpedResult lumped_result;
      if (lumped)
        {
          lumped::LumpedRun lumped_run;
          lumped_run.system.search_directories.push_back(path);
          lumped_run.parse_parameters(section, directory);
          lumped_run.check_initial_state(options.validate_only);
          if (options.validate_only)
            {
              out << "'" << options.parameter_file << "' is valid: continuum of " << continuum_run.description()
                  << "; its lumped system of " << lumped_run.system.coordinates.size()
                  << " coordinates is valid too, checked against the reduced model the continuum produces.\n";
              for (const auto &w : continuum_run.warnings())
                out << "  WARNING: " << w << "\n";
              return;
            }
          run_lumped(lumped_run, lumped_result, writers, run, destination, out);
          run.results.push_back(&lumped_result);
          for (const auto &w : lumped_run.system.warnings)
            run.warnings.push_back(w);
        }
      writers.finish(run, destination);
      check_interrupt();
      written->commit();
      out << "Results written to " << output.directory << "/\n";
    }
  } // namespace

  void
  run(const RunOptions &options, std::ostream &out)
  {
    ParameterHandler prm;
    read_parameters(prm, options.parameter_file, options.changes);
    Section section(prm);
    const OutputOptions output = parse_output(section, options);
    const std::string   origin = options.output_directory.empty() ? "'Output/Directory'" : "--output-dir";
    const bool          beam   = describes_beam(prm);
    const bool          lumped = lumped::LumpedRun::described_in(prm);
    if (options.resume && options.point_results == nullptr && !Study::described_in(prm))
      throw InputError("--resume continues a study, and '" + options.parameter_file +
                       "' has none ('Study/Design = none'). Run the file without --resume.");
    if (continuum::ContinuumModel::described_in(prm))
      {
        if (beam)
          throw InputError("'" + options.parameter_file + "' describes a continuum ('Continuum/Mesh') and a beam "
                           "('Beam/Segments'): a file holds one structure. Put each in a file of its own.");
        if (options.print_equations)
          throw InputError("'" + options.parameter_file + "' describes a continuum: --print-equations needs the "
                           "lumped system alone. Run the file, or move the lumped system to a file of its own.");
        run_continuum(options, prm, section, output, origin, lumped, out);
        return;
      }
    if (!beam && !lumped)
      throw InputError("'" + options.parameter_file + "' describes neither a beam (subsection 'Beam/Segments', "
                       "'Names'), a continuum ('Continuum/Mesh') nor a lumped system (subsection 'Lumped system', 'Coordinates' or "
                       "'Components/Names'). Start from 'hamilton --print-parameters' or an example in prm/.");
    if (options.print_equations && !lumped)
      throw InputError("'" + options.parameter_file + "' has no lumped system: --print-equations prints "
                       "the equations of subsection 'Lumped system'.");

    // Everything is read and checked before anything is written. A lumped
    // system alone is read (and its equations derived) at once; with a beam
    // in the same file, before the beam is solved against provisional files
    // of the right shape, and again after the beam's analyses, against the
    // files (a ROM) they produce in the not yet committed output directory.
    lumped::LumpedRun lumped_run;
    const std::string directory = std::filesystem::path(options.parameter_file).parent_path().string();
    if (lumped && !beam)
      lumped_run.parse_parameters(section, directory);
    if (options.print_equations)
      {
        if (beam) // the ROM the file's beam would export: solved for this, nothing written
          {
            BeamRun beam_run;
            beam_run.parse(prm, section);
            check_lumped_before_solve(beam_run, section, directory);
            parse_lumped_with_beam_files(beam_run, prm, section, lumped_run, directory);
            out << "Lumped system of '" << options.parameter_file
                << "' with the files its beam's analyses produce (the beam solved for this, nothing written)\n";
          }
        lumped_run.print_equations(out);
        return;
      }
    OutputDirectory::check_target(output.directory, origin);
    if (options.point_results == nullptr && Study::described_in(prm))
      return run_study(options, prm, output.directory, origin, out);
    // every other run (not a study, not a continuum) is serial: under
    // mpirun, rank 0 alone works
    if (started_by_mpi_launcher() && options.point_results == nullptr)
      {
        const unsigned int rank = Utilities::MPI::this_mpi_process(MPI_COMM_WORLD);
        const unsigned int size = Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD);
        if (rank > 0)
          return;
        if (size > 1)
          std::cerr << "Note: started as " << size << " MPI processes; Hamilton runs this file serially: process 0 "
                    << "computes and writes, the other " << size - 1 << " ended at once.\n";
      }
    if (!beam)
      Sweep::check_without_beam(prm);

    // a study's point whose entries outside 'Lumped system' are those of
    // the point before takes that point's beam, solved (see SolvedBeam)
    std::shared_ptr<BeamRun> solved;
    std::string              key;
    if (beam && lumped && options.point_results != nullptr && !options.validate_only)
      {
        key = beam_key(prm, options.parameter_file);
        if (solved_beam().key == key)
          solved = solved_beam().run;
      }
    const auto beam_owner = solved ? solved : std::make_shared<BeamRun>();
    BeamRun   &beam_run   = *beam_owner;
    if (beam && !solved)
      beam_run.parse(prm, section);
    // the writers' entries, and what they will write checked against the model's sizes
    const Writers writers(section);
    if (beam)
      {
        RunResults sizes;
        beam_run.add_to(sizes);
        writers.check(sizes);
      }
    if (beam && lumped && !solved)
      check_lumped_before_solve(beam_run, section, directory);
    if (options.validate_only)
      {
        if (beam && lumped)
          parse_lumped_with_beam_files(beam_run, prm, section, lumped_run, directory);
        if (lumped)
          lumped_run.check_initial_state(true);
        if (beam)
          out << "'" << options.parameter_file << "' is valid: " << beam_run.model.segments.size()
              << " segment(s), length " << beam_run.model.length() << " m, "
              << beam_run.discretization->description() << ".\n";
        if (beam)
          for (const auto &w : beam_run.model.plausibility_warnings())
            out << "  WARNING: " << w << "\n";
        if (beam && lumped)
          {
            out << "  Its lumped system of " << lumped_run.system.coordinates.size()
                << " coordinates is valid too, checked against the files the beam's analyses produce "
                   "(equations derived, consistent initial state found).\n";
          }
        if (lumped && !beam)
          out << "'" << options.parameter_file << "' is valid: lumped system of "
              << lumped_run.system.coordinates.size()
              << " coordinates, equations derived, consistent initial state found.\n";
        if (lumped)
          for (const auto &w : lumped_run.system.warnings)
            out << "  WARNING: " << w << "\n";
        return;
      }

    RunResults run;
    run.input      = std::filesystem::path(options.parameter_file).filename().string();
    run.parameters = &prm;
    if (beam)
      {
        out << "Hamilton: " << options.parameter_file << "\n"
            << "  beam length " << beam_run.model.length() << " m, mass " << beam_run.model.total_mass() << " kg, "
            << beam_run.discretization->description() << "\n";
        for (const auto &w : beam_run.model.plausibility_warnings())
          {
            out << "  WARNING: " << w << "\n";
            run.warnings.push_back(w);
          }
        if (!solved)
          {
            solved_beam() = {};
            beam_run.solve(prm, section, out);
            if (!key.empty())
              solved_beam() = {key, beam_owner};
          }
        beam_run.add_to(run);
        for (const auto &r : beam_run.outcomes)
          {
            writers.print(*r, out);
            run.warnings.insert(run.warnings.end(), r->warnings.begin(), r->warnings.end());
          }
      }

    // From here on, SIGINT/SIGTERM stop the run at the next check and the
    // output directory is written as a whole or not at all.
    InterruptPolling polling;
    OutputDirectory  written(output.directory, origin);
    if (beam && (options.write_output || lumped)) // a study's point: only the files the lumped system reads
      beam_run.write(writers, Destination{written.path(), !options.write_output});
    if (lumped && beam)
      {
        lumped_run.system.search_directories.push_back(written.path());
        lumped_run.parse_parameters(section, directory);
      }
    if (lumped) // the consistent initial state, before anything is committed
      lumped_run.check_initial_state(false);
    LumpedResult lumped_result;
    if (lumped)
      {
        if (!beam)
          out << "Hamilton: " << options.parameter_file << "\n";
        try
          {
            run_lumped(lumped_run, lumped_result, writers, run, Destination{written.path(), !options.write_output},
                       out);
          }
        catch (const Interrupted &e)
          {
            throw Interrupted(e.signal_number, "the lumped integration stopped." + keep_partial_table(written));
          }
        catch (const OutputError &)
          {
            throw;
          }
        catch (const InputError &e)
          {
            if (interrupt_signal() != 0) // e.g. the C compiler was interrupted too
              throw Interrupted(interrupt_signal(), "the run stopped; nothing was written.");
            throw InputError(e.what() + keep_partial_table(written));
          }
        catch (const std::exception &)
          {
            if (interrupt_signal() != 0)
              throw Interrupted(interrupt_signal(), "the run stopped; nothing was written.");
            throw;
          }
        run.results.push_back(&lumped_result);
        for (const auto &w : lumped_run.system.warnings)
          run.warnings.push_back(w);
      }
    if (options.point_results != nullptr)
      *options.point_results = run.to_json();
    if (!options.write_output)
      return;
    writers.finish(run, Destination{written.path(), false});
    check_interrupt(); // a signal during the last writes: keep nothing
    written.commit();
    out << "Results written to " << output.directory << "/\n";
  }
} // namespace hamilton
