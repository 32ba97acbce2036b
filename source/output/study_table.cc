#include <hamilton/analyses/study_result.h>
#include <hamilton/base/files.h>
#include <hamilton/output/study_table.h>
#include <hamilton/output/writers.h>

#include <iomanip>

namespace hamilton
{
  std::unique_ptr<RowSink>
  StudyTableWriter::open_rows(const AnalysisResult &result, const Destination &destination) const
  {
    if (dynamic_cast<const StudyResult *>(&result) == nullptr)
      return nullptr;
    return csv_row_sink(destination.directory + "/study.csv", "study.csv", 17);
  }

  void
  StudyTableWriter::finish(const RunResults &run, const Destination &destination) const
  {
    if (!run.stopped)
      return;
    for (const auto *r : run.results)
      if (const auto *study = dynamic_cast<const StudyResult *>(r))
        {
          const nlohmann::json partial = {{"format", "hamilton-study-partial"},
                                          {"input", study->input},
                                          {"fingerprint", study->fingerprint},
                                          {"n_points", study->points.size()}};
          write_file(destination.directory + "/study.partial.json",
                     [&](std::ostream &json) { json << std::setw(2) << partial << "\n"; });
        }
  }

  HAMILTON_REGISTER_WRITER(StudyTableWriter, "study table",
                           "study.csv, the rows of a study, written row by row as its points are computed; "
                           "study.partial.json when it is stopped.")
} // namespace hamilton
