#include <hamilton/base/files.h>
#include <hamilton/output/json_documents.h>

#include <iomanip>

namespace hamilton
{
  void
  JsonDocumentsWriter::write(const AnalysisResult &result, const RunResults &, const Destination &destination) const
  {
    for (const auto &[name, document] : result.documents())
      write_file(destination.directory + "/" + name,
                 [&](std::ostream &file) { file << std::setw(2) << document << "\n"; });
  }

  HAMILTON_REGISTER_WRITER(JsonDocumentsWriter, "json documents",
                           "each JSON document of a result (a reduced model's rom.json) beside results.json.")
} // namespace hamilton
