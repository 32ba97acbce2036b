#include <hamilton/analyses/study_result.h>
#include <hamilton/base/files.h>
#include <hamilton/output/study_table.h>

#include <iomanip>
#include <memory>

namespace hamilton
{
  namespace
  {
    class StudyCsvSink : public RowSink
    {
    public:
      explicit StudyCsvSink(const std::string &filename)
        : filename(filename)
      {}

      void
      begin(const std::vector<std::string> &columns, const std::vector<ColumnDescription> &described) override
      {
        file = std::make_unique<OutputFile>(filename);
        auto &csv = file->stream();
        csv << "point";
        for (const auto &c : columns)
          csv << "," << c;
        csv << "\n";
        write_column_descriptions(filename, described);
      }

      void
      row(const std::vector<double> &values) override
      {
        auto &csv = file->stream();
        for (std::size_t k = 0; k < values.size(); ++k)
          csv << (k ? "," : "") << exact_text(values[k]);
        csv << "\n" << std::flush; // valid up to the last row if the study stops
        file->check();
      }

      nlohmann::json
      end(std::ostream &) override
      {
        if (file)
          file->close();
        return nullptr;
      }

      std::string
      name() const override
      {
        return "study.csv";
      }

    private:
      std::string                 filename;
      std::unique_ptr<OutputFile> file; ///< opened by begin()
    };
  } // namespace

  std::unique_ptr<RowSink>
  StudyTableWriter::open_rows(const AnalysisResult &result, const Destination &destination) const
  {
    if (dynamic_cast<const StudyResult *>(&result) == nullptr)
      return nullptr;
    return std::make_unique<StudyCsvSink>(destination.directory + "/study.csv");
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
