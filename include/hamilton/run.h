#ifndef hamilton_run_h
#define hamilton_run_h

#include <hamilton/analyses/analysis.h>

#include <deal.II/base/parameter_handler.h>

#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hamilton
{
  /** Declare every entry of a Hamilton parameter file. */
  void
  declare_all_parameters(dealii::ParameterHandler       &prm,
                         const dealii::ParameterHandler *first_pass);

  /**
   * Read a parameter file with every entry declared, then replace entries:
   * each pair is ("Subsection/.../Entry", value).
   */
  void
  read_parameters(dealii::ParameterHandler                               &prm,
                  const std::string                                      &parameter_file,
                  const std::vector<std::pair<std::string, std::string>> &changes = {});

  /** A beam model read from a parameter file, discretized, with its operators. */
  struct LoadedBeam
  {
    BeamModel                       model;
    std::unique_ptr<Discretization> discretization;
    std::unique_ptr<Operators>      operators;
    Problem
    problem() const
    {
      return {model, *discretization, *operators};
    }
  };

  /**
   * Read the beam of a parameter file (its analyses are ignored), with
   * entries replaced: each pair is ("Subsection/.../Entry", value). For
   * programs and tests that work on the library directly.
   */
  std::unique_ptr<LoadedBeam>
  load_beam(const std::string                                      &parameter_file,
            const std::vector<std::pair<std::string, std::string>> &changes = {});

  /** What the command line asks for. */
  struct RunOptions
  {
    std::string parameter_file;
    /** Overrides 'Output/Directory' if not empty. */
    std::string output_directory;
    /** Only read and check the file; write nothing. */
    bool validate_only = false;
    /** Print the derived equations of the lumped system; write nothing. */
    bool print_equations = false;
    /**
     * Entries replaced in the file ("Subsection/.../Entry", value), checked
     * as the file: --set on the command line, and the values of a study's point.
     */
    std::vector<std::pair<std::string, std::string>> changes = {};
    /**
     * Not null: run as one point of a study (subsection 'Study' is not
     * run again) and store the results.json document here.
     */
    nlohmann::json *point_results = nullptr;
    /** Whether the output directory is written (false for a study's points by default). */
    bool write_output = true;
    /**
     * A study continues from the rows of the study.csv in its output
     * directory (written by the same file with the same --set values).
     */
    bool resume = false;
  };

  /**
   * Run what the parameter file describes: read and check everything (with
   * a beam and a lumped system in one file, the lumped part against the
   * files the beam's analyses produce), run the analyses (or the sweep),
   * print summaries to `out`, and only then write the output directory,
   * atomically (see OutputDirectory). Throws InputError on bad input,
   * OutputError on a failed write, Interrupted after SIGINT/SIGTERM; in
   * each case no output directory is left, except `lumped.partial.csv` when a
   * lumped integration stopped.
   */
  void
  run(const RunOptions &options, std::ostream &out);
} // namespace hamilton

#endif
