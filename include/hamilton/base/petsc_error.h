#ifndef hamilton_base_petsc_error_h
#define hamilton_base_petsc_error_h

#include <petscsys.h>

namespace hamilton
{
  /**
   * Stop on a failed PETSc/SLEPc call named `call` (PETSc has printed its
   * own message). Two causes are the user's to fix and end with an
   * InputError: running out of memory (PETSc's PETSC_ERR_MEM, or MUMPS's
   * allocation failure INFOG(1) = -13, which PETSc reports as an error of an
   * external library), and options given to PETSc through the environment
   * (PETSC_OPTIONS: a solver that does not exist, or one the operator cannot
   * use). Any other failure is a bug in Hamilton (an ExcMessage).
   */
  void
  check_petsc(PetscErrorCode code, const char *call);
} // namespace hamilton

#endif
