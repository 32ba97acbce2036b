#include <hamilton/output/csv_tables.h>
#include <hamilton/output/writers.h>

namespace hamilton
{
  void
  CsvTablesWriter::write(const AnalysisResult &result, const RunResults &, const Destination &destination) const
  {
    for (const auto &table : result.tables())
      write_csv(table, destination.directory + "/" + table.name + ".csv");
  }

  HAMILTON_REGISTER_WRITER(CsvTablesWriter, "csv tables", "each table of a result as CSV with its column sidecar.")
} // namespace hamilton
