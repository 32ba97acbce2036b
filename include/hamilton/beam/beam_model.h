#ifndef hamilton_beam_beam_model_h
#define hamilton_beam_beam_model_h

#include <hamilton/base/input.h>

#include <deal.II/base/function.h>
#include <deal.II/base/parameter_handler.h>

#include <memory>
#include <string>
#include <vector>

namespace hamilton
{
  /**
   * Constants of a piezoelectric layer in the plane-stress beam (width free
   * to contract): c11 = 1/s11^E (Pa), e31 = d31/s11^E (C/m^2) and
   * eps33 = eps33^T - d31^2/s11^E (F/m).
   */
  struct BeamPiezoConstants
  {
    double c11   = 0;
    double e31   = 0;
    double eps33 = 0;
  };

  /** The one place where d-form data (d31, s11^E, eps33^T) are converted. */
  BeamPiezoConstants
  from_d_form(double d31, double s11E, double eps33T);

  /**
   * A material: Young's modulus E (Pa) and density rho (kg/m^3); for a
   * piezoelectric material also e31 (C/m^2) and eps33^S (F/m) of the
   * plane-stress beam, with E = c11^E.
   */
  struct Material
  {
    std::string name;
    double      youngs_modulus = 0;
    double      density        = 0;
    bool        piezoelectric  = false;
    double      e31            = 0;
    double      permittivity   = 0;
  };

  /**
   * One layer of a laminate: material, thickness (m), width (m) and, for a
   * piezoelectric layer, the poling direction (+1 along +z, -1 along -z).
   */
  struct Layer
  {
    std::string name;
    Material    material;
    double      thickness = 0;
    double      width     = 0;
    int         poling    = 1;
  };

  /**
   * A cross-section made of layers stacked from bottom to top. The bending
   * reference is the neutral axis of the stack (plane-stress laminate, no
   * bending-extension coupling about it).
   */
  struct CrossSection
  {
    /** Build the section and its neutral axis from layers bottom to top. */
    explicit CrossSection(const std::vector<Layer> &layers = {});

    std::vector<Layer> layers;
    /** Height of the neutral axis above the bottom face (m). */
    double neutral_axis = 0;
    /** Bending stiffness about the neutral axis, sum E b (z_t^3-z_b^3)/3 (N m^2). */
    double bending_stiffness = 0;
    /** Mass per unit length, sum rho b h (kg/m). */
    double mass_per_length = 0;
    /** Total thickness (m). */
    double thickness = 0;
    /**
     * z of the bottom and top face of each layer relative to the neutral axis
     * (m); size layers.size().
     */
    std::vector<std::pair<double, double>> layer_bounds;
  };

  /** A part [x_start, x_end] of the beam with one cross-section. */
  struct Segment
  {
    std::string  name;
    double       x_start = 0;
    double       x_end   = 0;
    CrossSection section;
  };

  /** Kinematic condition at a support point. */
  enum class SupportCondition
  {
    clamped, ///< w = 0 and w' = 0
    pinned,  ///< w = 0
    guided,  ///< w' = 0 (sliding)
    free     ///< nothing prescribed (springs may still act)
  };

  /**
   * The shortest decimal text that reads back as exactly `value` (at most 17
   * significant digits), for messages that must show a difference in the
   * last digits (a position just beyond the end of the beam).
   */
  std::string
  format_number(double value);

  /** Parse "clamped", "pinned", "guided", "free". */
  SupportCondition
  support_condition_from_string(const std::string &name);
  std::string
  to_string(SupportCondition condition);

  /** A support at a point: condition plus optional elastic springs. */
  struct Support
  {
    std::string      name;
    double           position  = 0; ///< m
    SupportCondition condition = SupportCondition::free;
    double           translational_stiffness = 0; ///< N/m
    double           rotational_stiffness    = 0; ///< N m/rad
  };

  /** A rigid point mass with rotary inertia. */
  struct PointMass
  {
    std::string name;
    double      position       = 0; ///< m
    double      mass           = 0; ///< kg
    double      rotary_inertia = 0; ///< kg m^2
  };

  /** How the layers of a two-layer electrode are wired. */
  enum class Connection
  {
    single,   ///< one layer; it sees the electrode voltage V
    series,   ///< two layers, outer electrodes: each sees V/2 (opposite poling)
    parallel  ///< two layers, centre electrode: each sees V (same poling)
  };

  /**
   * What is connected to an electrode. Static analyses see a resistor or an
   * RL shunt as a short circuit (DC steady state); frequency responses use
   * its admittance.
   */
  enum class ElectrodeCircuit
  {
    short_circuit, ///< V = 0
    open_circuit,  ///< net charge 0, V is computed
    voltage,       ///< V prescribed (amplitude in frequency responses)
    resistor,      ///< load resistance R
    series_rl,     ///< R and L in series across the electrode
    parallel_rl    ///< R and L in parallel across the electrode
  };

  /**
   * An electrode pair covering one piezoelectric layer, or the two layers of
   * a bimorph, over [x_start, x_end]: one voltage unknown V (equipotential).
   * Layer k sees the field E3 = a_k V / h_k along +z with a_k = 1 (single),
   * 1/2 (series) or +1 upper / -1 lower layer (parallel).
   */
  struct Electrode
  {
    std::string              name;
    std::vector<std::string> layers;
    double                   x_start    = 0; ///< m
    double                   x_end      = 0; ///< m
    Connection               connection = Connection::single;
    ElectrodeCircuit         circuit    = ElectrodeCircuit::short_circuit;
    double                   voltage    = 0; ///< V, when prescribed
    double                   resistance = 0; ///< Ohm (resistor, RL shunts)
    double                   inductance = 0; ///< H (RL shunts)
  };

  /**
   * What an electrode contributes per unit length where it covers `segment`:
   * the coupling per unit curvature, sum_k a_k p_k e31_k b_k zbar_k (N m/V,
   * multiplies w''), and the capacitance per length
   * sum_k a_k^2 eps33_k b_k / h_k (F/m), with a_k the share of the electrode
   * voltage layer k sees (Electrode) and zbar_k its mid-plane height above
   * the neutral axis.
   */
  struct ElectrodeTerms
  {
    double coupling_per_curvature = 0;
    double capacitance_per_length = 0;
    /** sum_k |a_k p_k e31_k b_k zbar_k|: what the coupling would be if no
        layer cancelled another (N m/V). */
    double coupling_magnitude_per_curvature = 0;
  };
  ElectrodeTerms
  electrode_terms(const struct Electrode &electrode, const struct Segment &segment);

  /**
   * Damping of the structure: modal damping ratios of the short-circuit
   * modes (the last ratio applies to all higher modes) or Rayleigh damping
   * D = alpha M + beta K, i.e. zeta_r = alpha/(2 omega_r) + beta omega_r/2.
   */
  struct Damping
  {
    bool                rayleigh = false;
    std::vector<double> ratios{0.};
    double              alpha = 0; ///< 1/s
    double              beta  = 0; ///< s

    /** Damping ratio of mode r (0-based) with angular frequency omega. */
    double
    ratio(unsigned int r, double omega) const
    {
      if (rayleigh)
        return alpha / (2 * omega) + beta * omega / 2;
      return ratios[std::min<std::size_t>(r, ratios.size() - 1)];
    }
  };

  /** A transverse point force and a point moment. */
  struct PointLoad
  {
    std::string name;
    double      position = 0; ///< m
    double      force    = 0; ///< N, in +w direction
    double      moment   = 0; ///< N m, turning +w' (counter-clockwise)
  };

  /**
   * The physical description of a beam: segments with their cross-sections,
   * supports, point masses, axial prestress N0(x) and the static loads. It is
   * read from subsections "Beam" and "Loads" of the parameter file and knows
   * nothing of the discretization.
   */
  class BeamModel
  {
  public:
    /**
     * Declare subsections "Beam" and "Loads". `first_pass` is the lenient
     * first reading of the file (nullptr on that pass); the names of
     * materials, layers, segments, supports, masses and loads come from it.
     */
    static void
    declare_parameters(dealii::ParameterHandler       &prm,
                       const dealii::ParameterHandler *first_pass);

    /**
     * Paths of the subsections that hold a user-named list ("Names"), such
     * as {"Beam", "Layers"}.
     */
    static std::vector<std::vector<std::string>>
    named_lists();

    /** Read subsections "Beam" and "Loads" and check them. */
    void
    parse_parameters(Section &section);

    /** Total length (m): the end of the last segment. */
    double
    length() const;

    /**
     * Positions closer than this (m) are the same point: 1e-12 of the
     * length, far above the round-off of summed segment lengths (a few ulp)
     * and far below any physical feature.
     */
    double
    position_tolerance() const;

    /** True if 0 <= x <= L up to position_tolerance(). */
    bool
    on_beam(double x) const;

    /**
     * x moved onto 0, L or a segment end if it lies within
     * position_tolerance() of one; x otherwise. Every position the user
     * gives is compared with the beam's points after this, so that an end
     * given as 55.8e-3 on segments 50.8e-3 + 5e-3 is the end.
     */
    double
    snap(double x) const;

    /** The segment that contains x; at a joint, the one to the right. */
    const Segment &
    segment_at(double x) const;

    /**
     * The positions the mesh must have as vertices: segment ends, supports,
     * point masses and point loads, sorted and unique.
     */
    std::vector<double>
    key_points() const;

    /**
     * Rank (0, 1 or 2) of the restraint of the rigid motions w = a + b x by
     * the supports and springs. Rank 2 means the beam cannot move as a
     * rigid body.
     */
    unsigned int
    rigid_body_restraint_rank() const;

    /**
     * A warning for each electrode whose layers' couplings cancel (a series
     * bimorph with both layers poled alike, a layer on the neutral axis):
     * its coupling is zero up to round-off (below 1e-8 of the sum of the
     * layers' magnitudes), so it neither senses nor drives bending and no
     * load on it harvests power. Empty if every electrode couples.
     */
    std::vector<std::string>
    electrode_warnings() const;

    /**
     * Warnings when the geometry leaves Euler-Bernoulli theory or looks
     * given in millimetres (every size is in metres): the beam's length over
     * the thickness of its thickest section below 10 (not slender: shear and
     * rotary inertia, which the theory neglects, matter), and a length above
     * 10 m, a section thicker than 0.1 m or wider than 1 m (sizes meant in
     * mm). Each names the sizes that triggered it and a fix. Empty if none.
     * (plausibility.cc)
     */
    std::vector<std::string>
    plausibility_warnings() const;

    /** True if electrode_warnings() names the electrode `name`. */
    bool
    coupling_cancels(const std::string &name) const;

    /** Total mass of the beam and its point masses (kg). */
    double
    total_mass() const;

    std::vector<Segment>   segments;
    std::vector<Support>   supports;
    std::vector<PointMass> point_masses;
    std::vector<PointLoad> point_loads;
    std::vector<Electrode> electrodes;
    Damping                damping;

    /** Axial force N0(x) (N), tension positive. */
    std::shared_ptr<dealii::Function<1>> axial_force;
    /** False if N0 is identically zero (the entry was "0"). */
    bool has_prestress = false;

    /** Distributed transverse load q(x) (N/m). */
    std::shared_ptr<dealii::Function<1>> distributed_load;
    bool                                 has_distributed_load = false;
  };
} // namespace hamilton

#endif
