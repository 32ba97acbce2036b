#ifndef hamilton_analyses_results_schema_h
#define hamilton_analyses_results_schema_h

#include <string>
#include <vector>

namespace hamilton
{
  /**
   * The schema of a run's results.json: the paths of its numbers, keys and
   * list indices joined by '/', a list index written '#', and 'lumped/KEY/*'
   * for every path below (a lumped system's own names). Written by
   * tests/prm/results_schema.py from the examples' results; the test
   * results_schema_complete keeps it complete.
   */
  const std::vector<std::string> &
  results_schema();

  /**
   * "" if `path` (e.g. 'modes/0/frequency_hz') matches a pattern of the
   * schema, otherwise the `n` patterns closest to it (edit distance, list
   * indices as '#'), quoted and separated by commas.
   */
  std::string
  check_results_path(const std::string &path, unsigned int n = 4);
} // namespace hamilton

#endif
