#include <hamilton/analyses/study_result.h>
#include <hamilton/base/files.h>
#include <hamilton/output/study_table.h>
#include <hamilton/output/writers.h>

#include <filesystem>
#include <iomanip>

#include <unistd.h>

namespace hamilton
{
  std::unique_ptr<RowSink>
  StudyTableWriter::open_rows(const AnalysisResult &result, const Destination &destination) const
  {
    const auto *study = dynamic_cast<const StudyResult *>(&result);
    if (study == nullptr)
      return nullptr;
    // from the start: a study killed (SIGKILL) leaves the table and the
    // fingerprint in the temporary directory, where --resume finds them
    // while the process ('pid') no longer runs
    const nlohmann::json running = {{"format", "hamilton-study-partial"},
                                    {"input", study->input},
                                    {"fingerprint", study->fingerprint},
                                    {"pid", ::getpid()}};
    write_file(destination.directory + "/study.partial.json",
               [&](std::ostream &json) { json << std::setw(2) << running << "\n"; });
    return csv_row_sink(destination.directory + "/study.csv", "study.csv", 17);
  }

  void
  StudyTableWriter::finish(const RunResults &run, const Destination &destination) const
  {
    if (!run.stopped)
      {
        // a finished study: its results.json holds the fingerprint
        std::error_code ignored;
        std::filesystem::remove(destination.directory + "/study.partial.json", ignored);
        return;
      }
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
