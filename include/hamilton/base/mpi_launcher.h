#ifndef hamilton_base_mpi_launcher_h
#define hamilton_base_mpi_launcher_h

#include <cstdlib>
#include <initializer_list>

namespace hamilton
{
  /**
   * Whether the environment says that an MPI launcher (mpirun, mpiexec,
   * srun) started this process. Header-only: the launcher executable
   * (source/launcher.cc), which links no Hamilton library, asks it too.
   */
  inline bool
  started_by_mpi_launcher()
  {
    for (const char *variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS"})
      if (std::getenv(variable) != nullptr)
        return true;
    return false;
  }
} // namespace hamilton

#endif
