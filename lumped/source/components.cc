// The component library: each component reads its entries and adds its
// coordinates and energy, dissipation, force and constraint terms.
#include <hamilton/lumped/component.h>

#include <deal.II/base/utilities.h>

#include <cmath>

namespace hamilton::lumped
{
  using namespace dealii;
  using GiNaC::ex;

  GiNaC::ex
  component_parameter(System            &system,
                      Section           &s,
                      const std::string &entry,
                      const std::string &symbol,
                      const std::string &component,
                      bool               positive)
  {
    const std::string text  = Utilities::trim(s.get(entry));
    const ex          e     = system.parse(text, s.path(), entry, true);
    const auto        value = finite_value(e.subs(system.parameter_values()));
    if (!value)
      s.fail(entry, "'" + text + "' is not a finite real number or an expression of the parameters.");
    const double v = *value;
    if (positive ? !(v > 0) : !(v >= 0))
      s.fail(entry, "evaluates to " + std::to_string(v) + "; it must be " + (positive ? "positive" : "non-negative") +
                      " for this component to be physical.");
    if (GiNaC::is_a<GiNaC::numeric>(e)) // a plain number: a named parameter
      return system.parameter(symbol + "_" + component, v, s.path(), entry);
    return e;
  }

  GiNaC::ex
  component_expression(System &system, Section &s, const std::string &entry, bool energy)
  {
    return system.parse(s.get(entry), s.path(), entry, energy);
  }

  namespace
  {
    /** The coordinate named in `entry`, created if new (default "<component>_<suffix>"), its unit `unit`. */
    ex
    named_coordinate(System &system, Section &s, const std::string &entry, const std::string &component,
                     const std::string &suffix, bool electrical, const std::string &unit)
    {
      std::string name = Utilities::trim(s.get(entry));
      if (name.empty())
        name = component + "_" + suffix;
      system.units.emplace(name, unit); // the first component's unit; 'Units' overrides
      return system.coordinate(name, electrical, s.path(), entry);
    }

    void
    declare_coordinate(ParameterHandler &prm, const std::string &entry, const std::string &what)
    {
      prm.declare_entry(entry, "", Patterns::Anything(),
                        "Name of the coordinate for " + what +
                          " (created if new; empty: '<component name>_...').");
    }

    void
    declare_value(ParameterHandler &prm, const std::string &entry, const std::string &default_value,
                  const std::string &documentation)
    {
      prm.declare_entry(entry, default_value, Patterns::Anything(),
                        documentation + " A number or an expression of the parameters.");
    }

    ex
    sq(const ex &e)
    {
      return GiNaC::pow(e, 2);
    }

    using Point = std::pair<ex, ex>;

    /** A closed polygon approximating a circle (for the animation). */
    std::vector<Point>
    circle(const ex &x, const ex &y, const ex &radius, unsigned int sides = 24)
    {
      std::vector<Point> points;
      for (unsigned int k = 0; k <= sides; ++k)
        points.emplace_back(x + radius * GiNaC::cos(2 * GiNaC::Pi * k / sides),
                            y + radius * GiNaC::sin(2 * GiNaC::Pi * k / sides));
      return points;
    }

    /** A closed rectangle centred at (x, y). */
    std::vector<Point>
    box(const ex &x, const ex &y, const ex &width, const ex &height)
    {
      return {{x - width / 2, y - height / 2},
              {x + width / 2, y - height / 2},
              {x + width / 2, y + height / 2},
              {x - width / 2, y + height / 2},
              {x - width / 2, y - height / 2}};
    }
  } // namespace

  /**
   * A permanent-magnet DC motor: armature current i = dq/dt, rotor angle
   * theta_m = ratio x shaft angle (a massless gearbox). W_m* = L i^2/2 +
   * k_e i theta_m (the coupling that gives the torque k_e i and the back-emf
   * k_e theta_m'), T* = J theta_m'^2/2, D = R i^2/2 + b theta_m'^2/2, supplied
   * voltage V(t). A torque constant k_t other than k_e adds the
   * non-reciprocal torque (k_t - k_e) i, booked as a source.
   */
  class DcMotor : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      declare_coordinate(prm, "Current coordinate", "the armature charge (its _dot is the current)");
      prm.declare_entry("Shaft angle", "", Patterns::Anything(),
                        "Expression of the coordinates: the angle (rad) of the gearbox output shaft.");
      declare_value(prm, "Gear ratio", "1", "Rotor angle / shaft angle (-).");
      declare_value(prm, "Armature resistance", "1", "R (Ohm), positive.");
      declare_value(prm, "Armature inductance", "0.001", "L (H), non-negative.");
      declare_value(prm, "Back-emf constant", "0.1", "k_e (V s/rad), positive.");
      prm.declare_entry("Torque constant", "", Patterns::Anything(),
                        "k_t (N m/A). Empty: equal to the back-emf constant, as energy "
                        "conservation requires in SI units.");
      declare_value(prm, "Rotor inertia", "0", "J (kg m^2), non-negative.");
      declare_value(prm, "Viscous friction", "0", "b (N m s/rad) on the rotor, non-negative.");
      prm.declare_entry("Voltage", "0", Patterns::Anything(),
                        "Supplied armature voltage (V): expression of t, the time functions, the coordinates.");
    }

    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const ex q     = named_coordinate(system, s, "Current coordinate", name, "q", true, "C");
      const ex shaft = component_expression(system, s, "Shaft angle", true);
      if (Utilities::trim(s.get("Shaft angle")).empty())
        s.fail("Shaft angle", "is empty: give the angle the motor drives, e.g. 'alpha'.");
      const ex ratio = component_parameter(system, s, "Gear ratio", "r", name, true);
      const ex R     = component_parameter(system, s, "Armature resistance", "R", name, true);
      const ex L     = component_parameter(system, s, "Armature inductance", "L", name, false);
      const ex ke    = component_parameter(system, s, "Back-emf constant", "ke", name, true);
      const ex J     = component_parameter(system, s, "Rotor inertia", "J", name, false);
      const ex b     = component_parameter(system, s, "Viscous friction", "b", name, false);
      const ex i     = system.time_derivative(q);
      const ex theta = ratio * shaft;
      const ex omega = system.time_derivative(theta);
      system.magnetic += L * sq(i) / 2 + ke * i * theta;
      system.kinetic += J * sq(omega) / 2;
      system.dissipation += R * sq(i) / 2 + b * sq(omega) / 2;
      system.add_force(component_expression(system, s, "Voltage", false), q);
      if (!Utilities::trim(s.get("Torque constant")).empty())
        {
          const ex     kt = component_parameter(system, s, "Torque constant", "kt", name, true);
          const double a  = *finite_value(kt.subs(system.parameter_values())); // checked by component_parameter
          const double c  = *finite_value(ke.subs(system.parameter_values()));
          if (a != c)
            {
              system.add_force((kt - ke) * i, theta, true);
              system.warnings.push_back(
                "component '" + name + "': torque constant " + std::to_string(a) + " N m/A differs from the "
                "back-emf constant " + std::to_string(c) + " V s/rad; in SI units they are equal (energy "
                "conservation). The difference (k_t - k_e) i theta_m' enters the energy audit as a source.");
            }
        }
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, DcMotor, "dc motor",
                           "permanent-magnet DC motor with armature R, L, back-emf constant k_e, torque "
                           "constant k_t (default k_e; a different k_t is booked as a source), rotor J, "
                           "friction b, gearbox ratio, supplied voltage.")

  /** A two-terminal electrical element on a loop charge (an expression of the charges). */
  template <int kind>
  class TwoTerminal : public Component
  {
  public:
    static constexpr const char *value_entry[] = {"Resistance", "Inductance", "Capacitance", "Voltage"};
    static constexpr const char *symbol[]      = {"R", "L", "C", "V"};

    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Charge", "", Patterns::Anything(),
                        "Expression of the charge coordinates through the element (C), e.g. 'q1 - q2'.");
      if (kind == 3)
        prm.declare_entry("Voltage", "0", Patterns::Anything(),
                          "Source voltage (V): expression of t and the time functions; its power "
                          "is V dq/dt.");
      else
        declare_value(prm, value_entry[kind], "1",
                      std::string(kind == 0 ? "R (Ohm)" : kind == 1 ? "L (H)" : "C (F)") + ", positive.");
    }

    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      if (Utilities::trim(s.get("Charge")).empty())
        s.fail("Charge", "is empty: give the charge through the element, e.g. 'q1'.");
      const ex q = component_expression(system, s, "Charge", true);
      const ex i = system.time_derivative(q);
      if (kind == 3)
        {
          system.add_force(component_expression(system, s, "Voltage", false), q);
          return;
        }
      const ex value = component_parameter(system, s, value_entry[kind], symbol[kind], name, true);
      if (kind == 0)
        system.dissipation += value * sq(i) / 2;
      if (kind == 1)
        system.magnetic += value * sq(i) / 2;
      if (kind == 2)
        system.electric += sq(q) / (2 * value);
    }
  };
  using Resistor      = TwoTerminal<0>;
  using Inductor      = TwoTerminal<1>;
  using Capacitor     = TwoTerminal<2>;
  using VoltageSource = TwoTerminal<3>;
  HAMILTON_REGISTER_PLUGIN(Component, Resistor, "resistor", "D += R i^2/2 on a loop charge.")
  HAMILTON_REGISTER_PLUGIN(Component, Inductor, "inductor", "W_m* += L i^2/2 on a loop charge.")
  HAMILTON_REGISTER_PLUGIN(Component, Capacitor, "capacitor", "W_e += q^2/(2 C) on a loop charge.")
  HAMILTON_REGISTER_PLUGIN(Component, VoltageSource, "voltage source", "supplied voltage V(t) on a loop charge.")

  /**
   * A current source i(t) (a time function) on a loop charge: the
   * rheonomic constraint  charge - Q0 - integral_0^t i dt = 0. Its
   * multiplier is minus the voltage across the source, and the work it
   * does, lambda . Phi_t = v i, is booked as supplied.
   */
  class CurrentSource : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Charge", "", Patterns::Anything(),
                        "Expression of the charge coordinates through the source (C), e.g. 'q1'.");
      prm.declare_entry("Current", "", Patterns::Anything(),
                        "Name of the time function giving the source current i(t) (A), declared in "
                        "'Time functions'. Inductors in series with the source need a current "
                        "that starts smoothly (no step).");
      declare_value(prm, "Initial charge", "0", "Q0 (C), the charge expression at t = 0.");
    }

    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      if (Utilities::trim(s.get("Charge")).empty())
        s.fail("Charge", "is empty: give the charge through the source, e.g. 'q1'.");
      const ex          q       = component_expression(system, s, "Charge", true);
      const std::string current = Utilities::trim(s.get("Current"));
      std::string       known;
      for (const auto &[u, f] : system.time_functions)
        {
          if (f.name == current)
            {
              const ex q0 = component_expression(system, s, "Initial charge", true);
              system.constraints.push_back(q - q0 - f.integral_symbol);
              system.outputs.emplace_back(name + "_voltage", -system.multiplier(system.constraints.size() - 1));
              system.units.emplace(name + "_voltage", "V");
              return;
            }
          known += (known.empty() ? "" : ", ") + f.name;
        }
      s.fail("Current", "'" + current + "' is not a time function; declared: " + (known.empty() ? "none" : known) +
                          ". Declare it in 'Lumped system/Time functions'.");
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, CurrentSource, "current source",
                           "supplied current i(t) through a loop charge (a constraint; its voltage is an output).")

  /**
   * Electromechanical transducers: a movable-plate capacitor
   * W_e = q^2 x/(2 eps A) (gap x), a movable-core inductor W_m* = L(x) i^2/2,
   * a moving coil W_m* = T i x (force T i, back-emf T x').
   */
  class MovablePlateCapacitor : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Charge", "", Patterns::Anything(), "Expression of the charge coordinates on the plates (C).");
      prm.declare_entry("Gap", "", Patterns::Anything(), "Expression of the coordinates: the plate gap x (m), C = eps A/x.");
      declare_value(prm, "Permittivity", "8.8541878128e-12", "eps (F/m), positive.");
      declare_value(prm, "Area", "1e-4", "Plate area A (m^2), positive.");
    }
    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const ex q   = component_expression(system, s, "Charge", true);
      const ex x   = component_expression(system, s, "Gap", true);
      const ex eps = component_parameter(system, s, "Permittivity", "epsilon", name, true);
      const ex A   = component_parameter(system, s, "Area", "A", name, true);
      system.electric += sq(q) * x / (2 * eps * A);
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, MovablePlateCapacitor, "movable-plate capacitor",
                           "W_e += q^2 x/(2 eps A): the electrostatic transducer of a plate at gap x.")

  class MovableCoreInductor : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Charge", "", Patterns::Anything(), "Expression of the charge coordinates through the coil (C).");
      prm.declare_entry("Inductance", "", Patterns::Anything(),
                        "L(x) (H): expression of the coordinates and parameters, e.g. 'L0/(1 + x/a)'.");
    }
    void
    add_to(System &system, Section &s, const std::string &) const override
    {
      const ex i = system.time_derivative(component_expression(system, s, "Charge", true));
      system.magnetic += component_expression(system, s, "Inductance", true) * sq(i) / 2;
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, MovableCoreInductor, "movable-core inductor",
                           "W_m* += L(x) i^2/2: the reluctance transducer.")

  class MovingCoil : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Charge", "", Patterns::Anything(), "Expression of the charge coordinates through the coil (C).");
      prm.declare_entry("Position", "", Patterns::Anything(), "Expression of the coordinates: the coil position x (m).");
      declare_value(prm, "Transducer constant", "1", "T = B l (N/A = V s/m), positive.");
    }
    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const ex i = system.time_derivative(component_expression(system, s, "Charge", true));
      const ex T = component_parameter(system, s, "Transducer constant", "T", name, true);
      system.magnetic += T * i * component_expression(system, s, "Position", true);
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, MovingCoil, "moving coil",
                           "W_m* += T i x: the electrodynamic transducer (loudspeaker, shaker).")

  /** A mass on a position expression, with a linear damper, spring and applied force. */
  class Cart : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Position", "", Patterns::Anything(),
                        "Expression of the coordinates: the cart position x (m), e.g. 'x' or 'd*cos(alpha)'.");
      declare_value(prm, "Mass", "1", "m (kg), positive.");
      declare_value(prm, "Damping", "0", "Viscous damping c (N s/m) to ground, non-negative.");
      declare_value(prm, "Stiffness", "0", "Spring k (N/m) to ground at x = 0, non-negative.");
      prm.declare_entry("Force", "0", Patterns::Anything(), "Applied force (N): expression of t and the time functions.");
      declare_value(prm, "Drawing size", "0.1", "Width of the cart in the animation (m), positive.");
    }
    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      if (Utilities::trim(s.get("Position")).empty())
        s.fail("Position", "is empty: give the cart's position, e.g. 'x'.");
      const ex x = component_expression(system, s, "Position", true);
      const ex v = system.time_derivative(x);
      system.kinetic += component_parameter(system, s, "Mass", "m", name, true) * sq(v) / 2;
      system.dissipation += component_parameter(system, s, "Damping", "c", name, false) * sq(v) / 2;
      system.potential += component_parameter(system, s, "Stiffness", "k", name, false) * sq(x) / 2;
      system.add_force(component_expression(system, s, "Force", false), x);
      system.outputs.emplace_back(name + "_x", x);
      system.units.emplace(name + "_x", "m");
      const ex size = component_parameter(system, s, "Drawing size", "size", name, true);
      system.drawing.push_back({name, box(x, 0, size, size / 2)});
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, Cart, "cart", "a mass on a position expression, damper, spring, force.")

  /** The scotch yoke of Manhaes et al. 2018: a cart at x = d cos(alpha). */
  class ScotchYoke : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Crank angle", "", Patterns::Anything(), "Expression of the coordinates: the disk angle alpha (rad).");
      declare_value(prm, "Eccentricity", "0.05", "d (m), the pin radius, positive.");
      declare_value(prm, "Cart mass", "1", "m_c (kg), positive.");
      declare_value(prm, "Cart damping", "0", "Viscous damping of the cart (N s/m), non-negative.");
    }
    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const ex alpha = component_expression(system, s, "Crank angle", true);
      const ex d     = component_parameter(system, s, "Eccentricity", "d", name, true);
      const ex x     = d * GiNaC::cos(alpha);
      const ex v     = system.time_derivative(x);
      system.kinetic += component_parameter(system, s, "Cart mass", "mc", name, true) * sq(v) / 2;
      system.dissipation += component_parameter(system, s, "Cart damping", "c", name, false) * sq(v) / 2;
      system.outputs.emplace_back(name + "_x", x);
      system.units.emplace(name + "_x", "m");
      system.drawing.push_back({name + "_disk", circle(0, 0, 1.3 * d)});
      system.drawing.push_back({name + "_crank", {{0, 0}, {x, d * GiNaC::sin(alpha)}}});
      system.drawing.push_back({name + "_yoke", {{x, -1.5 * d}, {x, 1.5 * d}}});
      system.drawing.push_back({name + "_cart", box(x + 2.5 * d, 0, 2 * d, 3 * d)});
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, ScotchYoke, "scotch yoke",
                           "disk of eccentricity d driving a cart at x = d cos(alpha).")

  /** A point-mass pendulum hanging from a pivot that moves horizontally. */
  class Pendulum : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      declare_coordinate(prm, "Angle coordinate", "the pendulum angle from the downward vertical (rad)");
      prm.declare_entry("Pivot position", "0", Patterns::Anything(),
                        "Expression of the coordinates: the horizontal pivot position (m).");
      declare_value(prm, "Length", "1", "l (m), positive.");
      declare_value(prm, "Mass", "1", "m (kg), positive.");
      declare_value(prm, "Gravity", "9.81", "g (m/s^2), non-negative.");
      declare_value(prm, "Damping", "0", "Rotational damping at the pivot (N m s/rad), non-negative.");
    }
    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const ex th = named_coordinate(system, s, "Angle coordinate", name, "theta", false, "rad");
      const ex xp = component_expression(system, s, "Pivot position", true);
      const ex l  = component_parameter(system, s, "Length", "l", name, true);
      const ex m  = component_parameter(system, s, "Mass", "m", name, true);
      const ex g  = component_parameter(system, s, "Gravity", "g", name, false);
      const ex w  = system.time_derivative(th);
      system.kinetic += m / 2 * (sq(system.time_derivative(xp) + l * GiNaC::cos(th) * w) + sq(l * GiNaC::sin(th) * w));
      system.potential += -m * g * l * GiNaC::cos(th);
      system.dissipation += component_parameter(system, s, "Damping", "b", name, false) * sq(w) / 2;
      const ex bx = xp + l * GiNaC::sin(th), by = -l * GiNaC::cos(th);
      system.drawing.push_back({name + "_rod", {{xp, 0}, {bx, by}}});
      system.drawing.push_back({name + "_bob", circle(bx, by, l / 10)});
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, Pendulum, "pendulum",
                           "point-mass pendulum on a horizontally moving pivot, with gravity and damping.")

  /** The overhead crane of Hoang and Vuong 2019, eq. (29): trolley x, swing angle. */
  class OverheadCrane : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      declare_coordinate(prm, "Trolley coordinate", "the trolley position (m)");
      declare_coordinate(prm, "Swing coordinate", "the cable angle from the vertical (rad)");
      declare_value(prm, "Trolley mass", "2", "m_t (kg), positive.");
      declare_value(prm, "Payload mass", "0.85", "m_p (kg), positive.");
      declare_value(prm, "Cable length", "0.7", "l (m), positive.");
      declare_value(prm, "Gravity", "9.81", "g (m/s^2), non-negative.");
      declare_value(prm, "Trolley damping", "2", "d_1 (N s/m), non-negative.");
    }
    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const ex q1 = named_coordinate(system, s, "Trolley coordinate", name, "x", false, "m");
      const ex q2 = named_coordinate(system, s, "Swing coordinate", name, "theta", false, "rad");
      const ex mt = component_parameter(system, s, "Trolley mass", "mt", name, true);
      const ex mp = component_parameter(system, s, "Payload mass", "mp", name, true);
      const ex l  = component_parameter(system, s, "Cable length", "l", name, true);
      const ex g  = component_parameter(system, s, "Gravity", "g", name, false);
      const ex v1 = system.time_derivative(q1), v2 = system.time_derivative(q2);
      system.kinetic += (mt + mp) * sq(v1) / 2 + mp * l * GiNaC::cos(q2) * v1 * v2 + mp * sq(l) * sq(v2) / 2;
      system.potential += -mp * g * l * GiNaC::cos(q2);
      system.dissipation += component_parameter(system, s, "Trolley damping", "d1", name, false) * sq(v1) / 2;
      const ex px = q1 + l * GiNaC::sin(q2), py = -l * GiNaC::cos(q2);
      system.drawing.push_back({name + "_trolley", box(q1, 0, l / 2, l / 8)});
      system.drawing.push_back({name + "_cable", {{q1, 0}, {px, py}}});
      system.drawing.push_back({name + "_payload", box(px, py - l / 16, l / 5, l / 8)});
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, OverheadCrane, "overhead crane",
                           "trolley and payload on a cable of constant length (Hoang and Vuong 2019, eq. 29).")

  /** The planar two-link arm of Hoang and Vuong 2019, eqs. (35)-(36), in a vertical plane. */
  class TwoLinkArm : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      declare_coordinate(prm, "Joint 1 coordinate", "the angle of link 1 from the horizontal (rad)");
      declare_coordinate(prm, "Joint 2 coordinate", "the angle of link 2 relative to link 1 (rad)");
      for (const char *k : {"1", "2"})
        {
          declare_value(prm, std::string("Mass ") + k, "1", std::string("m_") + k + " (kg), positive.");
          declare_value(prm, std::string("Length ") + k, "0.5", std::string("l_") + k + " (m), positive.");
          declare_value(prm, std::string("Center of mass ") + k, "0.25",
                        std::string("a_") + k + ", joint to center of mass (m), non-negative.");
          declare_value(prm, std::string("Inertia ") + k, "0.02",
                        std::string("I_C") + k + " about the center of mass (kg m^2), non-negative.");
          declare_value(prm, std::string("Joint damping ") + k, "0", std::string("d_") + k + " (N m s/rad), non-negative.");
        }
      declare_value(prm, "Gravity", "9.81", "g (m/s^2), non-negative.");
    }
    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const ex q1  = named_coordinate(system, s, "Joint 1 coordinate", name, "q1", false, "rad");
      const ex q2  = named_coordinate(system, s, "Joint 2 coordinate", name, "q2", false, "rad");
      const ex m1  = component_parameter(system, s, "Mass 1", "m1", name, true);
      const ex m2  = component_parameter(system, s, "Mass 2", "m2", name, true);
      const ex l1  = component_parameter(system, s, "Length 1", "l1", name, true);
      const ex l2  = component_parameter(system, s, "Length 2", "l2", name, true);
      const ex a1  = component_parameter(system, s, "Center of mass 1", "a1", name, false);
      const ex a2  = component_parameter(system, s, "Center of mass 2", "a2", name, false);
      const ex I1  = component_parameter(system, s, "Inertia 1", "IC1", name, false);
      const ex I2  = component_parameter(system, s, "Inertia 2", "IC2", name, false);
      const ex g   = component_parameter(system, s, "Gravity", "g", name, false);
      const ex v1 = system.time_derivative(q1), v2 = system.time_derivative(q2);
      system.kinetic += (I1 + m1 * sq(a1) + I2 + m2 * (sq(l1) + sq(a2) + 2 * l1 * a2 * GiNaC::cos(q2))) * sq(v1) / 2 +
                        (I2 + m2 * (sq(a2) + l1 * a2 * GiNaC::cos(q2))) * v1 * v2 + (I2 + m2 * sq(a2)) * sq(v2) / 2;
      system.potential += m1 * g * a1 * GiNaC::sin(q1) + m2 * g * (l1 * GiNaC::sin(q1) + a2 * GiNaC::sin(q1 + q2));
      system.dissipation += component_parameter(system, s, "Joint damping 1", "d1", name, false) * sq(v1) / 2 +
                            component_parameter(system, s, "Joint damping 2", "d2", name, false) * sq(v2) / 2;
      const ex ex1 = l1 * GiNaC::cos(q1), ey1 = l1 * GiNaC::sin(q1);
      system.drawing.push_back({name + "_link1", {{0, 0}, {ex1, ey1}}});
      system.drawing.push_back({name + "_link2", {{ex1, ey1}, {ex1 + l2 * GiNaC::cos(q1 + q2), ey1 + l2 * GiNaC::sin(q1 + q2)}}});
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, TwoLinkArm, "two-link arm",
                           "planar serial arm in a vertical plane (Hoang and Vuong 2019, eqs. 35-36).")

  /**
   * The slider-crank of Hoang and Vuong 2019, section 3.3, in redundant
   * coordinates (crank angle q1, rod angle q2, slider position q3) with its
   * two loop-closure constraints, in a vertical plane.
   */
  class SliderCrank : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      declare_coordinate(prm, "Crank coordinate", "the crank angle q1 (rad)");
      declare_coordinate(prm, "Rod coordinate", "the rod angle q2 (rad), measured downwards");
      declare_coordinate(prm, "Slider coordinate", "the slider position q3 (m)");
      for (const char *k : {"1", "2"})
        {
          declare_value(prm, std::string("Mass ") + k, "1", std::string(k[0] == '1' ? "crank" : "rod") + " mass (kg), positive.");
          declare_value(prm, std::string("Length ") + k, k[0] == '1' ? "0.2" : "0.5",
                        std::string(k[0] == '1' ? "crank" : "rod") + " length (m), positive.");
          declare_value(prm, std::string("Center of mass ") + k, k[0] == '1' ? "0.1" : "0.25",
                        "joint to center of mass (m), non-negative.");
          declare_value(prm, std::string("Inertia ") + k, k[0] == '1' ? "1/12*0.2^2" : "1/12*0.5^2",
                        "about the center of mass (kg m^2), non-negative.");
        }
      declare_value(prm, "Slider mass", "1", "m_3 (kg), positive.");
      declare_value(prm, "Gravity", "9.81", "g (m/s^2), non-negative.");
      declare_value(prm, "Crank damping", "0", "d (N m s/rad) on the crank, non-negative.");
    }
    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const ex q1 = named_coordinate(system, s, "Crank coordinate", name, "q1", false, "rad");
      const ex q2 = named_coordinate(system, s, "Rod coordinate", name, "q2", false, "rad");
      const ex q3 = named_coordinate(system, s, "Slider coordinate", name, "q3", false, "m");
      const ex m1 = component_parameter(system, s, "Mass 1", "m1", name, true);
      const ex m2 = component_parameter(system, s, "Mass 2", "m2", name, true);
      const ex l1 = component_parameter(system, s, "Length 1", "l1", name, true);
      const ex l2 = component_parameter(system, s, "Length 2", "l2", name, true);
      const ex a1 = component_parameter(system, s, "Center of mass 1", "a1", name, false);
      const ex a2 = component_parameter(system, s, "Center of mass 2", "a2", name, false);
      const ex I1 = component_parameter(system, s, "Inertia 1", "IC1", name, false);
      const ex I2 = component_parameter(system, s, "Inertia 2", "IC2", name, false);
      const ex m3 = component_parameter(system, s, "Slider mass", "m3", name, true);
      const ex g  = component_parameter(system, s, "Gravity", "g", name, false);
      const ex v1 = system.time_derivative(q1), v2 = system.time_derivative(q2), v3 = system.time_derivative(q3);
      system.kinetic += (I1 + m1 * sq(a1) + m2 * sq(l1)) * sq(v1) / 2 - m2 * l1 * a2 * GiNaC::cos(q1 + q2) * v1 * v2 +
                        (I2 + m2 * sq(a2)) * sq(v2) / 2 + m3 * sq(v3) / 2;
      system.potential += m1 * g * a1 * GiNaC::sin(q1) + m2 * g * (l1 * GiNaC::sin(q1) - a2 * GiNaC::sin(q2));
      system.dissipation += component_parameter(system, s, "Crank damping", "d", name, false) * sq(v1) / 2;
      system.constraints.push_back(l1 * GiNaC::cos(q1) + l2 * GiNaC::cos(q2) - q3);
      system.constraints.push_back(l1 * GiNaC::sin(q1) - l2 * GiNaC::sin(q2));
      const ex ax = l1 * GiNaC::cos(q1), ay = l1 * GiNaC::sin(q1);
      system.drawing.push_back({name + "_crank", {{0, 0}, {ax, ay}}});
      system.drawing.push_back({name + "_rod", {{ax, ay}, {q3, 0}}});
      system.drawing.push_back({name + "_slider", box(q3, 0, l1 / 2, l1 / 4)});
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, SliderCrank, "slider-crank",
                           "crank, rod and slider in redundant coordinates with two constraints (Hoang and Vuong 2019, section 3.3).")

  /**
   * The 3RRR planar parallel robot of Hoang and Vuong 2019, section 3.4,
   * in a horizontal plane: crank angles theta_1..3, platform x_C, y_C, phi;
   * three distance constraints |B_i - A_i|^2 = l_2^2. Base joints O_i at
   * radius L0/sqrt(3), platform joints at b = L1/sqrt(3), both at angles
   * 7 pi/6, -pi/6, pi/2; rod masses lumped at their ends (the paper's model).
   */
  class RrrRobot : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Coordinate prefix", "", Patterns::Anything(),
                        "Prefix of the six coordinates theta1, theta2, theta3, xC, yC, phi "
                        "(empty: none, i.e. exactly these names).");
      declare_value(prm, "Base side", "0.6", "L0 (m), side of the base triangle O1 O2 O3, positive.");
      declare_value(prm, "Platform side", "0.2", "L1 (m), side of the platform triangle, positive.");
      declare_value(prm, "Crank length", "0.25", "l1 = O_i A_i (m), positive.");
      declare_value(prm, "Rod length", "0.3", "l2 = A_i B_i (m), positive.");
      declare_value(prm, "Crank mass", "0.5", "m1 (kg), positive.");
      declare_value(prm, "Rod mass", "0.3", "m2 (kg), positive.");
      declare_value(prm, "Platform mass", "1", "m3 (kg), positive.");
      declare_value(prm, "Crank inertia", "0.003", "I_C1 about the crank's center (kg m^2), non-negative.");
      declare_value(prm, "Platform inertia", "0.005", "I_C3 (kg m^2), non-negative.");
    }
    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const std::string p = Utilities::trim(s.get("Coordinate prefix"));
      ex                theta[3];
      for (unsigned int k = 0; k < 3; ++k)
        {
          system.units.emplace(p + "theta" + std::to_string(k + 1), "rad");
          theta[k] = system.coordinate(p + "theta" + std::to_string(k + 1), false, s.path(), "Coordinate prefix");
        }
      for (const auto &[suffix, unit] : {std::pair{"xC", "m"}, {"yC", "m"}, {"phi", "rad"}})
        system.units.emplace(p + suffix, unit);
      const ex xC = system.coordinate(p + "xC", false, s.path(), "Coordinate prefix"),
               yC = system.coordinate(p + "yC", false, s.path(), "Coordinate prefix"),
               phi = system.coordinate(p + "phi", false, s.path(), "Coordinate prefix");
      const ex L0 = component_parameter(system, s, "Base side", "L0", name, true);
      const ex L1 = component_parameter(system, s, "Platform side", "L1", name, true);
      const ex l1 = component_parameter(system, s, "Crank length", "l1", name, true);
      const ex l2 = component_parameter(system, s, "Rod length", "l2", name, true);
      const ex m1 = component_parameter(system, s, "Crank mass", "m1", name, true);
      const ex m2 = component_parameter(system, s, "Rod mass", "m2", name, true);
      const ex m3 = component_parameter(system, s, "Platform mass", "m3", name, true);
      const ex I1 = component_parameter(system, s, "Crank inertia", "IC1", name, false);
      const ex I3 = component_parameter(system, s, "Platform inertia", "IC3", name, false);
      const ex b = L1 / GiNaC::sqrt(ex(3)), r0 = L0 / GiNaC::sqrt(ex(3));
      const ex angles[3] = {7 * GiNaC::Pi / 6, -GiNaC::Pi / 6, GiNaC::Pi / 2};
      for (unsigned int k = 0; k < 3; ++k)
        {
          const ex w = system.time_derivative(theta[k]);
          system.kinetic += (I1 + m1 * sq(l1) / 4 + m2 * sq(l1) / 2) * sq(w) / 2;
          const ex ax = r0 * GiNaC::cos(angles[k]) + l1 * GiNaC::cos(theta[k]);
          const ex ay = r0 * GiNaC::sin(angles[k]) + l1 * GiNaC::sin(theta[k]);
          const ex bx = xC + b * GiNaC::cos(phi + angles[k]), by = yC + b * GiNaC::sin(phi + angles[k]);
          system.constraints.push_back(sq(bx - ax) + sq(by - ay) - sq(l2));
          const ex ox = r0 * GiNaC::cos(angles[k]), oy = r0 * GiNaC::sin(angles[k]);
          system.drawing.push_back({name + "_leg" + std::to_string(k + 1), {{ox, oy}, {ax, ay}, {bx, by}}});
        }
      std::vector<Point> base, platform;
      for (unsigned int k = 0; k <= 3; ++k)
        {
          base.emplace_back(r0 * GiNaC::cos(angles[k % 3]), r0 * GiNaC::sin(angles[k % 3]));
          platform.emplace_back(xC + b * GiNaC::cos(phi + angles[k % 3]), yC + b * GiNaC::sin(phi + angles[k % 3]));
        }
      system.drawing.push_back({name + "_base", base});
      system.drawing.push_back({name + "_platform", platform});
      system.kinetic += (m3 + 3 * m2 / 2) * (sq(system.time_derivative(xC)) + sq(system.time_derivative(yC))) / 2 +
                        (I3 + 3 * m2 * sq(b) / 2) * sq(system.time_derivative(phi)) / 2;
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, RrrRobot, "3rrr robot",
                           "3RRR planar parallel robot, six coordinates and three constraints (Hoang and Vuong 2019, section 3.4).")
} // namespace hamilton::lumped
