#ifndef hamilton_output_json_documents_h
#define hamilton_output_json_documents_h

#include <hamilton/output/writer.h>

namespace hamilton
{
  /** Each JSON document of a result (AnalysisResult::documents(), e.g. rom.json) under its file name, indented by 2. */
  class JsonDocumentsWriter : public Writer
  {
  public:
    void
    write(const AnalysisResult &result, const RunResults &run, const Destination &destination) const override;
  };
} // namespace hamilton

#endif
