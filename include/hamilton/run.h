#ifndef hamilton_run_h
#define hamilton_run_h

#include <deal.II/base/parameter_handler.h>

#include <iosfwd>
#include <string>

namespace hamilton
{
  /** Declare every entry of a Hamilton parameter file. */
  void
  declare_all_parameters(dealii::ParameterHandler       &prm,
                         const dealii::ParameterHandler *first_pass);

  /** What the command line asks for. */
  struct RunOptions
  {
    std::string parameter_file;
    /** Overrides 'Output/Directory' if not empty. */
    std::string output_directory;
    /** Only read and check the file; write nothing. */
    bool validate_only = false;
  };

  /**
   * Run what the parameter file describes: read and check everything, run
   * the analyses (or the sweep), print summaries to `out`, and only then
   * write the output directory. Throws InputError on bad input.
   */
  void
  run(const RunOptions &options, std::ostream &out);
} // namespace hamilton

#endif
