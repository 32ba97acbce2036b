#include <hamilton/base/input.h>
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
          dealii::ParameterHandler prm;
          hamilton::declare_all_parameters(prm, nullptr);
          prm.print_parameters(std::cout, dealii::ParameterHandler::Text);
          std::cout << "\nNamed subsections (materials, layers, segments, "
                       "supports, point masses, point loads) are declared by "
                       "the 'Names' entry of their parent subsection and have "
                       "the entries documented above for their kind.\n";
          return 0;
        }
      for (std::size_t i = 0; i < args.size(); ++i)
        {
          if (args[i] == "--validate")
            options.validate_only = true;
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
