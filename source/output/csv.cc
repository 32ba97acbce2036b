#include <hamilton/output/writers.h>

#include <fstream>
#include <iomanip>
#include <stdexcept>

namespace hamilton
{
  void
  write_csv(const Table &table, const std::string &filename)
  {
    std::ofstream out(filename);
    if (!out)
      throw std::runtime_error("Cannot write '" + filename + "'.");
    for (std::size_t c = 0; c < table.columns.size(); ++c)
      out << (c ? "," : "") << table.columns[c];
    out << "\n" << std::setprecision(16);
    for (const auto &row : table.rows)
      {
        for (std::size_t c = 0; c < row.size(); ++c)
          out << (c ? "," : "") << row[c];
        out << "\n";
      }
  }
} // namespace hamilton
