#include <hamilton/base/process.h>

#include <deal.II/base/mpi.h>
#include <deal.II/base/multithread_info.h>

#include <petscsys.h>

#include <array>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace hamilton
{
  namespace
  {
    volatile std::sig_atomic_t received_interrupt = 0;
    volatile std::sig_atomic_t polling_depth      = 0;
    volatile std::sig_atomic_t output_committed   = 0;
    volatile std::sig_atomic_t other_mpi_rank     = 0; ///< a rank > 0: rank 0 writes and commits

    /** argc/argv for MPI/PETSc; a placeholder when no Process exists. */
    int         saved_argc               = 1;
    char        placeholder_name[]       = "hamilton";
    char       *placeholder_argv[]       = {placeholder_name, nullptr};
    char      **saved_argv               = placeholder_argv;

    /**
     * Open MPI's session directory base of this process when it runs
     * without mpirun (see ensure_parallel_initialized()), removed after
     * MPI_Finalize and on an interrupt or crash; empty if none.
     */
    char session_directory[4096] = "";

    void
    remove_session_directory() noexcept
    {
      if (session_directory[0] == '\0')
        return;
      std::error_code ignored;
      std::filesystem::remove_all(session_directory, ignored);
      session_directory[0] = '\0';
    }

    /** The same from a signal handler: only async-signal-safe calls (fork, execve, waitpid). */
    void
    remove_session_directory_in_handler()
    {
      if (session_directory[0] == '\0')
        return;
      const pid_t child = ::fork();
      if (child == 0)
        {
          char  rm[] = "/bin/rm", options[] = "-rf", end[] = "--";
          char *arguments[]   = {rm, options, end, session_directory, nullptr};
          char *environment[] = {nullptr};
          ::execve(rm, arguments, environment);
          ::_exit(127);
        }
      if (child > 0)
        ::waitpid(child, nullptr, 0);
    }

    /** The running MPI/PETSc/SLEPc session; finalized before exit. */
    struct ParallelSession
    {
      std::unique_ptr<dealii::Utilities::MPI::MPI_InitFinalize> mpi;
      void
      finalize()
      {
        mpi.reset();
        remove_session_directory();
      }
      ~ParallelSession()
      {
        finalize();
      }
    };

    ParallelSession &
    parallel_session()
    {
      static ParallelSession session;
      return session;
    }

    void
    write_stderr(const char *text)
    {
      // async-signal-safe
      const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
      (void)ignored;
    }

    extern "C" void
    on_crash(int signal_number)
    {
      const char *what = signal_number == SIGSEGV ? "a segmentation fault (SIGSEGV)" :
                         signal_number == SIGBUS  ? "a bus error (SIGBUS)" :
                         signal_number == SIGFPE  ? "a floating-point exception (SIGFPE)" :
                                                    "an illegal instruction (SIGILL)";
      write_stderr("\nHamilton crashed with ");
      write_stderr(what);
      write_stderr(". This is a bug in Hamilton, not in your input: please report it together with the "
                   "parameter file.");
      write_stderr(output_committed != 0 ? " It came after the output directory was written.\n" :
                   other_mpi_rank != 0   ? " (In an MPI process other than rank 0, which writes the output "
                                           "directory and says whether it was.)\n" :
                                           " No results were written.\n");
      remove_session_directory_in_handler();
      std::signal(signal_number, SIG_DFL);
      std::raise(signal_number);
    }

    extern "C" void
    on_interrupt(int signal_number)
    {
      received_interrupt = signal_number;
      if (polling_depth > 0)
        return; // the running code polls check_interrupt()
      write_stderr(signal_number == SIGINT ? "\nInterrupted (SIGINT)" : "\nTerminated (SIGTERM)");
      write_stderr(output_committed != 0 ? " after the output directory was written.\n" :
                                           ": Hamilton stopped before writing any output.\n");
      remove_session_directory_in_handler();
      ::_exit(128 + signal_number);
    }

    void
    install_crash_handlers()
    {
#if !defined(__SANITIZE_ADDRESS__)
      // an alternate stack, so that a stack overflow is reported too
      static char      alternate_stack[1 << 16];
      stack_t          stack{};
      stack.ss_sp    = alternate_stack;
      stack.ss_size  = sizeof(alternate_stack);
      stack.ss_flags = 0;
      sigaltstack(&stack, nullptr);
      struct sigaction action
      {};
      action.sa_handler = on_crash;
      sigemptyset(&action.sa_mask);
      action.sa_flags = SA_ONSTACK | SA_NODEFER | SA_RESETHAND;
      for (const int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL})
        sigaction(s, &action, nullptr);
#endif
      // with sanitizers, their own handlers report crashes with a stack trace
    }

    void
    install_interrupt_handlers()
    {
      struct sigaction action
      {};
      action.sa_handler = on_interrupt;
      sigemptyset(&action.sa_mask);
      action.sa_flags = 0;
      for (const int s : {SIGINT, SIGTERM})
        sigaction(s, &action, nullptr);
    }
  } // namespace

  Process::Process(int &argc, char **&argv)
  {
    saved_argc = argc;
    saved_argv = argv;
    // one thread, as MPI_InitFinalize(argc, argv, 1) would set: results do
    // not depend on the number of cores
    dealii::MultithreadInfo::set_thread_limit(1);
    install_crash_handlers();
    install_interrupt_handlers();
    if (started_by_mpi_launcher())
      ensure_parallel_initialized();
  }

  Process::~Process()
  {
    parallel_session().finalize();
  }

  bool
  parallel_initialized()
  {
    return parallel_session().mpi != nullptr || dealii::Utilities::MPI::job_supports_mpi();
  }

  void
  ensure_parallel_initialized()
  {
    if (parallel_initialized())
      return;
    // A process started without mpirun: Open MPI would fork a daemon (orted)
    // for it, ~0.4 s of a 2D continuum run on the idle machine; an isolated
    // singleton needs none (no MPI_Comm_spawn here). Isolated singletons
    // share one session directory (<base>/ompi.<host>.<uid>/jf.0/...) and the
    // first to finish removes it (a concurrent run's MPI-IO, the VTU files,
    // then failed: commit e136398), so each gets its own base, a new
    // directory removed after MPI_Finalize. Not when the user set either.
    // Such a process has no peer to talk to, so it also takes Open MPI's
    // in-process transport only (pml ob1, btl self): probing for Omni-Path
    // and InfiniPath hardware (mtl psm2, psm) waits ~0.1 s each, 0.2-0.3 s
    // of a 0.9-1.2 s 2D continuum run (strace, 2026-11-26). Each is set
    // only if the user did not set it.
    const bool isolated = !started_by_mpi_launcher() && std::getenv("OMPI_MCA_ess_singleton_isolated") == nullptr &&
                          std::getenv("OMPI_MCA_orte_tmpdir_base") == nullptr;
    std::vector<const char *> variables_set;
    if (isolated)
      {
        std::error_code ignored;
        std::string     base = (std::filesystem::temp_directory_path(ignored) / "hamilton-mpi-XXXXXX").string();
        if (base.size() < sizeof(session_directory) && ::mkdtemp(base.data()) != nullptr)
          {
            std::strcpy(session_directory, base.c_str());
            // the first two are unset here (isolated)
            const std::array<std::pair<const char *, const char *>, 4> settings{
              {{"OMPI_MCA_orte_tmpdir_base", session_directory},
               {"OMPI_MCA_ess_singleton_isolated", "1"},
               {"OMPI_MCA_pml", "ob1"},
               {"OMPI_MCA_btl", "self"}}};
            for (const auto &[name, value] : settings)
              if (std::getenv(name) == nullptr)
                {
                  ::setenv(name, value, 1);
                  variables_set.push_back(name);
                }
          }
      }
    parallel_session().mpi =
      std::make_unique<dealii::Utilities::MPI::MPI_InitFinalize>(saved_argc, saved_argv, 1);
    // not inherited by programs this one starts (a compiler, a shell)
    for (const char *name : variables_set)
      ::unsetenv(name);
    // PETSc's handler catches SIGSEGV and friends and ends the process
    // through MPI_Abort without a useful message: report crashes ourselves
    PetscPopSignalHandler();
    other_mpi_rank = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) > 0 ? 1 : 0;
    install_crash_handlers();
    install_interrupt_handlers();
  }

  Interrupted::Interrupted(int signal_number)
    : std::runtime_error("the run stopped; nothing was written.")
    , signal_number(signal_number)
  {}

  Interrupted::Interrupted(int signal_number, const std::string &message)
    : std::runtime_error(message)
    , signal_number(signal_number)
  {}

  void
  note_output_committed()
  {
    output_committed = 1;
  }

  int
  interrupt_signal()
  {
    return received_interrupt;
  }

  std::string
  signal_name(int signal_number)
  {
    switch (signal_number)
      {
        case SIGINT:
          return "SIGINT";
        case SIGTERM:
          return "SIGTERM";
        default:
          return "signal " + std::to_string(signal_number);
      }
  }

  void
  check_interrupt()
  {
    if (received_interrupt != 0)
      throw Interrupted(received_interrupt);
  }

  InterruptPolling::InterruptPolling()
  {
    polling_depth = polling_depth + 1;
    // a signal that arrived just before the scope began is not lost
  }

  InterruptPolling::~InterruptPolling()
  {
    polling_depth = polling_depth - 1;
  }
} // namespace hamilton
