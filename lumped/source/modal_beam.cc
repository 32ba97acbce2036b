// The modal beam component: a reduced model exported by the beam solver
// (format 'hamilton-rom') inside a lumped system.
#include <hamilton/base/rom_file.h>
#include <hamilton/lumped/component.h>

#include <deal.II/base/utilities.h>

#include <filesystem>

namespace hamilton::lumped
{
  namespace
  {
    /** The most modal coordinates a modal beam takes (README, "Lumped systems"). */
    constexpr unsigned int max_modal_coordinates = 50;
  } // namespace

  using namespace dealii;
  using GiNaC::ex;

  /**
   * A flexible beam from a ROM file, its root carried by the mechanism. With
   * modal coordinates eta (mass-normalized), base translation X (transverse
   * to the beam) and electrode charges Q_e:
   *   T* = 1/2 eta'^T M eta' + X' p^T eta' + 1/2 m X'^2,
   *   V  = 1/2 eta^T K eta,
   *   W_e = sum_e (Q_e - chi_e^T eta)^2 / (2 C_e)   (the electrode voltage is
   *        V_e = dW_e/dQ_e; chi_e the modal coupling, C_e the capacitance),
   *        or, with flux linkages lambda_e (V_e = lambda_e'), the coenergy
   *        W_e* = sum_e C_e lambda_e'^2/2 + lambda_e' chi_e^T eta in L,
   *   D  = sum_r zeta_r omega_r eta_r'^2,
   * and, with a root angle theta (bending in the plane of rotation, Omega =
   * theta'): T* += Omega p_theta^T eta' + 1/2 Omega^2 (J_root + eta^T M eta
   * - eta^T G eta), G the projected geometric stiffness of the centrifugal
   * axial force per (rad/s)^2 (centrifugal stiffening minus the in-plane
   * softening M); a translation X along a fixed direction (the deflection
   * direction at theta = 0) then adds X' Omega (S1 cos(theta) - sin(theta)
   * p^T eta) + X' cos(theta) p^T eta' (S1 the first moment about the root).
   * A prescribed base acceleration a(t) instead enters as the inertial force
   * -a(t) d/dq (S1 sin(theta) + cos(theta) p^T eta) (the beam's frame moves
   * with the base).
   */
  class ModalBeam : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("ROM file", "rom.json", Patterns::Anything(),
                        "Reduced model written by the 'reduced model' analysis (format hamilton-rom "
                        "version 1). A relative name is looked up in the run's output directory "
                        "(a ROM this run exports), then next to the parameter file.");
      prm.declare_entry("Base position", "", Patterns::Anything(),
                        "Expression of the coordinates: the root's translation X (m) along a fixed "
                        "direction, the beam's deflection direction at root angle 0, e.g. the cart "
                        "position 'd*cos(alpha)'. Empty: a root fixed or moved by 'Base acceleration'.");
      prm.declare_entry("Base acceleration", "", Patterns::Anything(),
                        "Prescribed base acceleration (m/s^2): expression of t and the time "
                        "functions. Exclusive with 'Base position'.");
      prm.declare_entry("Root angle", "", Patterns::Anything(),
                        "Expression of the coordinates: the rotation (rad) of the root about the "
                        "axis normal to the plane of bending, e.g. a hub angle after a gearbox. "
                        "Adds the rotational participation, the rigid second moment and the "
                        "centrifugal stiffening of the ROM's geometric stiffness.");
      prm.declare_entry("Coordinate prefix", "", Patterns::Anything(),
                        "Modal coordinates are <prefix>1, <prefix>2, ...; empty: '<name>_eta'. "
                        "Electrode charges are '<name>_<electrode>' (C).");
      prm.declare_entry("Electrode coordinates", "charge", Patterns::Selection("charge|flux linkage"),
                        "What the coordinate '<name>_<electrode>' is: the charge Q on the electrode "
                        "(C; W_e = (Q - chi^T eta)^2/(2 C); circuits as loop charges, e.g. the "
                        "resistor component) or the flux linkage lambda (V s, lambda' = the electrode "
                        "voltage; W_e* = C lambda'^2/2 + lambda' chi^T eta; circuits as node "
                        "energies, e.g. 'Dissipation = 0.5/R*beam_harvester_dot^2').");
      prm.declare_entry("Drawing root", "", Patterns::Anything(),
                        "Animation: the root's position 'x, y' (m), expressions of the coordinates, t "
                        "and the time functions; empty: (0, base position).");
      prm.declare_entry("Drawing angle", "", Patterns::Anything(),
                        "Animation: direction of the beam's axis (rad from the x axis); the deflection is "
                        "drawn along the axis turned by +90 degrees. Empty: the root angle, or 0.");
      prm.declare_entry("Drawing scale", "1", Patterns::Anything(),
                        "Animation: magnification of the elastic deflection (make micrometres visible).");
    }

    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const std::string file = Utilities::trim(s.get("ROM file"));
      std::string       found;
      for (const auto &d : system.search_directories)
        if (found.empty() && std::filesystem::exists(std::filesystem::path(d) / file))
          found = (std::filesystem::path(d) / file).string();
      if (std::filesystem::path(file).is_absolute() && std::filesystem::exists(file))
        found = file;
      if (found.empty())
        s.fail("ROM file", "no such file (looked in the output directory and next to the parameter file). "
                           "Export it with the 'reduced model' analysis, in this file or another run.");
      ReducedModel rom;
      try
        {
          rom = ReducedModel::read(found);
        }
      catch (const RomError &e)
        {
          s.fail("ROM file", e.what());
        }
      // (the ROM reader refuses negative or non-finite frequencies and damping ratios)
      const std::string position     = Utilities::trim(s.get("Base position"));
      const std::string acceleration = Utilities::trim(s.get("Base acceleration"));
      if (!position.empty() && !acceleration.empty())
        s.fail("Base acceleration", "is given together with 'Base position': the root is either carried by "
                                    "the mechanism or moved as prescribed. Leave one empty.");
      std::string prefix = Utilities::trim(s.get("Coordinate prefix"));
      if (prefix.empty())
        prefix = name + "_eta";

      const unsigned int n = rom.size();
      // the derivation grows as n^3, the compiled code as n^2 (README,
      // "Lumped systems": 80 coordinates took 8 s to derive and 125 s to
      // compile 1.4 MB of C)
      if (n > max_modal_coordinates && !system.provisional_files)
        s.fail("ROM file", "has " + std::to_string(n) + " modal coordinates (modes and static corrections); a "
                           "modal beam takes at most " + std::to_string(max_modal_coordinates) +
                           " (the derived equations grow as n^2 terms and their derivation as n^3). Export a "
                           "ROM with fewer ('Analysis/Reduced model/Number of modes', 'Static correction order'): "
                           "modes far above the excitation's frequencies add stiffness, not accuracy.");
      std::vector<ex>    eta, rate;
      for (unsigned int r = 0; r < n; ++r)
        {
          // mass-normalized modes (M = I): a modal coordinate is in kg^1/2 m
          system.units.emplace(prefix + std::to_string(r + 1), "kg^1/2 m");
          eta.push_back(system.coordinate(prefix + std::to_string(r + 1), false, s.path(), "Coordinate prefix"));
          rate.push_back(system.time_derivative(eta.back()));
        }
      for (unsigned int i = 0; i < n; ++i)
        {
          system.dissipation += rom.damping_ratios[i] * rom.omega[i] * GiNaC::pow(rate[i], 2);
          for (unsigned int k = 0; k < n; ++k)
            {
              system.kinetic += rom.mass[i][k] * rate[i] * rate[k] / 2;
              system.potential += rom.stiffness[i][k] * eta[i] * eta[k] / 2;
            }
        }
      // the root: rotation theta about the normal of the plane of bending
      // (0 if not given) and translation X along a fixed direction, the
      // deflection direction at theta = 0
      const std::string angle = Utilities::trim(s.get("Root angle"));
      if (!angle.empty() && !rom.base_rotation_available)
        s.fail("Root angle",
               "needs a ROM with rotation data (moments of mass, participation in a base rotation, centrifugal "
               "stiffening), but '" + Utilities::trim(s.get("ROM file")) +
                 "' comes from a continuum, whose ROM has none. Leave 'Root angle' empty (the base translates "
                 "only), or use a beam's ROM.");
      const ex          theta = angle.empty() ? ex(0) : component_expression(system, s, "Root angle", true);
      const ex          Omega = system.time_derivative(theta);
      ex                p_eta = 0, p_rate = 0; // p^T eta, p^T eta'
      for (unsigned int r = 0; r < n; ++r)
        {
          p_eta += rom.participation_translation[r] * eta[r];
          p_rate += rom.participation_translation[r] * rate[r];
        }
      if (!angle.empty())
        {
          // rotating root, bending in the plane of rotation: velocity of a
          // point (w' + Omega x, -Omega w) plus the foreshortening of the
          // axial fibres, T* = 1/2 Omega^2 (J + eta^T M eta - eta^T G eta)
          // + Omega p_theta^T eta' (G: the ROM's K_g per (rad/s)^2)
          ex quadratic = rom.second_moment;
          for (unsigned int r = 0; r < n; ++r)
            {
              system.kinetic += Omega * rom.participation_rotation[r] * rate[r];
              for (unsigned int k = 0; k < n; ++k)
                quadratic += (rom.mass[r][k] - rom.geometric_rotation[r][k]) * eta[r] * eta[k];
            }
          system.kinetic += GiNaC::pow(Omega, 2) * quadratic / 2;
        }
      // the mass centre's displacement along X: S1 sin(theta) + cos(theta) p^T eta
      const ex along_X = rom.first_moment * GiNaC::sin(theta) + GiNaC::cos(theta) * p_eta;
      const ex X       = position.empty() ? ex(0) : component_expression(system, s, "Base position", true);
      if (!position.empty())
        {
          // T* += 1/2 m X'^2 + X' d/dt(along_X): the cross terms of translation
          // with rotation and deflection
          const ex Xd = system.time_derivative(X);
          system.kinetic += rom.rigid_mass * GiNaC::pow(Xd, 2) / 2 +
                            Xd * (Omega * (rom.first_moment * GiNaC::cos(theta) - GiNaC::sin(theta) * p_eta) +
                                  GiNaC::cos(theta) * p_rate);
        }
      if (!acceleration.empty()) // the inertial force of the moving frame: -a d(along_X)/dq
        system.add_force(-component_expression(system, s, "Base acceleration", false), along_X);
      const bool flux_linkage = s.get("Electrode coordinates") == "flux linkage";
      for (const auto &e : rom.electrodes)
        {
          system.units.emplace(name + "_" + e.name, flux_linkage ? "Wb" : "C");
          const ex coordinate = system.coordinate(name + "_" + e.name, true, s.path(), "ROM file");
          ex       induced    = 0;
          for (unsigned int r = 0; r < n; ++r)
            induced += e.coupling[r] * eta[r];
          if (flux_linkage)
            {
              // the electric coenergy W_e* = 1/2 C V^2 + V chi^T eta, V = lambda':
              // it enters L like a kinetic coenergy; the charge is dL/dlambda'
              const ex V = system.time_derivative(coordinate);
              system.magnetic += e.capacitance * GiNaC::pow(V, 2) / 2 + V * induced;
              system.outputs.emplace_back(name + "_" + e.name + "_V", V);
              system.units.emplace(name + "_" + e.name + "_V", "V");
              system.outputs.emplace_back(name + "_" + e.name + "_Q", e.capacitance * V + induced);
              system.units.emplace(name + "_" + e.name + "_Q", "C");
            }
          else
            {
              system.electric += GiNaC::pow(coordinate - induced, 2) / (2 * e.capacitance);
              system.outputs.emplace_back(name + "_" + e.name + "_V", (coordinate - induced) / e.capacitance);
              system.units.emplace(name + "_" + e.name + "_V", "V");
            }
        }
      for (const auto &o : rom.outputs)
        {
          ex w = 0;
          for (unsigned int r = 0; r < n; ++r)
            w += o.displacement[r] * eta[r];
          system.outputs.emplace_back(name + "_" + o.name + "_w", w);
          system.units.emplace(name + "_" + o.name + "_w", "m");
        }
      draw(system, s, name, rom, eta, X, theta);
    }

  private:
    /**
     * The deflected beam as a polyline in the plane of the mechanism; by
     * default its root at (0, X) and its axis at the root angle theta.
     */
    static void
    draw(System                &system,
         Section               &s,
         const std::string     &name,
         const ReducedModel    &rom,
         const std::vector<ex> &eta,
         const ex              &X,
         const ex              &theta)
    {
      if (rom.shape_x.empty())
        return; // an older ROM file without shapes: nothing to draw
      ex                root_x = 0, root_y = X;
      const std::string root = Utilities::trim(s.get("Drawing root"));
      if (!root.empty())
        {
          const auto xy = Utilities::split_string_list(root, ',');
          if (xy.size() != 2)
            s.fail("Drawing root", "'" + root + "' is not 'x, y'.");
          root_x = system.parse(xy[0], s.path(), "Drawing root", false);
          root_y = system.parse(xy[1], s.path(), "Drawing root", false);
        }
      const ex angle = Utilities::trim(s.get("Drawing angle")).empty() ?
                         theta :
                         component_expression(system, s, "Drawing angle", false);
      const ex scale = component_expression(system, s, "Drawing scale", true);
      Polyline beam{name, {}};
      for (unsigned int p = 0; p < rom.shape_x.size(); ++p)
        {
          ex w = 0;
          for (unsigned int r = 0; r < eta.size(); ++r)
            w += rom.shape_w[p][r] * eta[r];
          beam.points.emplace_back(root_x + rom.shape_x[p] * GiNaC::cos(angle) - scale * w * GiNaC::sin(angle),
                                   root_y + rom.shape_x[p] * GiNaC::sin(angle) + scale * w * GiNaC::cos(angle));
        }
      system.drawing.push_back(beam);
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, ModalBeam, "modal beam",
                           "a beam from a ROM file (modes, electrodes with their charges, damping) on a "
                           "moving base: the base position of the mechanism or a prescribed acceleration.")
} // namespace hamilton::lumped
