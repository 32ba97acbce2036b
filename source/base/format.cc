#include <hamilton/base/format.h>

#include <cmath>
#include <cstdio>

namespace hamilton
{
  std::string
  format_significant(double value, unsigned int digits)
  {
    if (std::isnan(value))
      return "nan";
    if (std::isinf(value))
      return value > 0 ? "inf" : "-inf";
    if (value == 0)
      return "0"; // also -0
    char text[64];
    std::snprintf(text, sizeof(text), "%.*g", static_cast<int>(digits == 0 ? 1 : digits), value);
    return text;
  }

  std::string
  format_seconds(double seconds)
  {
    return format_significant(seconds, 3) + " s";
  }
} // namespace hamilton
