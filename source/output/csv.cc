#include <hamilton/base/columns.h>
#include <hamilton/base/files.h>
#include <hamilton/output/writers.h>

#include <iomanip>
#include <memory>

namespace hamilton
{
  namespace
  {
    class CsvRowSink : public RowSink
    {
    public:
      CsvRowSink(const std::string &filename, const std::string &name, const int digits)
        : filename(filename)
        , sink_name(name)
        , digits(digits)
      {}

      void
      begin(const std::vector<std::string> &columns, const std::vector<ColumnDescription> &described) override
      {
        file = std::make_unique<OutputFile>(filename);
        auto &csv = file->stream();
        csv << std::setprecision(digits);
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
        return sink_name;
      }

    private:
      std::string                 filename, sink_name;
      int                         digits;
      std::unique_ptr<OutputFile> file; ///< opened by begin()
    };
  } // namespace

  std::unique_ptr<RowSink>
  csv_row_sink(const std::string &filename, const std::string &name, const int digits)
  {
    return std::make_unique<CsvRowSink>(filename, name, digits);
  }

  void
  write_csv(const Table &table, const std::string &filename)
  {
    write_file(filename, [&](std::ostream &out) {
      for (std::size_t c = 0; c < table.columns.size(); ++c)
        out << (c ? "," : "") << table.columns[c];
      out << "\n" << std::setprecision(16);
      for (const auto &row : table.rows)
        {
          for (std::size_t c = 0; c < row.size(); ++c)
            out << (c ? "," : "") << row[c];
          out << "\n";
        }
    });
    std::vector<ColumnDescription> described;
    for (const auto &c : table.columns)
      described.push_back(describe_column(c));
    write_column_descriptions(filename, described);
  }
} // namespace hamilton
