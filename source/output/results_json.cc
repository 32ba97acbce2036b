#include <hamilton/base/files.h>
#include <hamilton/output/results_json.h>

#include <iomanip>

namespace hamilton
{
  void
  ResultsJsonWriter::finish(const RunResults &run, const Destination &destination) const
  {
    if (run.stopped) // no results.json: the run did not finish
      return;
    const nlohmann::json results = run.to_json();
    write_file(destination.directory + "/results.json",
               [&](std::ostream &json) { json << std::setw(2) << results << "\n"; });
  }

  HAMILTON_REGISTER_WRITER(ResultsJsonWriter, "results json", "results.json, the summary of the whole run.")
} // namespace hamilton
