#include <hamilton/analyses/results_schema.h>
#include <hamilton/base/input.h>

#include <algorithm>
#include <sstream>

namespace hamilton
{
  const std::vector<std::string> &
  results_schema()
  {
    static const std::vector<std::string> patterns{
#include "results_schema.inc"
    };
    return patterns;
  }

  namespace
  {
    std::vector<std::string>
    parts_of(const std::string &path)
    {
      std::vector<std::string> parts;
      std::istringstream       in(path);
      for (std::string part; std::getline(in, part, '/');)
        parts.push_back(part);
      return parts;
    }

    bool
    is_index(const std::string &key)
    {
      return !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
    }

    bool
    matches(const std::vector<std::string> &path, const std::vector<std::string> &pattern)
    {
      const bool any_below = !pattern.empty() && pattern.back() == "*";
      const std::size_t n  = any_below ? pattern.size() - 1 : pattern.size();
      if (any_below ? path.size() <= n : path.size() != n)
        return false;
      for (std::size_t i = 0; i < n; ++i)
        if (!(pattern[i] == path[i] || (pattern[i] == "#" && is_index(path[i]))))
          return false;
      return true;
    }
  } // namespace

  std::string
  check_results_path(const std::string &path, const unsigned int n)
  {
    const auto parts = parts_of(path);
    for (const auto &pattern : results_schema())
      if (matches(parts, parts_of(pattern)))
        return "";
    std::string generic; // indices as '#', as the patterns write them
    for (const auto &part : parts)
      generic += (generic.empty() ? "" : "/") + (is_index(part) ? std::string("#") : part);
    std::vector<std::string> closest = results_schema();
    std::stable_sort(closest.begin(), closest.end(), [&](const std::string &a, const std::string &b) {
      return edit_distance(a, generic) < edit_distance(b, generic);
    });
    std::string names;
    for (std::size_t i = 0; i < std::min<std::size_t>(n, closest.size()); ++i)
      names += (i ? ", '" : "'") + closest[i] + "'";
    return names;
  }
} // namespace hamilton
