#include <hamilton/analyses/lumped_result.h>
#include <hamilton/base/files.h>
#include <hamilton/output/lumped_csv.h>

#include <iomanip>
#include <memory>

namespace hamilton
{
  namespace
  {
    class CsvSink : public RowSink
    {
    public:
      explicit CsvSink(const std::string &filename)
        : filename(filename)
      {}

      void
      begin(const std::vector<std::string> &columns, const std::vector<ColumnDescription> &described) override
      {
        file = std::make_unique<OutputFile>(filename);
        auto &csv = file->stream();
        csv << std::setprecision(12);
        for (std::size_t k = 0; k < columns.size(); ++k)
          csv << (k ? "," : "") << columns[k];
        csv << "\n";
        write_column_descriptions(filename, described);
      }

      void
      row(const std::vector<double> &values) override
      {
        auto &csv = file->stream();
        for (std::size_t k = 0; k < values.size(); ++k)
          csv << (k ? "," : "") << values[k];
        csv << "\n" << std::flush; // valid up to the last row if the run stops
        file->check();
      }

      nlohmann::json
      end(std::ostream &) override
      {
        if (file)
          file->close();
        return nullptr;
      }

      std::string
      name() const override
      {
        return "lumped.csv";
      }

    private:
      std::string                 filename;
      std::unique_ptr<OutputFile> file; ///< opened by begin()
    };
  } // namespace

  std::unique_ptr<RowSink>
  LumpedCsvWriter::open_rows(const AnalysisResult &result, const Destination &destination) const
  {
    // a study's point without its own output directory: nothing reads the
    // rows (its quantities come from the run's summary, in memory)
    if (dynamic_cast<const LumpedResult *>(&result) == nullptr || destination.scratch)
      return nullptr;
    return std::make_unique<CsvSink>(destination.directory + "/lumped.csv");
  }

  HAMILTON_REGISTER_WRITER(LumpedCsvWriter, "lumped csv",
                           "lumped.csv, the rows of a lumped run, written row by row while it integrates.")
} // namespace hamilton
