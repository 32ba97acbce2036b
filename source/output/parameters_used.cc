#include <hamilton/base/files.h>
#include <hamilton/output/parameters_used.h>

namespace hamilton
{
  void
  ParametersUsedWriter::finish(const RunResults &run, const Destination &destination) const
  {
    if (run.parameters != nullptr)
      write_file(destination.directory + "/parameters_used.prm", [&](std::ostream &file) {
        run.parameters->print_parameters(file, dealii::ParameterHandler::ShortPRM);
      });
  }

  HAMILTON_REGISTER_WRITER(ParametersUsedWriter, "parameters used",
                           "parameters_used.prm, every entry of the run (defaults, file, --set).")
} // namespace hamilton
