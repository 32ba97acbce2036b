/**
 * The `hamilton` executable: a launcher that answers `--help` (and a call
 * without arguments) at once and loads the program, libhamilton_app.so with
 * deal.II's chain of about 220 shared libraries, only for everything else.
 *
 * Why: Debian's deal.II links OpenCASCADE, Gmsh, Trilinos, PETSc, SLEPc,
 * VTK and more; the dynamic linker resolves about 345 000 symbol
 * relocations for them, 0.3 s of a start-up that a run cannot avoid but
 * `--help` can (doc/running.md, "Start-up time").
 */
#include <hamilton/base/mpi_launcher.h>
#include <hamilton/usage.h>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

int
main(int argc, char **argv)
{
  // Under mpirun the program answers on rank 0 only: leave that to it.
  if (!hamilton::started_by_mpi_launcher() &&
      (argc == 1 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0))
    {
      std::cout << hamilton::usage_text;
      return argc == 1 ? 1 : 0;
    }
  // RTLD_GLOBAL: Open MPI loads its components with dlopen and they need
  // libmpi's symbols, as the generated code of lumped systems needs libm's.
  // The library lies beside this executable: its path from /proc/self/exe
  // (the run path $ORIGIN would not do: with AddressSanitizer, dlopen is
  // called from libasan, whose run path is searched instead).
  std::string library = "libhamilton_app.so";
  std::error_code error;
  const auto      self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error)
    library = (self.parent_path() / library).string();
  void *program = dlopen(library.c_str(), RTLD_LAZY | RTLD_GLOBAL);
  if (program == nullptr)
    {
      std::cerr << "Error: cannot load Hamilton's program library: " << dlerror()
                << ".\nKeep libhamilton_app.so beside the hamilton executable, where the build puts "
                   "it, or rebuild.\n";
      return 2;
    }
  using Main     = int (*)(int, char **);
  const auto run = reinterpret_cast<Main>(dlsym(program, "hamilton_main"));
  if (run == nullptr)
    {
      std::cerr << "Error: libhamilton_app.so has no entry point hamilton_main (" << dlerror()
                << "): it belongs to another build of Hamilton. Rebuild.\n";
      return 2;
    }
  return run(argc, argv);
}
