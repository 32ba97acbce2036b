#include <hamilton/base/columns.h>
#include <hamilton/base/files.h>
#include <hamilton/output/writers.h>

#include <iomanip>

namespace hamilton
{
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
