#ifndef hamilton_output_lumped_csv_h
#define hamilton_output_lumped_csv_h

#include <hamilton/output/writer.h>

namespace hamilton
{
  /**
   * lumped.csv, the rows of a lumped run (12 significant digits), written and
   * flushed row by row while it integrates, so that a stopped run keeps the
   * rows computed so far; and its column sidecar lumped.csv.columns.json.
   */
  class LumpedCsvWriter : public Writer
  {
  public:
    std::unique_ptr<RowSink>
    open_rows(const AnalysisResult &result, const Destination &destination) const override;
  };
} // namespace hamilton

#endif
