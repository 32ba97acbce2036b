#ifndef hamilton_output_terminal_summary_h
#define hamilton_output_terminal_summary_h

#include <hamilton/output/writer.h>

namespace hamilton
{
  /** The terminal summary of each result (its print_summary() and its warnings), as soon as it is computed. */
  class TerminalSummaryWriter : public Writer
  {
  public:
    void
    print(const AnalysisResult &result, std::ostream &out) const override;
  };
} // namespace hamilton

#endif
