#include <hamilton/base/input.h>
#include <hamilton/base/petsc_error.h>

#include <deal.II/base/exceptions.h>

#include <cstdlib>
#include <string>

namespace hamilton
{
  void
  check_petsc(const PetscErrorCode code, const char *call)
  {
    if (code == 0)
      return;
    const std::string what = std::string("the PETSc/SLEPc call ") + call + " failed (PETSc's message is above)";
    // the message of the error's origin (the first SETERRQ of the trace)
    const char *text     = nullptr;
    char       *specific = nullptr;
    PetscErrorMessage(code, &text, &specific);
    const std::string origin = specific != nullptr ? specific : "";
    if (code == PETSC_ERR_MEM || origin.find("INFOG(1)=-13,") != std::string::npos)
      throw InputError(what + ": out of memory. The model needs more memory than this process may use: in "
                              "subsection 'Continuum', use a coarser 'Mesh', fewer 'Global refinements' or a "
                              "lower 'Element degree', or run on more MPI ranks spread over more machines.");
    if (const char *options = std::getenv("PETSC_OPTIONS"); options != nullptr && *options != '\0')
      throw InputError(what + " with the environment variable PETSC_OPTIONS = '" + options +
                       "', which changes the solvers Hamilton chose. Correct it or unset it; the options that "
                       "are useful here are in doc/continuum.md.");
    AssertThrow(false, dealii::ExcMessage(what));
  }
} // namespace hamilton
