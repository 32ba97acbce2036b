#ifndef hamilton_output_row_sink_h
#define hamilton_output_row_sink_h

#include <hamilton/base/columns.h>

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace hamilton
{
  /**
   * An observer of a table computed row by row (the lumped integration): the
   * integrator calls begin() once, row() for every output time as soon as it
   * is computed, and end() after the last row. A writer that streams (the
   * lumped CSV, so that a stopped run keeps the rows computed so far; the
   * animation, one frame file at a time) is a row sink rather than a consumer
   * of the finished table. Header only: the lumped library, which links no
   * writer, calls it.
   */
  class RowSink
  {
  public:
    virtual ~RowSink() = default;

    /**
     * Before the first row: the columns' names (first the time) and the
     * descriptions (name, unit, meaning) of those that have one. Not called
     * if no row follows (a lumped system's static equilibrium alone).
     */
    virtual void
    begin(const std::vector<std::string> & /*columns*/, const std::vector<ColumnDescription> & /*described*/)
    {}

    virtual void
    row(const std::vector<double> &values) = 0;

    /**
     * After the last row and the run's terminal summary: close the files,
     * print a line on `out` if there is something to say, and return what
     * results.json says about them under key name() of the run's result
     * (null: nothing).
     */
    virtual nlohmann::json
    end(std::ostream & /*out*/)
    {
      return nullptr;
    }

    /** The key of end()'s summary in the run's result. */
    virtual std::string
    name() const = 0;
  };
} // namespace hamilton

#endif
