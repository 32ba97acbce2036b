#include <hamilton/base/input.h>
#include <hamilton/beam/beam_model.h>
#include <hamilton/run.h>

#include <deal.II/base/mpi.h>

#include <iostream>
#include <string>

namespace
{
  const char *usage =
    "Usage:\n"
    "  hamilton FILE.prm [--output-dir DIR]  run what the file describes\n"
    "  hamilton --validate FILE.prm           read and check the file only\n"
    "  hamilton --print-equations FILE.prm    the derived equations of the lumped\n"
    "                                         system, as text and LaTeX\n"
    "  hamilton --print-parameters            every entry with its documentation,\n"
    "                                         default and allowed values\n"
    "  hamilton --help                        this text\n";
}

int
main(int argc, char **argv)
{
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  try
    {
      hamilton::RunOptions options;
      std::vector<std::string> args(argv + 1, argv + argc);
      if (args.empty() || args[0] == "--help" || args[0] == "-h")
        {
          std::cout << usage;
          return args.empty() ? 1 : 0;
        }
      if (args[0] == "--print-parameters")
        {
          // every user-named list shown with one item called NAME
          dealii::ParameterHandler example;
          hamilton::declare_all_parameters(example, nullptr);
          for (const auto &path : hamilton::BeamModel::named_lists())
            {
              for (const auto &s : path)
                example.enter_subsection(s);
              example.set("Names", "NAME");
              for (std::size_t i = 0; i < path.size(); ++i)
                example.leave_subsection();
            }
          dealii::ParameterHandler prm;
          hamilton::declare_all_parameters(prm, &example);
          std::cout << "# Every entry of a Hamilton parameter file. Lists of "
                       "user-named items\n# (materials, layers, segments, "
                       "supports, point masses, point loads) are\n# shown with "
                       "one item called NAME: each name in 'Names' gets a "
                       "subsection.\n";
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
          else if (args[i] == "--output-dir" && i + 1 < args.size())
            options.output_directory = args[++i];
          else if (args[i].rfind("--", 0) == 0)
            {
              std::cerr << "Unknown option '" << args[i] << "'.\n" << usage;
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
  catch (const hamilton::InputError &e)
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
