#ifndef hamilton_analyses_analysis_h
#define hamilton_analyses_analysis_h

#include <hamilton/base/input.h>
#include <hamilton/base/registry.h>
#include <hamilton/beam/beam_model.h>
#include <hamilton/discretization/discretization.h>

#include <deal.II/lac/vector.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace hamilton
{
  /** What every analysis works on: the model, its discretization, operators. */
  struct Problem
  {
    const BeamModel      &model;
    const Discretization &discretization;
    const Operators      &operators;
  };

  /** A table of numbers with named columns, written as CSV by a writer. */
  struct Table
  {
    std::string                      name; ///< file stem, e.g. "modes"
    std::vector<std::string>         columns;
    std::vector<std::vector<double>> rows;
  };

  /**
   * A displacement field of the discretization (a mode, a static solution)
   * that writers can show on the beam, e.g. as VTU for ParaView.
   */
  struct Field
  {
    std::string            name;  ///< e.g. "mode_3"
    double                 index; ///< position in an animation (mode number)
    dealii::Vector<double> values;
  };

  /**
   * What an analysis returns. It formats itself for the terminal and JSON and
   * exposes its tables and fields; it performs no file I/O.
   */
  class AnalysisResult
  {
  public:
    virtual ~AnalysisResult() = default;
    virtual void
    print_summary(std::ostream &out) const = 0;
    virtual void
    add_to_json(nlohmann::json &results) const = 0;
    virtual std::vector<Table>
    tables() const
    {
      return {};
    }
    /** Fields grouped into one animation (PVD) per group name. */
    virtual std::vector<std::pair<std::string, std::vector<Field>>>
    fields() const
    {
      return {};
    }
    /** JSON documents to write beside results.json: file name, content. */
    virtual std::vector<std::pair<std::string, nlohmann::json>>
    documents() const
    {
      return {};
    }
    /** Warnings the user must see (printed and stored in results.json). */
    std::vector<std::string> warnings;
  };

  /**
   * An analysis of a beam. Each registers itself by its lowercase name
   * ("modal") and declares its entries in subsection "Analysis/<Name>"
   * ("Analysis/Modal"), or in the subsection it registers with.
   */
  class Analysis
  {
  public:
    virtual ~Analysis() = default;

    /** Declare subsection "Analysis" with the list and every analysis. */
    static void
    declare_parameters_of_all(dealii::ParameterHandler &prm);

    /** Create and parse the analyses listed in "Analysis/Analyses". */
    static std::vector<std::pair<std::string, std::unique_ptr<Analysis>>>
    create_selected(Section &section);

    /** Read the analysis' own entries; the section is inside "Analysis". */
    virtual void
    parse_parameters(Section &section) = 0;

    /**
     * Check what can only be checked against the discretized problem
     * (number of unknowns, supports); throws InputError. Called for every
     * analysis before any runs, so that nothing is written on bad input.
     */
    virtual void
    check(const Problem &problem) const = 0;

    virtual std::unique_ptr<AnalysisResult>
    run(const Problem &problem) const = 0;

    /**
     * The documents run() will write (file name, content) with their final
     * names and ports (electrodes, output points) and at least as many
     * entries (modal coordinates) as they will have, but placeholder
     * numbers: the lumped part of a file is checked against them before
     * any solve. Default: none.
     */
    virtual std::vector<std::pair<std::string, nlohmann::json>>
    provisional_documents(const Problem & /*problem*/) const
    {
      return {};
    }
  };

  using AnalysisRegistry = Registry<Analysis>;

  /**
   * Read entry `entry` of the current subsection as a list of numbers: "a,
   * b, c", "linspace(start, stop, count)" or "logspace(e1, e2, count)". The
   * count must be a positive integer of at most `max_count`, and every value
   * finite; otherwise the message says which of these is wrong.
   */
  std::vector<double>
  get_number_list(const Section &section, const std::string &entry, std::size_t max_count);

  /**
   * A double entry that must be finite and of magnitude at most `bound` (in
   * `unit`), such that products of it with the model's numbers stay finite.
   */
  double
  get_bounded_double(const Section     &section,
                     const std::string &entry,
                     double             bound,
                     const std::string &unit);

  /**
   * Throw an InputError if a number of `result` (its tables, fields or JSON
   * summary) is not finite: such results are never written. The message names
   * the analysis' subsection `path`, where the first bad number is, and
   * `cause`, the entries that may be out of range.
   */
  void
  require_finite(const AnalysisResult &result, const std::string &path, const std::string &cause);
} // namespace hamilton

#endif
