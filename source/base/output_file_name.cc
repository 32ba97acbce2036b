#include <hamilton/base/input.h>
#include <hamilton/base/output_file_name.h>

#include <algorithm>

namespace hamilton
{
  void
  check_output_file_name(const std::string              &path,
                         const std::string              &entry,
                         const std::string              &name,
                         const std::vector<std::string> &taken)
  {
    const std::string value = "'" + name + "'";
    if (name.empty() || name == "." || name == "..")
      input_error(path, entry, value,
                  "must be the name of a file in the output directory, e.g. 'rom.json'. Give a file name.");
    if (name.find('/') != std::string::npos)
      input_error(path, entry, value,
                  "must be a plain file name, without a directory: every file of a run goes into its output "
                  "directory (--output-dir or 'Output/Directory'), and nothing is written elsewhere. Give the "
                  "name alone (e.g. '" + name.substr(name.find_last_of('/') + 1) +
                    "') and choose the directory with --output-dir.");
    std::vector<std::string> other = taken;
    other.insert(other.end(), {"results.json", "parameters_used.prm"});
    if (std::find(other.begin(), other.end(), name) != other.end())
      input_error(path, entry, value,
                  "is the name of another output file of the run, which it would overwrite. Choose another name.");
  }
} // namespace hamilton
