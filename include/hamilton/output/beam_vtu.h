#ifndef hamilton_output_beam_vtu_h
#define hamilton_output_beam_vtu_h

#include <hamilton/output/writer.h>

namespace hamilton
{
  /**
   * The fields of a beam's results (mode shapes, deflections) as VTU files
   * and a PVD per group (write_vtu_series), unless 'Output/Write VTU'
   * (declared by Writers, shared with the continuum's VTU writer) is false
   * or the files are scratch. Declares 'Samples per element'.
   */
  class BeamVtuWriter : public Writer
  {
  public:
    static void
    declare_parameters(dealii::ParameterHandler &prm);

    void
    parse_parameters(Section &section) override;

    /**
     * Refuse, before anything is solved, a 'Samples per element' whose VTU
     * cells (elements x samples x layers) would need more than
     * memory_limit_bytes to write (about 5 KiB per cell, measured), with the
     * estimate and the largest count allowed.
     */
    void
    check(const RunResults &run) const override;

    void
    write(const AnalysisResult &result, const RunResults &run, const Destination &destination) const override;

  private:
    bool         write_vtu           = true;
    unsigned int samples_per_element = 4;
  };
} // namespace hamilton

#endif
