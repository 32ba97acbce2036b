#include <hamilton/analyses/lumped_result.h>
#include <hamilton/output/lumped_csv.h>
#include <hamilton/output/writers.h>

namespace hamilton
{
  std::unique_ptr<RowSink>
  LumpedCsvWriter::open_rows(const AnalysisResult &result, const Destination &destination) const
  {
    // a study's point without its own output directory: nothing reads the
    // rows (its quantities come from the run's summary, in memory)
    if (dynamic_cast<const LumpedResult *>(&result) == nullptr || destination.scratch)
      return nullptr;
    return csv_row_sink(destination.directory + "/lumped.csv", "lumped.csv", 12);
  }

  HAMILTON_REGISTER_WRITER(LumpedCsvWriter, "lumped csv",
                           "lumped.csv, the rows of a lumped run, written row by row while it integrates.")
} // namespace hamilton
