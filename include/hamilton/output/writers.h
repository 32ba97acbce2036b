#ifndef hamilton_output_writers_h
#define hamilton_output_writers_h

#include <hamilton/analyses/analysis.h>
#include <hamilton/output/row_sink.h>

#include <memory>
#include <string>

namespace hamilton
{
  /**
   * Write a table as CSV with a header line, full double precision, and the
   * sidecar <filename>.columns.json describing each column (unit, meaning;
   * see base/columns.h). A failed
   * write or close throws OutputError naming the file.
   */
  void
  write_csv(const Table &table, const std::string &filename);

  /**
   * A row sink that writes a table as CSV while it is computed: begin()
   * opens `filename`, writes the header and the column sidecar
   * <filename>.columns.json; each row is written with `digits` significant
   * digits (17: every double reads back the same) and flushed, so that a
   * stopped run keeps a valid table up to its last row; end() closes it.
   * Its name() is `name`. A failed write throws OutputError naming the file.
   */
  std::unique_ptr<RowSink>
  csv_row_sink(const std::string &filename, const std::string &name, int digits);

  /**
   * Write fields of a beam as a series of VTU files plus a PVD index
   * `<directory>/<group>.pvd` for ParaView. The beam is a 3D body: each layer
   * of each segment is a row of hexahedra with the layer's real thickness and
   * width; points carry the Euler-Bernoulli displacement of each field,
   * (u_x, 0, w) with u_x = -z w' (z from the neutral axis), so "Warp By
   * Vector" shows the deformation; cells carry the layer index. The PVD's
   * "timestep" is the field index (mode number), so stepping through time
   * animates through the modes. Cells also carry `layer_name`
   * ("segment/layer") and `layer_id`, the index into the FieldData string
   * array `layer_names`. When `result` is a modal analysis' result, each
   * file's FieldData holds its mode's `frequency_hz` (also as TIME, the mode
   * number as CYCLE and `mode`) and, with electrodes,
   * `frequency_open_circuit_hz` and `k_eff`; and `<group>_by_frequency.pvd`
   * lists the same files with the frequency (Hz) as time, when the
   * frequencies increase strictly. Each VTU file is formatted by VTK in memory
   * and written by write_file(): a failed write throws OutputError naming the
   * file (VTK 9.1's own file output corrupts the heap when a write fails).
   */
  void
  write_vtu_series(const BeamModel                &model,
                   const Discretization           &discretization,
                   const std::vector<Field>       &fields,
                   unsigned int                    samples_per_element,
                   const std::string              &directory,
                   const std::string              &group,
                   const AnalysisResult           *result = nullptr);
} // namespace hamilton

#endif
