#include <hamilton/base/files.h>
#include <hamilton/base/input.h>
#include <hamilton/base/process.h>
#include <hamilton/beam/beam_model.h>
#include <hamilton/continuum/continuum.h>
#include <hamilton/lumped/component.h>
#include <hamilton/output/version.h>
#include <hamilton/run.h>

#include <deal.II/base/mpi.h>

#include <csignal>
#include <iostream>
#include <string>

namespace
{
  const char *usage =
    "Usage:\n"
    "  hamilton FILE.prm [--output-dir DIR]  run what the file describes\n"
    "  hamilton --validate FILE.prm           read and check the file only\n"
    "  ... --set 'Path/To/Entry=value'         replace an entry of the file (repeatable),\n"
    "                                         e.g. --set 'Beam/Layers/strip/Thickness=0.003'\n"
    "  ... --resume                           continue a stopped study from the rows of\n"
    "                                         the study.csv in its output directory\n"
    "  hamilton --print-equations FILE.prm    the derived equations of the lumped\n"
    "                                         system, as text and LaTeX\n"
    "  hamilton --print-parameters            every entry with its documentation,\n"
    "                                         default and allowed values\n"
    "  hamilton --version                     version, git commit and library versions\n"
    "  hamilton --help                        this text\n";
}

int
main(int argc, char **argv)
{
  // MPI, PETSc and SLEPc start only when a run needs them (or under mpirun)
  hamilton::Process process(argc, argv);
  // Under mpirun, a continuum runs on every rank; every other run is serial:
  // rank 0 alone reads, computes, prints and writes, the other ranks end at
  // once (see hamilton::run and README, "Running"). Commands other than a
  // run answer on rank 0 only.
  const bool other_rank = hamilton::started_by_mpi_launcher() &&
                          dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) > 0;
  try
    {
      hamilton::RunOptions options;
      std::vector<std::string> args(argv + 1, argv + argc);
      if (other_rank && (args.empty() || args[0].rfind("--", 0) == 0) && args.size() < 2)
        return 0;
      if (args.empty() || args[0] == "--help" || args[0] == "-h")
        {
          std::cout << usage;
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
          dealii::ParameterHandler first, second;
          hamilton::declare_all_parameters(first, nullptr);
          for (const auto &path : hamilton::BeamModel::named_lists())
            set(first, path, "Names", "NAME");
          for (const auto &path : hamilton::continuum::ContinuumModel::named_lists())
            set(first, path, "Names", "NAME");
          set(first, {"Lumped system", "Time functions"}, "Names", "NAME");
          set(first, {"Study", "Parameters"}, "Names", "NAME");
          std::string names;
          for (const auto &type : components)
            names += (names.empty() ? "" : ", ") + component_name(type);
          set(first, {"Lumped system", "Components"}, "Names", names);
          hamilton::declare_all_parameters(second, &first);
          for (const auto &path : hamilton::BeamModel::named_lists())
            set(second, path, "Names", "NAME");
          for (const auto &path : hamilton::continuum::ContinuumModel::named_lists())
            set(second, path, "Names", "NAME");
          set(second, {"Lumped system", "Time functions"}, "Names", "NAME");
          set(second, {"Study", "Parameters"}, "Names", "NAME");
          set(second, {"Lumped system", "Components"}, "Names", names);
          for (const auto &type : components)
            set(second, {"Lumped system", "Components", component_name(type)}, "Type", type);
          dealii::ParameterHandler prm;
          hamilton::declare_all_parameters(prm, &second);
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
                            << usage;
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
                            << usage;
                  return 1;
                }
              options.output_directory = args[++i];
            }
          else if (args[i].rfind("--", 0) == 0 || args[i] == "-h")
            {
              std::cerr << "Error: unknown option '" << args[i] << "'.\n" << usage;
              return 1;
            }
          else if (!options.parameter_file.empty())
            {
              std::cerr << "Error: two parameter files given, '" << options.parameter_file << "' and '" << args[i]
                        << "'. Hamilton runs one file at a time: run it once per file.\n"
                        << usage;
              return 1;
            }
          else
            options.parameter_file = args[i];
        }
      if (options.parameter_file.empty())
        {
          std::cerr << "No parameter file given.\n" << usage;
          return 1;
        }
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
