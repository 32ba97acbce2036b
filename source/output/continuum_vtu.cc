#include <hamilton/base/files.h>
#include <hamilton/base/pvd.h>
#include <hamilton/continuum/continuum_result.h>
#include <hamilton/output/continuum_vtu.h>

namespace hamilton
{
  void
  ContinuumVtuWriter::parse_parameters(Section &section)
  {
    write_vtu = section.get_bool("Write VTU");
  }

  void
  ContinuumVtuWriter::write(const AnalysisResult &result, const RunResults &, const Destination &destination) const
  {
    const auto *continuum = dynamic_cast<const continuum::ContinuumResult *>(&result);
    if (continuum == nullptr || !write_vtu || destination.scratch)
      return;
    std::vector<std::pair<double, std::string>> modes_pvd;
    for (std::size_t k = 0; k < continuum->solution_fields.size(); ++k)
      {
        const auto       &field = continuum->solution_fields[k];
        const std::string file  = "continuum_" + field.name + ".vtu";
        continuum->write_vtu(k, destination.directory + "/" + file);
        if (field.name != "static")
          modes_pvd.emplace_back(field.time, file);
      }
    if (destination.root && !modes_pvd.empty())
      write_file(destination.directory + "/continuum_modes.pvd",
                 [&](std::ostream &file) { write_pvd(file, modes_pvd); });
  }

  HAMILTON_REGISTER_WRITER(ContinuumVtuWriter, "vtu continuum",
                           "the solution fields of a continuum as VTU (in parallel) and its modes as PVD.")
} // namespace hamilton
