#ifndef hamilton_output_version_h
#define hamilton_output_version_h

#include <string>

namespace hamilton
{
  /**
   * What `hamilton --version` prints: Hamilton's version, the git commit it
   * was built from (with "-modified" if the checkout had changes), the
   * build type, and the versions of deal.II, PETSc, SLEPc, SUNDIALS and
   * GiNaC it was compiled against. One "name version" item per line.
   */
  std::string
  version_text();
} // namespace hamilton

#endif
