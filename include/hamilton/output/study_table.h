#ifndef hamilton_output_study_table_h
#define hamilton_output_study_table_h

#include <hamilton/output/writer.h>

namespace hamilton
{
  /**
   * study.csv, the rows of a study (every number with 17 significant
   * digits, so that it reads back to the same double), written and flushed
   * row by row as the points are computed, with its column sidecar
   * study.csv.columns.json; and, when the study is stopped, study.partial.json
   * (the fingerprint of the file that wrote the rows and their number): what
   * --resume reads to continue.
   */
  class StudyTableWriter : public Writer
  {
  public:
    std::unique_ptr<RowSink>
    open_rows(const AnalysisResult &result, const Destination &destination) const override;

    void
    finish(const RunResults &run, const Destination &destination) const override;
  };
} // namespace hamilton

#endif
