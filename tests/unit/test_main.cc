#include <hamilton/base/process.h>

#include <gtest/gtest.h>

int
main(int argc, char **argv)
{
  // as in hamilton's main: MPI, PETSc and SLEPc start when a test needs them
  hamilton::Process process(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
