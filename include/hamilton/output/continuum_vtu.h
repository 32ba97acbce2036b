#ifndef hamilton_output_continuum_vtu_h
#define hamilton_output_continuum_vtu_h

#include <hamilton/output/writer.h>

namespace hamilton
{
  /**
   * The solution fields of a continuum (static deflection, modes, clamped
   * electrostatic solutions) as continuum_<field>.vtu, each written in
   * parallel by every MPI rank (collective), and the modes as
   * continuum_modes.pvd (rank 0), unless 'Output/Write VTU' (declared by
   * Writers, shared with the beam's VTU writer) is false or the files are scratch.
   */
  class ContinuumVtuWriter : public Writer
  {
  public:
    void
    parse_parameters(Section &section) override;

    bool
    collective() const override
    {
      return true;
    }

    void
    write(const AnalysisResult &result, const RunResults &run, const Destination &destination) const override;

  private:
    bool write_vtu = true;
  };
} // namespace hamilton

#endif
