#ifndef hamilton_output_csv_tables_h
#define hamilton_output_csv_tables_h

#include <hamilton/output/writer.h>

namespace hamilton
{
  /** Each table of a result (AnalysisResult::tables()) as <name>.csv with its column sidecar <name>.csv.columns.json (write_csv). */
  class CsvTablesWriter : public Writer
  {
  public:
    void
    write(const AnalysisResult &result, const RunResults &run, const Destination &destination) const override;
  };
} // namespace hamilton

#endif
