#ifndef hamilton_base_output_file_name_h
#define hamilton_base_output_file_name_h

#include <string>
#include <vector>

namespace hamilton
{
  /**
   * The check of every parameter entry that names a file a run writes (e.g.
   * 'Analysis/Reduced model/File'): every output file goes into the output
   * directory, so the value must be a plain file name there. An InputError
   * naming subsection `path`, `entry` and `name` unless `name` is not empty,
   * holds no '/' (no directory: neither '../x.json' nor '/tmp/x.json'), is
   * not '.' or '..', and is none of `taken` (the names of the run's other
   * output files, which it would overwrite) nor results.json or
   * parameters_used.prm, which every run writes.
   */
  void
  check_output_file_name(const std::string              &path,
                         const std::string              &entry,
                         const std::string              &name,
                         const std::vector<std::string> &taken = {});
} // namespace hamilton

#endif
