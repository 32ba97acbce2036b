// The process around a run: MPI/PETSc/SLEPc start only on demand, crashes are
// reported, the output directory is written atomically and a plugin name is
// registered once; PETSc errors the user caused are input errors.
#include <hamilton/base/files.h>
#include <hamilton/base/input.h>
#include <hamilton/base/petsc_error.h>
#include <hamilton/base/process.h>
#include <hamilton/base/registry.h>

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace hamilton;
namespace fs = std::filesystem;

namespace
{
  std::string
  test_name()
  {
    return ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }

  void
  write_text(const std::string &name, const std::string &text)
  {
    std::ofstream(name) << text;
  }
} // namespace

TEST(Process, ParallelStartsOnlyOnDemand)
{
  // each test runs in a process of its own (ctest): nothing has started MPI
  EXPECT_FALSE(parallel_initialized());
  ensure_parallel_initialized();
  EXPECT_TRUE(parallel_initialized());
  ensure_parallel_initialized(); // a second call does nothing
  EXPECT_TRUE(parallel_initialized());
}

TEST(Process, SingletonTransportSettingsStayInTheProcess)
{
  // a process started without mpirun takes Open MPI's in-process transport
  // (source/base/process.cc): a value the user set is kept, and the variables
  // Hamilton sets for MPI_Init are removed again, so that programs it starts
  // (the C compiler, a shell) do not inherit them
  ASSERT_EQ(std::getenv("OMPI_COMM_WORLD_SIZE"), nullptr) << "run without mpirun";
  ::setenv("OMPI_MCA_btl", "self,vader", 1);
  ::unsetenv("OMPI_MCA_pml");
  ensure_parallel_initialized();
  ASSERT_TRUE(parallel_initialized());
  ASSERT_NE(std::getenv("OMPI_MCA_btl"), nullptr);
  EXPECT_STREQ(std::getenv("OMPI_MCA_btl"), "self,vader");
  EXPECT_EQ(std::getenv("OMPI_MCA_pml"), nullptr);
  EXPECT_EQ(std::getenv("OMPI_MCA_orte_tmpdir_base"), nullptr);
  EXPECT_EQ(std::getenv("OMPI_MCA_ess_singleton_isolated"), nullptr);
}

#if !defined(__SANITIZE_ADDRESS__)
TEST(ProcessDeathTest, CrashIsReported)
{
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  EXPECT_EXIT(std::raise(SIGSEGV), ::testing::KilledBySignal(SIGSEGV),
              "Hamilton crashed with a segmentation fault \\(SIGSEGV\\)");
}

TEST(ProcessDeathTest, CrashIsReportedAfterPetscStarted)
{
  // PETSc installs a handler of its own that used to swallow the crash
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  EXPECT_EXIT(
    {
      ensure_parallel_initialized();
      std::raise(SIGSEGV);
    },
    ::testing::KilledBySignal(SIGSEGV), "Hamilton crashed with a segmentation fault");
}
#endif

TEST(Registry, RefusesDuplicateNames)
{
  struct Plugin
  {};
  Registry<Plugin> &registry = Registry<Plugin>::instance();
  const Registry<Plugin>::Entry entry{"first", [] { return std::make_unique<Plugin>(); }, nullptr};
  EXPECT_TRUE(registry.add("plugin", entry));
  EXPECT_THROW(registry.add("plugin", entry), std::logic_error);
  EXPECT_EQ(registry.names().size(), 1u);
}

TEST(OutputDirectory, WrittenAtomically)
{
  const std::string target = "atomic_" + test_name();
  fs::remove_all(target);
  {
    OutputDirectory directory(target, "test");
    write_text(directory.path() + "/a.csv", "x\n1\n");
    write_text(directory.path() + "/parameters_used.prm", "");
    EXPECT_FALSE(fs::exists(target)); // not before commit
    EXPECT_NE(directory.path(), target);
    EXPECT_EQ(fs::path(directory.path()).parent_path(), fs::absolute(target).parent_path());
    directory.commit();
  }
  EXPECT_TRUE(fs::exists(target + "/a.csv"));
  // a second run replaces the first one's directory as a whole
  {
    OutputDirectory directory(target, "test");
    write_text(directory.path() + "/b.csv", "x\n2\n");
    write_text(directory.path() + "/parameters_used.prm", "");
    directory.commit();
  }
  EXPECT_TRUE(fs::exists(target + "/b.csv"));
  EXPECT_FALSE(fs::exists(target + "/a.csv"));
  // a run that fails before commit leaves the earlier result alone
  std::string temporary;
  {
    OutputDirectory directory(target, "test");
    temporary = directory.path();
    write_text(directory.path() + "/c.csv", "x\n3\n");
  }
  EXPECT_FALSE(fs::exists(temporary));
  EXPECT_TRUE(fs::exists(target + "/b.csv"));
  EXPECT_FALSE(fs::exists(target + "/c.csv"));
}

TEST(OutputDirectory, RefusesFilesAndForeignDirectories)
{
  const std::string file = "file_" + test_name();
  write_text(file, "x");
  EXPECT_THROW(OutputDirectory::check_target(file, "test"), InputError);
  const std::string foreign = "foreign_" + test_name();
  fs::create_directories(foreign);
  write_text(foreign + "/notes.txt", "keep");
  EXPECT_THROW(OutputDirectory::check_target(foreign, "test"), InputError);
  EXPECT_TRUE(fs::exists(foreign + "/notes.txt"));
  EXPECT_THROW(OutputDirectory::check_target(std::string(300, 'x'), "test"), InputError);
  EXPECT_NO_THROW(OutputDirectory::check_target("new_" + test_name() + "/sub", "test"));
}

TEST(OutputFile, FailedWriteIsAnError)
{
  // /dev/full accepts the open and fails every write with ENOSPC
  if (!fs::exists("/dev/full"))
    GTEST_SKIP() << "no /dev/full";
  try
    {
      write_file("/dev/full", [](std::ostream &out) { out << std::string(100000, 'x'); });
      FAIL() << "no error for a failed write";
    }
  catch (const OutputError &e)
    {
      EXPECT_NE(std::string(e.what()).find("Cannot write '/dev/full'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
    }
}

TEST(PetscError, UserCausesAreInputErrors)
{
  // the errors are raised as PETSc raises them (PetscError records the
  // message of the error's origin), without a solve
  ensure_parallel_initialized();
  ::unsetenv("PETSC_OPTIONS");
  auto raise = [](const PetscErrorCode code, const char *message) {
    return PetscError(PETSC_COMM_SELF, __LINE__, "test", __FILE__, code, PETSC_ERROR_INITIAL, "%s", message);
  };
  auto message_of = [](const PetscErrorCode code) -> std::string {
    try
      {
        check_petsc(code, "EPSSetUp");
      }
    catch (const InputError &e)
      {
        return e.what();
      }
    return "";
  };
  EXPECT_NO_THROW(check_petsc(0, "EPSSetUp"));
  // MUMPS's allocation failure, as PETSc 3.18's MUMPS interface reports it
  EXPECT_NE(message_of(raise(PETSC_ERR_LIB,
                             "Error reported by MUMPS in numerical factorization phase: INFOG(1)=-13, INFO(2)=4380529"))
              .find("EPSSetUp failed (PETSc's message is above): out of memory"),
            std::string::npos);
  EXPECT_NE(message_of(raise(PETSC_ERR_MEM, "Out of memory")).find("out of memory"), std::string::npos);
  // another MUMPS error (a singular matrix) is not taken for memory: with no
  // PETSC_OPTIONS it is Hamilton's bug
  const PetscErrorCode singular =
    raise(PETSC_ERR_LIB, "Error reported by MUMPS in numerical factorization phase: INFOG(1)=-10, INFO(2)=7");
  EXPECT_THROW(check_petsc(singular, "EPSSetUp"), dealii::ExceptionBase);
  ::setenv("PETSC_OPTIONS", "-st_pc_type cholesky", 1);
  EXPECT_NE(message_of(singular).find("PETSC_OPTIONS = '-st_pc_type cholesky'"), std::string::npos);
  ::unsetenv("PETSC_OPTIONS");
}
