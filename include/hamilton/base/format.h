#ifndef hamilton_base_format_h
#define hamilton_base_format_h

#include <string>

namespace hamilton
{
  /**
   * A number for the terminal: `digits` significant digits, fixed or
   * scientific notation as printf's %g chooses, trailing zeros dropped
   * (0.36775060599999987 -> "0.367751"; 1.5e-11 -> "1.5e-11"). Non-finite
   * values print as "nan", "inf", "-inf".
   */
  std::string
  format_significant(double value, unsigned int digits = 6);

  /** A duration in seconds for the terminal: 3 significant digits and " s". */
  std::string
  format_seconds(double seconds);
} // namespace hamilton

#endif
