#ifndef hamilton_analyses_study_result_h
#define hamilton_analyses_study_result_h

#include <hamilton/analyses/analysis.h>
#include <hamilton/base/columns.h>
#include <hamilton/study.h>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace hamilton
{
  /** One evaluated point of a study. */
  struct StudyPoint
  {
    /** The point's place in the design (0-based). */
    std::size_t         index = 0;
    std::vector<double> x;      ///< the parameters' values
    std::vector<double> values; ///< the quantities' values (nan: failed)
    std::string         error;  ///< why the point failed; empty: it did not
  };

  /**
   * The result of a study, for the writers: the study as read, its points in
   * the design's order (parameters and quantities), the optimization's
   * outcome and what the run cost. Its points also arrive one at a time
   * while the study runs, as the rows of a table (Writer::open_rows(): the
   * columns 'point', the parameters, the quantities); a stopped study's
   * writers are finished with RunResults::stopped set, so that --resume
   * finds the rows computed so far. Its results.json is a document of its
   * own (format "hamilton-study"): add_to_json() replaces what the run put
   * there.
   */
  class StudyResult : public AnalysisResult
  {
  public:
    Study                    study;
    std::string              input;       ///< the parameter file's name
    std::string              fingerprint; ///< of the file and the --set values: see --resume
    std::vector<std::string> quantities;  ///< paths into a point's results.json
    std::vector<StudyPoint>  points;

    /** An optimization's outcome: why it stopped and the best point (index into points). */
    struct Optimum
    {
      std::string stop;
      std::size_t best = 0;
    };
    std::optional<Optimum> optimum;

    /** Runs of the C compiler on derived lumped equations and beams solved (ROMs exported), on all ranks. */
    unsigned long n_compilations = 0, n_beam_solves = 0;
    /** For the terminal: whether --resume was given, the rows taken from the earlier table, the wall time. */
    bool        resumed   = false;
    std::size_t n_resumed = 0;
    double      seconds   = 0;

    /** The columns of the table: 'point', the parameters' names, then the quantities. */
    std::vector<std::string>
    column_names() const;

    /** Every column of the table (first 'point'): name, unit, meaning. */
    std::vector<ColumnDescription>
    columns() const;

    /** The row of point k: its number (k + 1), the parameters, the quantities. */
    std::vector<double>
    row(std::size_t k) const;

    std::size_t
    n_failed() const;

    /** The values of quantity q at every point (nan: failed). */
    std::vector<double>
    values_of(std::size_t q) const;

    /**
     * The optimum's line (if any), the table (every row up to 40, else the
     * first 20 and the last 10), the line of points and costs, and for a
     * monte carlo design the statistics of each quantity.
     */
    void
    print_summary(std::ostream &out) const override;

    void
    add_to_json(nlohmann::json &results) const override;
  };
} // namespace hamilton

#endif
