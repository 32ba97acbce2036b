#ifndef hamilton_continuum_continuum_h
#define hamilton_continuum_continuum_h

#include <hamilton/base/input.h>
#include <hamilton/continuum/continuum_result.h>
#include <hamilton/continuum/material.h>

#include <deal.II/base/point.h>
#include <deal.II/base/tensor.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace hamilton::continuum
{
  /** What a circuit does to an electrode. */
  enum class Circuit
  {
    ground,        ///< always at 0 V (the reference)
    floating,      ///< always free, no port (e.g. a series bimorph's shim)
    short_circuit, ///< a port: 0 V
    open_circuit,  ///< a port: no current
    voltage,       ///< a port at a prescribed voltage
    resistor,      ///< a port loaded by R
    series_rl,     ///< a port shunted by R + L in series
    parallel_rl    ///< a port shunted by R and L in parallel
  };

  /**
   * A piezoelectric or elastic body from a Gmsh mesh: regions (physical
   * groups of cells) with materials and poling, electrodes on tagged
   * surfaces or on interfaces between regions, supports, tractions, output
   * points. Read from subsection "Continuum" of the parameter file.
   */
  struct ContinuumModel
  {
    struct Region
    {
      std::string          name;
      std::string          material;
      dealii::Tensor<1, 3> poling;
    };
    struct Electrode
    {
      std::string              name;
      std::vector<std::string> surfaces;
      /** Pairs of regions whose common faces belong to the electrode. */
      std::vector<std::pair<std::string, std::string>> interfaces;
      Circuit                  circuit    = Circuit::ground;
      double                   voltage    = 0; ///< V
      double                   resistance = 0; ///< Ohm
      double                   inductance = 0; ///< H
      /** A port: an electrode whose circuit is not ground or floating. */
      bool
      is_port() const
      {
        return circuit != Circuit::ground && circuit != Circuit::floating;
      }
    };
    struct Support
    {
      std::string              name;
      std::vector<std::string> surfaces;
      bool                     at_point = false;
      dealii::Point<3>         point;
      std::vector<unsigned int> components; ///< 0 = x, 1 = y, 2 = z
    };
    /** A static load: a traction on surfaces, a body force in regions, or a point force. */
    struct Load
    {
      enum class Kind
      {
        traction,
        body_force,
        point_force
      } kind = Kind::traction;
      std::string              name;
      std::vector<std::string> surfaces;
      std::vector<std::string> traction;   ///< expressions of x, y, z (N/m^2)
      std::vector<std::string> regions;
      std::vector<std::string> body_force; ///< expressions of x, y, z (N/m^3)
      dealii::Point<3>         point;
      dealii::Tensor<1, 3>     force;      ///< N (the whole thickness in 2D, the ring axisymmetric)
    };
    /** Added mass: a point mass, or a mass spread uniformly over regions (kg). */
    struct Mass
    {
      std::string              name;
      bool                     at_point = false;
      dealii::Point<3>         point;
      std::vector<std::string> regions;
      double                   mass = 0;
    };
    struct OutputPoint
    {
      std::string          name;
      dealii::Point<3>     point;
      dealii::Tensor<1, 3> direction;
    };

    std::string           mesh_file; ///< as resolved against the parameter file
    Formulation           formulation = Formulation::three_dimensional;
    double                thickness   = 1; ///< m, out of plane (2D)
    unsigned int          degree      = 2;
    unsigned int          refinements = 0;
    std::vector<Material> materials;
    std::vector<Region>   regions;
    std::vector<Electrode> electrodes;
    std::vector<Support>   supports;
    std::vector<Load>      loads;
    std::vector<Mass>      masses;
    std::vector<OutputPoint> output_points;
    std::vector<double>    damping_ratios{0.};
    dealii::Tensor<1, 3>   base_direction;

    unsigned int
    dimension() const
    {
      return formulation == Formulation::three_dimensional ? 3 : 2;
    }

    static void
    declare_parameters(dealii::ParameterHandler &prm, const dealii::ParameterHandler *first_pass);

    /** Paths of the named lists of subsection "Continuum". */
    static std::vector<std::vector<std::string>>
    named_lists();

    /** Whether the file describes a continuum ('Continuum/Mesh' not empty). */
    static bool
    described_in(dealii::ParameterHandler &prm);

    /** Read subsection "Continuum"; `directory` is the parameter file's. */
    void
    parse_parameters(Section &section, const std::string &directory);

    const Material &
    material_of(const Region &region) const;
  };

  /**
   * The continuum part of a run: reads the mesh and checks everything
   * (parse), runs the analyses listed in 'Analysis/Analyses' that the
   * continuum offers (static, modal, reduced model) on all MPI ranks
   * (solve), then writes tables, VTU and the ROM (write, rank 0 except the
   * collective VTU files).
   */
  class ContinuumRun
  {
  public:
    ContinuumRun();
    ~ContinuumRun();

    /** Read and check the model, the mesh and the analyses; no solve. */
    void
    parse(Section &section, const std::string &directory);

    /** A one-line description for the terminal and --validate. */
    std::string
    description() const;

    /**
     * What parse() found suspicious but not wrong (a mesh that looks drawn
     * in millimetres): printed by --validate; a run reports them with its
     * results.
     */
    std::vector<std::string>
    warnings() const;

    /**
     * Run the analyses (all ranks); what they computed (the writers print
     * and write it). The result refers to this object.
     */
    const ContinuumResult &
    solve();

    /** Write solution field `k` of the result as VTU (all ranks call). */
    void
    write_vtu(std::size_t k, const std::string &filename) const;

    class Implementation;

  private:
    ContinuumModel                  model;
    std::unique_ptr<Implementation> implementation;
    ContinuumResult                 result;
  };
} // namespace hamilton::continuum

#endif
