#ifndef hamilton_base_process_h
#define hamilton_base_process_h

#include <hamilton/base/mpi_launcher.h>

#include <stdexcept>
#include <string>

namespace hamilton
{
  /**
   * The process around a run: signal handling and the lazy start of MPI,
   * PETSc and SLEPc. `main` (and every test or benchmark program) creates one
   * Process first; it
   *  - remembers argc/argv for a later ensure_parallel_initialized(),
   *    which runs at once when the program was started by an MPI launcher
   *    (mpirun/mpiexec/srun set OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK, ...);
   *  - installs handlers that report a crash (SIGSEGV, SIGBUS, SIGFPE,
   *    SIGILL) on stderr before the default action ends the process, and
   *    handlers for SIGINT/SIGTERM (see InterruptPolling);
   *  - finalizes SLEPc, PETSc and MPI at destruction if they were started.
   */
  class Process
  {
  public:
    Process(int &argc, char **&argv);
    ~Process();
    Process(const Process &) = delete;
    Process &
    operator=(const Process &) = delete;
  };

  /**
   * Start MPI, PETSc and SLEPc if they are not running yet. Every piece of
   * code that uses PETSc, SLEPc or MPI calls this first; a run that never
   * does (--help, --validate, lumped systems, dense beam analyses) never pays
   * their start-up (0.3-0.6 s). PETSc's own signal handler is removed again
   * so that a crash is still reported. Finalized by Process, or at exit if no
   * Process exists.
   */
  void
  ensure_parallel_initialized();

  /** Whether MPI (and PETSc/SLEPc) have been started by this process. */
  bool
  parallel_initialized();


  /**
   * Thrown by check_interrupt() when SIGINT or SIGTERM arrived while an
   * InterruptPolling scope was active.
   */
  class Interrupted : public std::runtime_error
  {
  public:
    explicit Interrupted(int signal_number);
    /** With a message that says what was stopped and what was kept. */
    Interrupted(int signal_number, const std::string &message);
    /** SIGINT or SIGTERM. */
    int signal_number;
  };

  /**
   * Record that an output directory has been committed (OutputDirectory::
   * commit): a crash or a signal after it no longer says that nothing was
   * written, but that it came after the output directory was written.
   */
  void
  note_output_committed();

  /** SIGINT or SIGTERM if one has arrived, else 0. */
  int
  interrupt_signal();

  /** "SIGINT", "SIGTERM", ... */
  std::string
  signal_name(int signal_number);

  /** Throw Interrupted if SIGINT or SIGTERM has arrived. */
  void
  check_interrupt();

  /**
   * While an object of this class lives, SIGINT and SIGTERM only set a flag
   * that the running code polls through check_interrupt(), so that it can
   * keep or remove what it was writing. Outside such a scope, nothing is
   * being written and the handler ends the process at once with a message
   * and the status 128 + signal number.
   */
  class InterruptPolling
  {
  public:
    InterruptPolling();
    ~InterruptPolling();
    InterruptPolling(const InterruptPolling &) = delete;
    InterruptPolling &
    operator=(const InterruptPolling &) = delete;
  };
} // namespace hamilton

#endif
