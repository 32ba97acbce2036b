#ifndef hamilton_output_results_json_h
#define hamilton_output_results_json_h

#include <hamilton/output/writer.h>

namespace hamilton
{
  /** results.json: the summary of the whole run (RunResults::to_json()), written at the end; none for a stopped run. */
  class ResultsJsonWriter : public Writer
  {
  public:
    void
    finish(const RunResults &run, const Destination &destination) const override;
  };
} // namespace hamilton

#endif
