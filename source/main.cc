#include <hamilton/base/files.h>
#include <hamilton/base/input.h>
#include <hamilton/base/process.h>
#include <hamilton/beam/beam_model.h>
#include <hamilton/continuum/continuum.h>
#include <hamilton/lumped/component.h>
#include <hamilton/output/version.h>
#include <hamilton/run.h>
#include <hamilton/usage.h>

#include <deal.II/base/mpi.h>

#include <csignal>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace
{
  /** "A/B/C" as {"A", "B", "C"}, without empty parts. */
  std::vector<std::string>
  split_path(const std::string &path)
  {
    std::vector<std::string> parts;
    std::istringstream       in(path);
    for (std::string part; std::getline(in, part, '/');)
      if (!part.empty())
        parts.push_back(part);
    return parts;
  }

  /**
   * The lines of a ParameterHandler listing (PRM or Description style, both
   * nested by indentation) that belong to the subsection `target`, with the
   * 'subsection' and 'end' lines of its ancestors so that the PRM part stays a
   * valid file.
   */
  void
  print_subsection(const std::string &listing, const std::vector<std::string> &target, std::ostream &out)
  {
    std::vector<std::pair<std::size_t, std::string>> open; // (indentation, name) of the enclosing subsections
    const auto                                        relation = [&]() {
      // 2: inside the target; 1: an ancestor of it; 0: elsewhere
      for (std::size_t k = 0; k < std::min(open.size(), target.size()); ++k)
        if (open[k].second != target[k])
          return 0;
      return open.size() >= target.size() ? 2 : 1;
    };
    std::istringstream in(listing);
    for (std::string line; std::getline(in, line);)
      {
        const auto first = line.find_first_not_of(' ');
        if (first == std::string::npos)
          {
            if (relation() == 2)
              out << "\n";
            continue;
          }
        const std::string text = line.substr(first);
        if (text == "end")
          {
            if (!open.empty())
              {
                if (relation() > 0)
                  out << line << "\n";
                open.pop_back();
              }
            continue;
          }
        while (!open.empty() && open.back().first >= first)
          open.pop_back();
        if (text.rfind("subsection ", 0) == 0)
          {
            open.emplace_back(first, text.substr(11));
            if (relation() > 0)
              out << line << "\n";
          }
        else if (!open.empty() && relation() == 2)
          out << line << "\n";
      }
  }
}

/**
 * The program: everything `hamilton` does except answering --help, which
 * source/launcher.cc does before this library and deal.II's chain of
 * shared libraries are loaded.
 */
extern "C" int
hamilton_main(int argc, char **argv)
{
  // MPI, PETSc and SLEPc start only when a run needs them (or under mpirun)
  hamilton::Process process(argc, argv);
  // Under mpirun, a continuum runs on every rank; every other run is serial:
  // rank 0 alone reads, computes, prints and writes, the other ranks end at
  // once (see hamilton::run and doc/running.md). Commands other than a
  // run answer on rank 0 only.
  const bool other_rank = hamilton::started_by_mpi_launcher() &&
                          dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) > 0;
  try
    {
      hamilton::RunOptions options;
      std::vector<std::string> args(argv + 1, argv + argc);
      if (other_rank && (args.empty() || args[0] == "--print-parameters" || (args[0].rfind("--", 0) == 0 && args.size() < 2)))
        return 0;
      if (args.empty() || args[0] == "--help" || args[0] == "-h")
        {
          std::cout << hamilton::usage_text;
          return args.empty() ? 1 : 0;
        }
      if (args[0] == "--version")
        {
          std::cout << hamilton::version_text();
          return 0;
        }
      if (args[0] == "--print-parameters")
        {
          // every user-named list shown with one item called NAME, and one
          // lumped component of each type (named after it)
          const auto components = hamilton::lumped::ComponentRegistry::instance().names();
          const auto set = [](dealii::ParameterHandler &p, const std::vector<std::string> &path,
                              const std::string &entry, const std::string &value) {
            for (const auto &s : path)
              p.enter_subsection(s);
            p.set(entry, value);
            for (std::size_t i = 0; i < path.size(); ++i)
              p.leave_subsection();
          };
          const auto component_name = [](std::string type) {
            for (auto &c : type)
              if (c == ' ' || c == '-')
                c = '_';
            return type;
          };
          // the lists' names, then (a second pass) the components' types
          const auto name_lists = [&](dealii::ParameterHandler &p, const bool types) {
            for (const auto &path : hamilton::BeamModel::named_lists())
              set(p, path, "Names", "NAME");
            for (const auto &path : hamilton::continuum::ContinuumModel::named_lists())
              set(p, path, "Names", "NAME");
            set(p, {"Lumped system", "Time functions"}, "Names", "NAME");
            set(p, {"Study", "Parameters"}, "Names", "NAME");
            std::string names;
            for (const auto &type : components)
              names += (names.empty() ? "" : ", ") + component_name(type);
            set(p, {"Lumped system", "Components"}, "Names", names);
            if (types)
              for (const auto &type : components)
                set(p, {"Lumped system", "Components", component_name(type)}, "Type", type);
          };
          dealii::ParameterHandler first, second, prm;
          hamilton::declare_all_parameters(first, nullptr);
          name_lists(first, false);
          hamilton::declare_all_parameters(second, &first);
          name_lists(second, true);
          hamilton::declare_all_parameters(prm, &second);
          name_lists(prm, true);
          if (args.size() > 1)
            {
              // one subsection: its entries, documentation, defaults and allowed values
              const auto path = split_path(args[1]);
              if (args.size() > 2 || path.empty() || !prm.subsection_path_exists(path))
                {
                  std::ostringstream top;
                  prm.print_parameters(top, dealii::ParameterHandler::ShortPRM);
                  std::string sections;
                  std::istringstream lines(top.str());
                  for (std::string line; std::getline(lines, line);)
                    if (line.rfind("subsection ", 0) == 0)
                      sections += (sections.empty() ? "'" : ", '") + line.substr(11) + "'";
                  std::cerr << "Error: --print-parameters '" << (args.size() > 1 ? args[1] : "")
                            << "': no such subsection"
                            << (args.size() > 2 ? " (give one path, e.g. 'Lumped system/Components/diode')" : "")
                            << ". Give a path of subsections joined by '/' as in the full listing "
                               "('hamilton --print-parameters'); the top-level subsections are "
                            << sections << ". A lumped component's subsection is named after its type with "
                               "'_' for spaces, e.g. 'Lumped system/Components/dc_motor'.\n";
                  return 1;
                }
              std::ostringstream listing, allowed;
              prm.print_parameters(listing, dealii::ParameterHandler::PRM);
              prm.print_parameters(allowed, dealii::ParameterHandler::Description);
              std::cout << "# The entries of subsection '" << args[1] << "' (a valid template for it).\n";
              print_subsection(listing.str(), path, std::cout);
              std::cout << "\n# The values each entry allows.\n";
              print_subsection(allowed.str(), path, std::cout);
              return 0;
            }
          std::cout << "# Every entry of a Hamilton parameter file. Lists of "
                       "user-named items\n# (materials, layers, segments, "
                       "supports, point masses, point loads, time functions) are\n# shown with "
                       "one item called NAME: each name in 'Names' gets a "
                       "subsection.\n# 'Lumped system/Components' shows one component of "
                       "each type, named after it.\n";
          std::cout << "#\n# Part 1: every entry with its default and "
                       "documentation (a valid template).\n";
          prm.print_parameters(std::cout, dealii::ParameterHandler::PRM);
          std::cout << "\n# Part 2: the values each entry allows.\n";
          prm.print_parameters(std::cout, dealii::ParameterHandler::Description);
          return 0;
        }
      for (std::size_t i = 0; i < args.size(); ++i)
        {
          if (args[i] == "--validate")
            options.validate_only = true;
          else if (args[i] == "--print-equations")
            options.print_equations = true;
          else if (args[i] == "--resume")
            options.resume = true;
          else if (args[i] == "--no-cache") // read by the lumped library's compiler (simulation.cc)
            setenv("HAMILTON_NO_CACHE", "1", 1);
          else if (args[i] == "--set")
            {
              const std::string change = i + 1 < args.size() ? args[i + 1] : "";
              const auto        equals = change.find('=');
              if (equals == std::string::npos || equals == 0 || change.rfind("--", 0) == 0)
                {
                  std::cerr << "Error: the option --set needs 'Path/To/Entry=value' (subsections and entry "
                               "joined by '/', as 'hamilton --print-parameters' lists them), e.g. --set "
                               "'Beam/Layers/strip/Thickness=0.003'"
                            << (change.empty() ? "" : "; got '" + change + "'") << ".\n"
                            << hamilton::usage_text;
                  return 1;
                }
              options.changes.emplace_back(change.substr(0, equals), change.substr(equals + 1));
              ++i;
            }
          else if (args[i] == "--output-dir")
            {
              if (i + 1 == args.size() || args[i + 1].empty() || args[i + 1].rfind("--", 0) == 0)
                {
                  std::cerr << "Error: the option --output-dir needs a value: the directory for the results, "
                               "e.g. '--output-dir results/run1'.\n"
                            << hamilton::usage_text;
                  return 1;
                }
              options.output_directory = args[++i];
            }
          else if (args[i].rfind("--", 0) == 0 || args[i] == "-h")
            {
              std::cerr << "Error: unknown option '" << args[i] << "'.\n" << hamilton::usage_text;
              return 1;
            }
          else if (!options.parameter_file.empty())
            {
              std::cerr << "Error: two parameter files given, '" << options.parameter_file << "' and '" << args[i]
                        << "'. Hamilton runs one file at a time: run it once per file.\n"
                        << hamilton::usage_text;
              return 1;
            }
          else
            options.parameter_file = args[i];
        }
      if (options.parameter_file.empty())
        {
          std::cerr << "No parameter file given.\n" << hamilton::usage_text;
          return 1;
        }
      hamilton::check_distinct_changes(options.changes);
      hamilton::run(options, std::cout);
    }
  catch (const hamilton::Interrupted &e)
    {
      std::cerr << "\n" << (e.signal_number == SIGINT ? "Interrupted" : "Terminated") << " ("
                << hamilton::signal_name(e.signal_number) << "): " << e.what() << "\n";
      return 128 + e.signal_number;
    }
  catch (const hamilton::InputError &e)
    {
      std::cerr << "Error: " << e.what() << "\n";
      return 1;
    }
  catch (const hamilton::OutputError &e)
    {
      std::cerr << "Error: " << e.what() << "\n";
      return 1;
    }
  catch (const std::exception &e)
    {
      std::cerr << "Internal error: " << e.what() << "\n";
      return 2;
    }
  return 0;
}
