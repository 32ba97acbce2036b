// Velocity (non-holonomic) constraints, static equilibria, rigid bodies and
// loads at points: derived terms against the IDSC lecture and hand
// derivations, the static equilibrium against Preumont 2006's closed form.
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/run.h>

#include <gtest/gtest.h>

#include "lumped_test_helpers.h"

#include <cmath>
#include <sstream>

using namespace hamilton;
using namespace hamilton::lumped;
using hamilton::testing::load_lumped;
using hamilton::testing::sym;
using GiNaC::ex;

namespace
{
  /** a == b, using sin^2 = 1 - cos^2. */
  bool
  same(const ex &a, const ex &b)
  {
    const GiNaC::wildcard w(0);
    const ex difference = (a - b).expand().subs(GiNaC::pow(GiNaC::sin(w), 2) == 1 - GiNaC::pow(GiNaC::cos(w), 2));
    return GiNaC::normal(difference.expand()).is_zero();
  }

  /** The message of the InputError that `f` throws ("" if none). */
  template <typename F>
  std::string
  message_of(F f)
  {
    try
      {
        f();
      }
    catch (const InputError &e)
      {
        return e.what();
      }
    return "";
  }
} // namespace

// The IDSC lecture "Example - Generalized Forces": the point force at B gives the printed
// Q = (F_B l1 cos(alpha), -F_B l2 cos(beta)); the rigid bodies give the
// kinetic coenergy of the two bars by Koenig's theorem.
TEST(Constraints, TwoBarPointForceAndRigidBodies)
{
  const auto  run = load_lumped("prm/lumped/two_bar_point_force.prm");
  const auto &s   = run->system;
  const ex a = sym(s, "alpha"), b = sym(s, "beta"), ad = sym(s, "alpha_dot"), bd = sym(s, "beta_dot"),
           l1 = sym(s, "l1"), l2 = sym(s, "l2"), m1 = sym(s, "m1"), m2 = sym(s, "m2"), F = sym(s, "F_B");
  EXPECT_TRUE(same(s.forces[0], F * l1 * GiNaC::cos(a))) << s.forces[0];
  EXPECT_TRUE(same(s.forces[1], -F * l2 * GiNaC::cos(b))) << s.forces[1];
  // by hand: bar 1 about its pivot, m1 l1^2/3 alpha'^2/2; bar 2: centre
  // velocity (-l1 sin(a) a' - l2/2 sin(b) b', l1 cos(a) a' - l2/2 cos(b) b')
  const ex vx = -l1 * GiNaC::sin(a) * ad - l2 / 2 * GiNaC::sin(b) * bd,
           vy = l1 * GiNaC::cos(a) * ad - l2 / 2 * GiNaC::cos(b) * bd;
  const ex T  = m1 * l1 * l1 / 3 * ad * ad / 2 + m2 * (vx * vx + vy * vy) / 2 + m2 * l2 * l2 / 12 * bd * bd / 2;
  EXPECT_TRUE(same(s.kinetic, T)) << GiNaC::normal((s.kinetic - T).expand());
  EXPECT_TRUE(GiNaC::expand(s.potential.subs(s.parameter_values())).is_zero()) << s.potential; // g = 0
}

// The IDSC lecture "Example - Lagrange (Pendulum with Spring)" with the bar as a rigid
// body: T = (1/6) m l^2 phi'^2 and the equation of motion, whose spring term
// the lecture prints with the wrong sign.
TEST(Constraints, PendulumWithSpringAsRigidBody)
{
  const auto  run = load_lumped("prm/lumped/pendulum_with_spring_rigid_body.prm");
  const auto &s   = run->system;
  const ex    phi = sym(s, "phi"), pd = sym(s, "phi_dot"), pdd = sym(s, "phi_ddot"), m = sym(s, "m"),
           l = sym(s, "l"), g = sym(s, "g"), c = sym(s, "c");
  EXPECT_TRUE(same(s.kinetic, m * l * l * pd * pd / 6)) << s.kinetic;
  EXPECT_TRUE(same(s.potential, m * g * l / 2 * GiNaC::cos(phi) + c * GiNaC::pow(l * GiNaC::sin(phi), 2) / 2));
  const ex seed_corrected = m * l * l / 3 * pdd - m * g * l / 2 * GiNaC::sin(phi) +
                            c * l * l * GiNaC::sin(phi) * GiNaC::cos(phi);
  EXPECT_TRUE(same(run->equations->residual[0], seed_corrected)) << run->equations->residual[0];
}

// The knife edge: a velocity constraint enters with A = (sin, -cos, 0) in
// place of Phi_q, b = 0, and its multiplier in the equations as A^T lambda.
TEST(Constraints, KnifeEdgeVelocityConstraint)
{
  const auto  run = load_lumped("prm/lumped/knife_edge.prm");
  const auto &eq  = *run->equations;
  const auto &s   = run->system;
  ASSERT_EQ(eq.m, 1u);
  EXPECT_TRUE(eq.on_velocities[0]);
  const ex th = sym(s, "theta");
  EXPECT_TRUE(same(eq.constraint_jacobian(0, 0), GiNaC::sin(th)));
  EXPECT_TRUE(same(eq.constraint_jacobian(0, 1), -GiNaC::cos(th)));
  EXPECT_TRUE(eq.constraint_jacobian(0, 2).is_zero());
  EXPECT_TRUE(eq.constraint_rates[0].is_zero());
  const ex lambda = eq.multipliers[0], m = sym(s, "m"), g = sym(s, "g"), alpha = sym(s, "alpha");
  EXPECT_TRUE(same(eq.residual[0], m * sym(s, "x_ddot") - m * g * GiNaC::sin(alpha) + GiNaC::sin(th) * lambda))
    << eq.residual[0];
  EXPECT_TRUE(same(eq.residual[1], m * sym(s, "y_ddot") - GiNaC::cos(th) * lambda)) << eq.residual[1];
  std::ostringstream printed;
  eq.print(printed);
  EXPECT_NE(printed.str().find("[velocity constraint 1]"), std::string::npos) << printed.str();
}

// Velocity constraints must be linear in the velocities and hold one.
TEST(Constraints, VelocityConstraintMessages)
{
  const std::string nonlinear = message_of([] {
    load_lumped("prm/lumped/knife_edge.prm", {{"Lumped system/Velocity constraints", "x_dot^2 - y_dot"}});
  });
  EXPECT_NE(nonlinear.find("'Velocity constraints' = 'x_dot^2 - y_dot'"), std::string::npos) << nonlinear;
  EXPECT_NE(nonlinear.find("is not linear in the velocities"), std::string::npos) << nonlinear;
  const std::string holonomic = message_of([] {
    load_lumped("prm/lumped/knife_edge.prm", {{"Lumped system/Velocity constraints", "x - sin(theta)"}});
  });
  EXPECT_NE(holonomic.find("uses no velocity"), std::string::npos) << holonomic;
  const std::string statics = message_of([] {
    load_lumped("prm/lumped/knife_edge.prm", {{"Lumped system/Statics/Analysis", "equilibrium"}});
  });
  EXPECT_NE(statics.find("'Lumped system/Statics': 'Analysis'"), std::string::npos) << statics;
}

// Preumont 2006 section 1.4: f = (2/5) w tan(theta); K = 5 a f sin + 2 a w cos; in
// redundant coordinates the reactions are f and w.
TEST(Constraints, MotionAmplificationEquilibrium)
{
  const double a = 0.1, f = 30, w = 100, theta = std::atan(5 * f / (2 * w));
  {
    const auto  run = load_lumped("prm/lumped/motion_amplification_statics.prm");
    const auto  r   = run->statics.solve(*run->equations);
    EXPECT_NEAR(r.q[0], theta, 1e-14);
    EXPECT_NEAR(f, 0.4 * w * std::tan(r.q[0]), 1e-12);
    ASSERT_EQ(r.stiffness_eigenvalues.size(), 1u);
    EXPECT_NEAR(r.stiffness_eigenvalues[0].real(), 5 * a * f * std::sin(theta) + 2 * a * w * std::cos(theta), 1e-12);
    EXPECT_TRUE(r.stable);
  }
  {
    const auto run = load_lumped("prm/lumped/motion_amplification_reactions.prm");
    const auto r   = run->statics.solve(*run->equations);
    EXPECT_NEAR(r.q[0], theta, 1e-14);
    EXPECT_NEAR(r.q[1], 5 * a * std::sin(theta), 1e-14);
    EXPECT_NEAR(r.q[2], 2 * a * std::cos(theta), 1e-14);
    EXPECT_NEAR(r.lambda[0], f, 1e-11);
    EXPECT_NEAR(r.lambda[1], w, 1e-11);
    ASSERT_EQ(r.stiffness_eigenvalues.size(), 1u);
    const double K = 5 * a * f * std::sin(theta) + 2 * a * w * std::cos(theta),
                 n = 1 + std::pow(5 * a * std::cos(theta), 2) + std::pow(2 * a * std::sin(theta), 2);
    EXPECT_NEAR(r.stiffness_eigenvalues[0].real(), K / n, 1e-11);
  }
  // the load reversed: an equilibrium at tan(theta) = -0.75 with the
  // stiffness -25 N m/rad, unstable
  {
    const auto run = load_lumped("prm/lumped/motion_amplification_statics.prm",
                                 {{"Lumped system/Parameters", "a = 0.1; f = 30; w = -100"},
                                  {"Lumped system/Statics/Initial guess", "theta: -0.5"}});
    const auto r = run->statics.solve(*run->equations);
    EXPECT_NEAR(std::tan(r.q[0]), 5 * f / (2 * -100.), 1e-12);
    EXPECT_LT(r.stiffness_eigenvalues[0].real(), 0);
    EXPECT_FALSE(r.stable);
  }
}
