#include <hamilton/output/version.h>
#include <hamilton_git_commit.h> // generated at build time (cmake/git_commit.cmake)

#include <deal.II/base/config.h>

#include <ginac/version.h>
#include <petscversion.h>
#include <slepcversion.h>
#include <sundials/sundials_config.h>

#include <sstream>

namespace hamilton
{
  std::string
  version_text()
  {
    std::ostringstream text;
    text << "Hamilton " << HAMILTON_VERSION << "\n"
         << "  commit     " << HAMILTON_GIT_COMMIT << "\n"
         << "  build type " << HAMILTON_BUILD_TYPE << "\n"
         << "built with\n"
         << "  deal.II    " << DEAL_II_PACKAGE_VERSION << "\n"
         << "  PETSc      " << PETSC_VERSION_MAJOR << "." << PETSC_VERSION_MINOR << "." << PETSC_VERSION_SUBMINOR
         << "\n"
         << "  SLEPc      " << SLEPC_VERSION_MAJOR << "." << SLEPC_VERSION_MINOR << "." << SLEPC_VERSION_SUBMINOR
         << "\n"
         << "  SUNDIALS   " << SUNDIALS_VERSION << "\n"
         << "  GiNaC      " << GINACLIB_MAJOR_VERSION << "." << GINACLIB_MINOR_VERSION << "."
         << GINACLIB_MICRO_VERSION << "\n";
    return text.str();
  }
} // namespace hamilton
