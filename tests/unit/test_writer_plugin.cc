// An output is added without touching the core: this test binary registers
// its own writer with HAMILTON_REGISTER_WRITER, runs a beam file through
// hamilton::run, and checks that the writer was handed the typed results (the
// modal frequencies of a cantilever, against the closed form) and could write
// into the output directory before it was committed.
#include <hamilton/analyses/modal.h>
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
} // namespace hamilton
