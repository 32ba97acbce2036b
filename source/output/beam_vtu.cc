#include <hamilton/output/beam_vtu.h>
#include <hamilton/output/writers.h>
#include <hamilton/base/input.h>
#include <hamilton/beam/beam_model.h>
#include <hamilton/discretization/discretization.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

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
  BeamVtuWriter::check(const RunResults &run) const
  {
    if (!write_vtu || run.model == nullptr || run.discretization == nullptr)
      return;
    // A cell is an interval along x in one layer (write_vtu_series).
    // Measured (cantilever_modes.prm, 6 elements x 1e5 samples, 6 modes):
    // peak resident memory 2.86 GB for 6e5 cells, 4.8 kB per cell (VTK's
    // grid, the displacement arrays and the XML writer's buffers); each
    // file 1.2 kB per cell. Taken as 5 KiB per cell.
    const double       bytes_per_cell = 5 * 1024.;
    const unsigned int n_elements     = run.discretization->sample_points(1).size() - 1;
    std::size_t        n_layers       = 1;
    for (const auto &segment : run.model->segments)
      n_layers = std::max(n_layers, segment.section.layers.size());
    const double n_cells = double(n_elements) * samples_per_element * double(n_layers);
    if (n_cells * bytes_per_cell <= memory_limit_bytes)
      return;
    const double most = std::floor(memory_limit_bytes / (bytes_per_cell * n_elements * n_layers));
    std::ostringstream requirement;
    requirement << std::setprecision(3) << "the VTU files would have " << n_cells << " cells (" << n_elements
                << " elements x " << samples_per_element << " samples x " << n_layers
                << " layer(s)), which need about " << n_cells * bytes_per_cell / (1024. * 1024. * 1024.)
                << " GiB of memory to write (about 5 KiB per cell, measured) and 1.2 kB per cell in each file, "
                << "more than the " << memory_limit_bytes / (1024. * 1024. * 1024.)
                << " GiB a run may use. Give at most " << std::setprecision(12) << most
                << " (the default, 4, draws the shapes smoothly), or set 'Write VTU = false'.";
    input_error("Output", "Samples per element", std::to_string(samples_per_element), requirement.str());
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
