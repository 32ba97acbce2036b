#ifndef hamilton_output_parameters_used_h
#define hamilton_output_parameters_used_h

#include <hamilton/output/writer.h>

namespace hamilton
{
  /** parameters_used.prm: every entry of the run (defaults, the file, --set), written at the end (a stopped study too). */
  class ParametersUsedWriter : public Writer
  {
  public:
    void
    finish(const RunResults &run, const Destination &destination) const override;
  };
} // namespace hamilton

#endif
