#include <hamilton/output/terminal_summary.h>

namespace hamilton
{
  void
  TerminalSummaryWriter::print(const AnalysisResult &result, std::ostream &out) const
  {
    result.print_summary(out);
    out.precision(6); // a summary's own precision does not leak into the next
    out.unsetf(std::ios::floatfield);
    for (const auto &w : result.warnings)
      out << "  WARNING: " << w << "\n";
  }

  HAMILTON_REGISTER_WRITER(TerminalSummaryWriter, "terminal summary",
                           "each result's summary and warnings on the terminal, as soon as it is computed.")
} // namespace hamilton
