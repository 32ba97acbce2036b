// Planar rigid bodies and loads at points: components that form the kinetic
// coenergy of a body from its centre of mass and angle, and the generalized
// forces Q = J^T F of a force applied at a point or a torque on an angle
// (the IDSC lecture, "Theory - Generalized Forces").
#include <hamilton/lumped/component.h>

#include <deal.II/base/utilities.h>

namespace hamilton::lumped
{
  using namespace dealii;
  using GiNaC::ex;

  namespace
  {
    /**
     * The vector entry `entry`, '(a, b)' or '(a, b, c)', with min_size to
     * max_size components, each parsed in the system's symbols.
     */
    std::vector<ex>
    component_point(System &system, Section &s, const std::string &entry, bool energy, unsigned int min_size,
                    unsigned int max_size)
    {
      const std::string text = Utilities::trim(s.get(entry));
      const auto        fail = [&](const std::string &why) {
        input_error(s.path(), entry, "'" + text + "'", why);
      };
      const std::string example = max_size == 2 ? "'(l*sin(phi), -l*cos(phi))'" : "'(x_A, y_A)' or '(x_A, y_A, z_A)'";
      if (text.size() < 2 || text.front() != '(' || text.back() != ')')
        fail("is not a vector: write its components in parentheses, separated by commas, e.g. " + example + ".");
      // split at the commas outside inner parentheses (not the one of atan2(y, x))
      std::vector<std::string> parts{""};
      int                      depth = 0;
      for (const char c : text.substr(1, text.size() - 2))
        {
          depth += c == '(' ? 1 : c == ')' ? -1 : 0;
          if (depth < 0)
            fail("has unbalanced parentheses.");
          if (c == ',' && depth == 0)
            parts.emplace_back();
          else
            parts.back() += c;
        }
      if (parts.size() < min_size || parts.size() > max_size)
        fail("has " + std::to_string(parts.size()) + " component" + (parts.size() == 1 ? "" : "s") + "; " +
             (min_size == max_size ? std::to_string(min_size) : std::to_string(min_size) + " or " + std::to_string(max_size)) +
             " are allowed, e.g. " + example + ".");
      std::vector<ex> components;
      for (const auto &part : parts)
        {
          if (Utilities::trim(part).empty())
            fail("has an empty component: write every component, e.g. " + example + ".");
          try
            {
              components.push_back(system.parse(part, s.path(), entry, energy));
            }
          catch (const InputError &e) // name the whole vector too
            {
              throw InputError(std::string(e.what()) + " (component " + std::to_string(components.size() + 1) +
                               " of '" + text + "')");
            }
        }
      return components;
    }

    /** The first velocity `e` depends on ("" if none). */
    std::string
    velocity_in(const System &system, const std::vector<ex> &e)
    {
      for (const auto &c : system.coordinates)
        for (const auto &x : e)
          if (x.has(c.velocity))
            return c.name + "_dot";
      return "";
    }
  } // namespace

  /**
   * A planar rigid body: centre of mass (x_c, y_c) and angle theta
   * expressions of the coordinates, mass m and moment of inertia J about the
   * centre of mass: T* += m (x_c'^2 + y_c'^2)/2 + J theta'^2/2 (Koenig's
   * theorem), V += m g y_c with gravity g along -y.
   */
  class RigidBody : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Centre of mass", "", Patterns::Anything(),
                        "Position of the centre of mass '(x, y)' (m), expressions of the coordinates, e.g. "
                        "'(l/2*sin(phi), l/2*cos(phi))'.");
      prm.declare_entry("Angle", "0", Patterns::Anything(),
                        "Expression of the coordinates: the body's angle in the plane (rad, counterclockwise), "
                        "e.g. '-phi' for a body turning clockwise with phi.");
      prm.declare_entry("Mass", "1", Patterns::Anything(), "m (kg), positive. A number or an expression of the parameters.");
      prm.declare_entry("Moment of inertia", "0", Patterns::Anything(),
                        "J (kg m^2) about the centre of mass, non-negative (a uniform bar of length l: m l^2/12). "
                        "A number or an expression of the parameters.");
      prm.declare_entry("Gravity", "0", Patterns::Anything(),
                        "g (m/s^2) along -y, non-negative: V += m g y_c. A number or an expression of the "
                        "parameters.");
      prm.declare_entry("Drawing size", "0.1", Patterns::Anything(),
                        "Length of the line drawn through the centre of mass along the angle in the animation "
                        "(m), positive.");
    }

    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      if (Utilities::trim(s.get("Centre of mass")).empty())
        s.fail("Centre of mass", "is empty: give the centre of mass '(x, y)' as expressions of the coordinates.");
      const auto c     = component_point(system, s, "Centre of mass", true, 2, 2);
      const ex   theta = component_expression(system, s, "Angle", true);
      if (!velocity_in(system, c).empty() || !velocity_in(system, {theta}).empty())
        s.fail(!velocity_in(system, c).empty() ? "Centre of mass" : "Angle",
               "uses the velocity " + velocity_in(system, {c[0], c[1], theta}) +
                 ": a position depends on the coordinates only (the velocities follow by the chain rule).");
      const ex m = component_parameter(system, s, "Mass", "m", name, true);
      const ex J = component_parameter(system, s, "Moment of inertia", "J", name, false);
      const ex g = component_parameter(system, s, "Gravity", "g", name, false);
      const ex vx = system.time_derivative(c[0]), vy = system.time_derivative(c[1]),
               w = system.time_derivative(theta);
      system.kinetic += m * (vx * vx + vy * vy) / 2 + J * w * w / 2;
      system.potential += m * g * c[1];
      const ex size = component_parameter(system, s, "Drawing size", "size", name, true) / 2;
      system.drawing.push_back(
        {name, {{c[0] - size * GiNaC::cos(theta), c[1] - size * GiNaC::sin(theta)},
                {c[0] + size * GiNaC::cos(theta), c[1] + size * GiNaC::sin(theta)}}});
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, RigidBody, "rigid body",
                           "planar body: T* = m |v_c|^2/2 + J theta'^2/2 from the centre of mass and angle, gravity.")

  /**
   * A force F(t, q, q') applied at the point r(q, t) (2 or 3 components):
   * the generalized forces Q_k = F . dr/dq_k (Q = J^T F, J = dr/dq).
   */
  class PointForce : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Point", "", Patterns::Anything(),
                        "Where the force acts: '(x, y)' or '(x, y, z)' (m), expressions of the coordinates "
                        "(and t), e.g. '(l1*cos(alpha) + l2*cos(beta), l1*sin(alpha) - l2*sin(beta))'.");
      prm.declare_entry("Force", "", Patterns::Anything(),
                        "The force '(F_x, F_y)' or '(F_x, F_y, F_z)' (N), as many components as 'Point', "
                        "expressions of t, the time functions, the coordinates and velocities.");
    }

    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      (void)name;
      for (const char *entry : {"Point", "Force"})
        if (Utilities::trim(s.get(entry)).empty())
          s.fail(entry, std::string("is empty: give the ") + (std::string(entry) == "Point" ? "point" : "force") +
                          " as '(x, y)' or '(x, y, z)'.");
      const auto r = component_point(system, s, "Point", false, 2, 3);
      if (!velocity_in(system, r).empty())
        s.fail("Point", "uses the velocity " + velocity_in(system, r) + ": a point depends on the coordinates only.");
      const auto F = component_point(system, s, "Force", false, 2, 3);
      if (F.size() != r.size())
        input_error(s.path(), "Force", "'" + Utilities::trim(s.get("Force")) + "'",
                    "has " + std::to_string(F.size()) + " components but 'Point' (" + Utilities::trim(s.get("Point")) +
                      ") has " + std::to_string(r.size()) + ": give the force in the point's " +
                      std::to_string(r.size()) + " directions.");
      for (unsigned int i = 0; i < r.size(); ++i)
        system.add_force(F[i], r[i]);
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, PointForce, "point force",
                           "force F at a point r(q): generalized forces J^T F, J = dr/dq.")

  /** A torque M(t, q, q') on an angle theta(q): Q_k = M dtheta/dq_k. */
  class Torque : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Angle", "", Patterns::Anything(),
                        "The angle the torque turns (rad), an expression of the coordinates, e.g. 'beta - alpha' "
                        "for a torque between two bodies.");
      prm.declare_entry("Torque", "0", Patterns::Anything(),
                        "M (N m) in the direction of the angle: an expression of t, the time functions, the "
                        "coordinates and velocities.");
    }

    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      (void)name;
      if (Utilities::trim(s.get("Angle")).empty())
        s.fail("Angle", "is empty: give the angle the torque acts on, e.g. 'theta'.");
      const ex theta = component_expression(system, s, "Angle", false);
      if (!velocity_in(system, {theta}).empty())
        s.fail("Angle", "uses the velocity " + velocity_in(system, {theta}) + ": an angle depends on the coordinates only.");
      system.add_force(component_expression(system, s, "Torque", false), theta);
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, Torque, "torque", "torque M on an angle theta(q): Q = M dtheta/dq.")
} // namespace hamilton::lumped
