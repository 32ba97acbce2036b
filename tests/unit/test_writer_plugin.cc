// An output is added without touching the core: this test binary registers
// its own writer with HAMILTON_REGISTER_WRITER, runs a beam file through
// hamilton::run, and checks that the writer was handed the typed results (the
// modal frequencies of a cantilever, against the closed form) and could write
// into the output directory before it was committed; and that a writer sees a
// study's typed result (its points, as rows while they are computed and as a
// whole at the end) in the same way.
#include <hamilton/analyses/lumped_result.h>
#include <hamilton/analyses/modal.h>
#include <hamilton/analyses/study_result.h>
#include <hamilton/base/files.h>
#include <hamilton/output/writer.h>
#include <hamilton/run.h>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_helpers.h"

namespace hamilton
{
  namespace
  {
    /** What the test writer saw. */
    struct Seen
    {
      std::vector<double> printed_hz, written_hz;
      double              bending_stiffness = 0, mass_per_length = 0, length = 0;
      unsigned int        finished          = 0;
    };

    Seen &
    seen()
    {
      static Seen s;
      return s;
    }

    class RecordingWriter : public Writer
    {
    public:
      void
      print(const AnalysisResult &result, std::ostream &out) const override
      {
        if (const auto *modal = dynamic_cast<const ModalResult *>(&result))
          for (const auto &m : modal->modes)
            seen().printed_hz.push_back(m.frequency_hz);
        out << "  (recording writer)\n";
      }

      void
      write(const AnalysisResult &result, const RunResults &run, const Destination &destination) const override
      {
        if (const auto *modal = dynamic_cast<const ModalResult *>(&result))
          {
            for (const auto &m : modal->modes)
              seen().written_hz.push_back(m.frequency_hz);
            seen().bending_stiffness = run.model->segments.at(0).section.bending_stiffness;
            seen().mass_per_length   = run.model->segments.at(0).section.mass_per_length;
            seen().length            = run.model->length();
            hamilton::write_file(destination.directory + "/recorded.txt",
                                 [&](std::ostream &file) { file << modal->modes.size() << " modes\n"; });
          }
      }

      void
      finish(const RunResults &run, const Destination &) const override
      {
        seen().finished += run.results.size();
      }
    };

    HAMILTON_REGISTER_WRITER(RecordingWriter, "test recording", "records what it is handed (unit test).")

    /** What the study writer saw: the rows streamed, the result printed and finished. */
    struct SeenStudy
    {
      std::vector<std::string>         columns;
      std::vector<std::vector<double>> rows;
      std::vector<double>              printed_lengths, printed_hz;
      unsigned int                     ended = 0, finished = 0;
    };

    SeenStudy &
    seen_study()
    {
      static SeenStudy s;
      return s;
    }

    class StudyRecordingWriter : public Writer
    {
    public:
      class Sink : public RowSink
      {
      public:
        void
        begin(const std::vector<std::string> &columns, const std::vector<ColumnDescription> &) override
        {
          seen_study().columns = columns;
        }

        void
        row(const std::vector<double> &values) override
        {
          seen_study().rows.push_back(values);
        }

        nlohmann::json
        end(std::ostream &) override
        {
          ++seen_study().ended;
          return nullptr;
        }

        std::string
        name() const override
        {
          return "test rows";
        }
      };

      void
      print(const AnalysisResult &result, std::ostream &) const override
      {
        if (const auto *study = dynamic_cast<const StudyResult *>(&result))
          for (const auto &p : study->points)
            {
              seen_study().printed_lengths.push_back(p.x.at(0));
              seen_study().printed_hz.push_back(p.values.at(0));
            }
      }

      std::unique_ptr<RowSink>
      open_rows(const AnalysisResult &result, const Destination &) const override
      {
        if (dynamic_cast<const StudyResult *>(&result) == nullptr)
          return nullptr;
        return std::make_unique<Sink>();
      }

      void
      finish(const RunResults &run, const Destination &) const override
      {
        for (const auto *r : run.results)
          if (dynamic_cast<const StudyResult *>(r) != nullptr)
            ++seen_study().finished;
      }
    };

    HAMILTON_REGISTER_WRITER(StudyRecordingWriter, "test study recording",
                             "records the study results it is handed (unit test).")

    /** The typed summary of the last lumped run printed. */
    lumped::RunSummary &
    seen_lumped()
    {
      static lumped::RunSummary s;
      return s;
    }

    class LumpedRecordingWriter : public Writer
    {
    public:
      void
      print(const AnalysisResult &result, std::ostream &) const override
      {
        if (const auto *lumped = dynamic_cast<const LumpedResult *>(&result))
          seen_lumped() = lumped->summary;
      }
    };

    HAMILTON_REGISTER_WRITER(LumpedRecordingWriter, "test lumped recording",
                             "records the lumped summary it is handed (unit test).")
  } // namespace

  TEST(WriterPlugin, ARegisteredWriterSeesTheTypedResultsOfABeamRun)
  {
    namespace fs = std::filesystem;
    const fs::path directory = fs::temp_directory_path() / "hamilton_test_writer_plugin";
    fs::remove_all(directory);
    RunOptions options;
    options.parameter_file   = std::string(HAMILTON_SOURCE_DIR) + "/prm/beam/cantilever_modes.prm";
    options.output_directory = directory.string();
    std::ostringstream out;
    seen() = {};
    run(options, out);

    EXPECT_NE(out.str().find("(recording writer)"), std::string::npos) << out.str();
    ASSERT_EQ(seen().printed_hz.size(), 6u);
    EXPECT_EQ(seen().printed_hz, seen().written_hz);
    EXPECT_EQ(seen().finished, 1u); // one result: the modal analysis
    std::ifstream recorded(directory / "recorded.txt");
    std::string   line;
    std::getline(recorded, line);
    EXPECT_EQ(line, "6 modes");
    EXPECT_TRUE(fs::exists(directory / "results.json")); // the built-in writers still ran

    // clamped-free Euler-Bernoulli beam: cos(x) cosh(x) = -1 at x = beta_n L,
    // f_n = x^2 / (2 pi L^2) sqrt(EI / rhoA); roots by bisection here
    const double EI = seen().bending_stiffness, rhoA = seen().mass_per_length, L = seen().length;
    EXPECT_NEAR(EI, 210e9 * 0.02 * std::pow(0.002, 3) / 12, 1e-9 * EI); // from the file's entries
    EXPECT_NEAR(rhoA, 7850 * 0.02 * 0.002, 1e-12);
    const auto characteristic = [](double x) { return std::cos(x) * std::cosh(x) + 1; };
    const auto roots          = testing::roots(characteristic, 0.5, 12, 1000);
    ASSERT_GE(roots.size(), 3u);
    for (unsigned int n = 0; n < 3; ++n)
      {
        const double f = roots[n] * roots[n] / (2 * M_PI * L * L) * std::sqrt(EI / rhoA);
        EXPECT_NEAR(seen().written_hz[n], f, 1e-7 * f) << "mode " << n + 1;
      }
    fs::remove_all(directory);
  }

  TEST(WriterPlugin, ARegisteredWriterSeesTheTypedResultOfAStudy)
  {
    // a 2-point study of the cantilever's length: the file of the test above
    // with a subsection 'Study'
    namespace fs = std::filesystem;
    const fs::path directory = fs::temp_directory_path() / "hamilton_test_writer_plugin_study";
    fs::remove_all(directory);
    fs::create_directories(directory);
    const fs::path file = directory / "cantilever_length_study.prm";
    {
      std::ifstream beam(std::string(HAMILTON_SOURCE_DIR) + "/prm/beam/cantilever_modes.prm");
      std::ofstream prm(file);
      prm << beam.rdbuf() << "\nsubsection Study\n  set Design = grid\n  set Quantities = modes/0/frequency_hz\n"
          << "  subsection Parameters\n    set Names = L\n    subsection L\n"
          << "      set Path = Beam/Segments/beam/Length\n      set Values = 0.2, 0.4\n    end\n  end\nend\n";
    }
    RunOptions options;
    options.parameter_file   = file.string();
    options.output_directory = (directory / "output").string();
    std::ostringstream out;
    seen_study() = {};
    run(options, out);

    const std::vector<std::string> columns{"point", "L", "modes/0/frequency_hz"};
    EXPECT_EQ(seen_study().columns, columns);
    ASSERT_EQ(seen_study().rows.size(), 2u); // streamed one by one: point number, L, f1
    EXPECT_EQ(seen_study().ended, 1u);
    EXPECT_EQ(seen_study().finished, 1u);
    ASSERT_EQ(seen_study().printed_hz.size(), 2u);
    EXPECT_TRUE(fs::exists(directory / "output" / "study.csv")); // the built-in writers still ran

    // first clamped-free mode: f1 = (beta_1 L)^2 / (2 pi L^2) sqrt(EI / rhoA),
    // beta_1 L = 1.87510406871196 (root of cos x cosh x = -1); EI and rhoA
    // from the file's entries (steel 210 GPa, 7850 kg/m^3, 20 mm x 2 mm)
    const double EI = 210e9 * 0.02 * std::pow(0.002, 3) / 12, rhoA = 7850 * 0.02 * 0.002, x = 1.87510406871196;
    const std::vector<double> lengths{0.2, 0.4};
    for (unsigned int k = 0; k < 2; ++k)
      {
        const double f = x * x / (2 * M_PI * lengths[k] * lengths[k]) * std::sqrt(EI / rhoA);
        EXPECT_EQ(seen_study().rows[k].at(0), k + 1);
        EXPECT_EQ(seen_study().rows[k].at(1), lengths[k]);
        EXPECT_NEAR(seen_study().rows[k].at(2), f, 1e-7 * f) << "point " << k + 1;
        EXPECT_EQ(seen_study().printed_lengths[k], lengths[k]);
        EXPECT_EQ(seen_study().printed_hz[k], seen_study().rows[k].at(2));
      }
    fs::remove_all(directory);
  }

  TEST(WriterPlugin, ARegisteredWriterSeesTheTypedSummaryOfALumpedRun)
  {
    // prm/lumped/current_source_rc.prm: a current source I0 sin(w t) into a
    // capacitor C0 parallel to a resistor R0, from rest; the capacitor's
    // voltage in closed form (see the file): I0 Z (sin(w t + phi) - sin(phi)
    // exp(-t / (R0 C0))), Z = R0 / sqrt(1 + (w R0 C0)^2), phi = -atan(w R0 C0)
    namespace fs = std::filesystem;
    const fs::path directory = fs::temp_directory_path() / "hamilton_test_writer_plugin_lumped";
    fs::remove_all(directory);
    RunOptions options;
    options.parameter_file   = std::string(HAMILTON_SOURCE_DIR) + "/prm/lumped/current_source_rc.prm";
    options.output_directory = directory.string();
    std::ostringstream out;
    seen_lumped() = {};
    run(options, out);

    const auto &summary = seen_lumped();
    ASSERT_TRUE(summary.simulated);
    EXPECT_EQ(summary.final_time_s, 0.02);
    const auto column = [&](const std::string &name) {
      for (const auto &c : summary.columns)
        if (c.name == name)
          return c;
      ADD_FAILURE() << "no column " << name;
      return lumped::RunSummary::Column{};
    };
    const double I0 = 1e-3, R0 = 1000, C0 = 1e-6, w = 2 * M_PI * 200, t = summary.final_time_s;
    const double Z = R0 / std::sqrt(1 + std::pow(w * R0 * C0, 2)), phi = -std::atan(w * R0 * C0);
    const double v = I0 * Z * (std::sin(w * t + phi) - std::sin(phi) * std::exp(-t / (R0 * C0)));
    EXPECT_EQ(column("v_C").unit, "V");
    EXPECT_NEAR(column("v_C").final, v, 5e-10);
    EXPECT_LT(std::abs(column("v_error").min), 5e-10); // the file's own check, over the whole run
    EXPECT_LT(std::abs(column("v_error").max), 5e-10);
    // the peak of the run: at most the amplitude I0 Z of the steady state
    // plus the decaying term's I0 Z |sin(phi)|, sampled every 50 us
    EXPECT_LE(std::abs(column("v_C").peak), I0 * Z * (1 + std::abs(std::sin(phi))));
    EXPECT_GT(std::abs(column("v_C").peak), 0.99 * I0 * Z);
    EXPECT_LT(summary.energy_audit.largest_relative_residual, 1e-6);
    EXPECT_EQ(summary.energy_audit.relative_to, "supplied work");
    fs::remove_all(directory);
  }
} // namespace hamilton
