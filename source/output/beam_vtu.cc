#include <hamilton/output/beam_vtu.h>
#include <hamilton/output/writers.h>

namespace hamilton
{
  void
  BeamVtuWriter::declare_parameters(dealii::ParameterHandler &prm)
  {
    prm.declare_entry("Samples per element",
                      "4",
                      dealii::Patterns::Integer(1),
                      "Subdivisions per element of the 3D beam in the VTU files.");
  }

  void
  BeamVtuWriter::parse_parameters(Section &section)
  {
    write_vtu           = section.get_bool("Write VTU");
    samples_per_element = section.get_unsigned("Samples per element");
  }

  void
  BeamVtuWriter::write(const AnalysisResult &result, const RunResults &run, const Destination &destination) const
  {
    if (!write_vtu || destination.scratch || run.model == nullptr || run.discretization == nullptr)
      return;
    for (const auto &[group, fields] : result.fields())
      write_vtu_series(*run.model, *run.discretization, fields, samples_per_element, destination.directory, group,
                       &result);
  }

  HAMILTON_REGISTER_WRITER(BeamVtuWriter, "vtu beam", "the fields of a beam's results (modes, deflections) as VTU/PVD.")
} // namespace hamilton
