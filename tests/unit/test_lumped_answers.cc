// Lumped runs that gave silent or misleading answers (issue 24): the t = 0
// state of a charge-form network with a current source that is non-zero at
// t = 0, IDAS's messages on a run that succeeds, and the energy audit of a
// conservative run. Expected values from closed forms (derived below).
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/run.h>

#include <gtest/gtest.h>

#include "lumped_test_helpers.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace hamilton;
using namespace hamilton::lumped;
using hamilton::testing::lumped_from_text;

namespace
{
  /** The rows of a run of `run`'s system (interpreted evaluation: no compiler needed). */
  std::vector<std::vector<double>>
  rows_of(LumpedRun &run)
  {
    const CompiledSystem             compiled(*run.equations, Evaluation::interpreted);
    std::vector<std::vector<double>> rows;
    simulate(compiled, *run.equations, run.options, [&](const std::vector<double> &r) { rows.push_back(r); },
             nullptr);
    return rows;
  }
} // namespace

// Preumont 2006, ch. 2, Example 1 in charges with a current step: loop 1
// (q1) holds the inductor L0 and the capacitor C0, loop 2 (q2) the resistor
// R0, and the source i(t) = I0 (from t = 0) sits in the branch they share,
// q2 - q1 = I0 t. The inductor's current cannot jump: q1_dot(0) = 0, so the
// resistor takes the whole source current at t = 0, q2_dot(0) = I0. By hand:
// L0 q1'' + q1/C0 = -lambda, R0 q2' = lambda, q2' = q1' + I0, so
// L0 q1'' + R0 q1' + q1/C0 = -R0 I0 with q1(0) = q1'(0) = 0:
// q1'(t) = -(R0 I0/(L0 wd)) e^{-a t} sin(wd t), a = R0/(2 L0),
// wd = sqrt(1/(L0 C0) - a^2), and i_R = q2' = I0 + q1'. (Before the fix the
// velocity projection split the jump I0 between q1_dot and q2_dot: the
// inductor's current started at -I0/2 and i_R was 5 mA off at t = 0.)
TEST(LumpedAnswers, CurrentStepIntoAnInductiveLoopKeepsTheInductorCurrent)
{
  auto run = lumped_from_text("hamilton_current_step_loops", R"(
subsection Lumped system
  set Electrical coordinates = q1, q2
  set Parameters             = I0 = 0.01; L0 = 2; C0 = 1e-4; R0 = 100; a = R0/(2*L0); wd = sqrt(1/(L0*C0) - a^2)
  set Outputs                = i_R: q2_dot; i_R_error: q2_dot - (I0 - R0*I0/(L0*wd)*exp(-a*t)*sin(wd*t))
  subsection Time functions
    set Names = i
    subsection i
      set Type  = step
      set Value = 0.01
    end
  end
  subsection Components
    set Names = source, inductor, capacitor, resistor
    subsection source
      set Type    = current source
      set Charge  = q2 - q1
      set Current = i
    end
    subsection inductor
      set Type       = inductor
      set Charge     = q1
      set Inductance = L0
    end
    subsection capacitor
      set Type        = capacitor
      set Charge      = q1
      set Capacitance = C0
    end
    subsection resistor
      set Type       = resistor
      set Charge     = q2
      set Resistance = R0
    end
  end
  subsection Simulation
    set Final time         = 0.1
    set Output interval    = 0.001
    set Relative tolerance = 1e-10
    set Absolute tolerance = 1e-12
  end
end
)");
  const auto columns = output_columns(*run->equations);
  const auto column  = [&](const std::string &name) {
    return std::find(columns.begin(), columns.end(), name) - columns.begin();
  };
  const auto rows = rows_of(*run);
  ASSERT_EQ(rows.size(), 101u);
  // t = 0: the inductor's current 0, the resistor's the source's 10 mA
  // (the consistent state is solved to round-off: 1e-14 A of 1e-2 A)
  EXPECT_NEAR(rows.front()[column("q1_dot")], 0., 1e-14);
  EXPECT_NEAR(rows.front()[column("i_R")], 0.01, 1e-14);
  // every row against the closed form: the local error test at rtol 1e-10
  // on currents of 1e-2 A allows about 1e-12 A per step; 1e-9 A (1e-7 of
  // the source current) leaves room for the accumulation over the steps
  double largest = 0;
  for (const auto &r : rows)
    largest = std::max(largest, std::abs(r[column("i_R_error")]));
  EXPECT_LT(largest, 1e-9) << "A, of a 0.01 A source";
}

// A run whose output interval spans more than IDA's steps per call (2000:
// simulate() checks the step size every 2000 steps) succeeds without a word
// from IDAS on stderr: its "mxstep steps taken before reaching tout" is
// simulate()'s own cadence, not an error (it printed one line per 2000
// steps before). Here an undamped oscillator at 1 kHz for 1 s (1000
// periods, some 10^4 steps at rtol 1e-8) with one output interval.
TEST(LumpedAnswers, SuccessfulRunPrintsNoIdasMessage)
{
  auto run = lumped_from_text("hamilton_many_steps", R"(
subsection Lumped system
  set Coordinates        = x
  set Parameters         = m = 1; k = 4*pi^2*1e6
  set Kinetic coenergy   = 0.5*m*x_dot^2
  set Potential energy   = 0.5*k*x^2
  set Initial positions  = x: 1e-3
  subsection Simulation
    set Final time         = 1
    set Output interval    = 1
    set Relative tolerance = 1e-8
    set Absolute tolerance = 1e-10
  end
end
)");
  ::testing::internal::CaptureStderr();
  std::vector<std::vector<double>> rows;
  unsigned long                    steps = 0;
  {
    const CompiledSystem compiled(*run->equations, Evaluation::interpreted);
    steps = simulate(compiled, *run->equations, run->options, [&](const std::vector<double> &r) { rows.push_back(r); },
                     nullptr)
              .steps;
  }
  std::fflush(stderr);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_GT(steps, 2000u) << "the run must take more steps than one call of IDASolve allows";
  EXPECT_EQ(err.find("IDAS ERROR"), std::string::npos) << err.substr(0, 500);
  EXPECT_EQ(err.find("mxstep"), std::string::npos) << err.substr(0, 500);
  ASSERT_EQ(rows.size(), 2u);
}

// A conservative oscillator supplies, sources and dissipates nothing: its
// stored energy change is the audit residual itself, so relative to it the
// residual was 1 ("1 of the largest energy term"). The scale is the energy
// exchanged between the domains: the kinetic energy change reaches
// k x0^2/2 = 0.5 J (x = cos t, T = sin^2(t)/2 and V - V0 = -T; sampled every
// 0.1 s over 10 s the largest is 0.5 sin^2(4.7) = 0.49992 J), and the
// residual, at rtol 1e-10, is some 1e-10 of it: checked below 1e-6.
TEST(LumpedAnswers, ConservativeAuditIsRelativeToTheExchangedEnergy)
{
  auto run = lumped_from_text("hamilton_audit_conservative", R"(
subsection Lumped system
  set Coordinates       = x
  set Parameters        = m = 1; k = 1
  set Kinetic coenergy  = 0.5*m*x_dot^2
  set Potential energy  = 0.5*k*x^2
  set Initial positions = x: 1
  subsection Simulation
    set Final time         = 10
    set Output interval    = 0.1
    set Relative tolerance = 1e-10
    set Absolute tolerance = 1e-12
  end
end
)");
  std::ostringstream out;
  const auto         summary = run->run({}, out); // no row sinks: nothing written
  std::ostringstream printed;
  summary.print(printed);
  const auto &audit = summary.energy_audit;
  EXPECT_EQ(audit.supplied_work_J, 0.);
  EXPECT_EQ(audit.dissipated_energy_J, 0.);
  EXPECT_LT(audit.largest_relative_residual, 1e-6);
  EXPECT_NEAR(audit.reference_J, 0.5 * std::pow(std::sin(4.7), 2), 1e-6); // T or V change at t = 4.7 s
  EXPECT_TRUE(audit.reference_column == "kinetic_energy_change_J" ||
              audit.reference_column == "potential_energy_change_J")
    << audit.reference_column;
  const std::regex line("largest residual [^ ]+ J \\([^ ]+ relative to the largest energy term, "
                        "(kinetic|potential)_energy_change_J = 0\\.49992[0-9]* J in magnitude; nothing is "
                        "supplied\\)");
  EXPECT_TRUE(std::regex_search(printed.str(), line)) << printed.str();
  EXPECT_EQ(printed.str().find(" of the largest energy term"), std::string::npos) << printed.str();
}

// linearization.json names its states, inputs and outputs with their units
// (as state_space.json does): a mass on a spring, x in m (given in 'Units'),
// x_dot in m/s (its rate), the output spring_force in N; the time function
// u has no declared unit ("").
TEST(LumpedAnswers, LinearizationHasUnits)
{
  auto run = lumped_from_text("hamilton_linearization_units", R"(
subsection Lumped system
  set Coordinates        = x
  set Parameters         = m = 1; k = 100
  set Kinetic coenergy   = 0.5*m*x_dot^2
  set Potential energy   = 0.5*k*x^2
  set Generalized forces = x: u
  set Outputs            = spring_force: k*x
  set Units              = x: m; spring_force: N
  subsection Time functions
    set Names = u
    subsection u
      set Type  = constant
      set Value = 1
    end
  end
  subsection Simulation
    set Final time         = 0.1
    set Output interval    = 0.01
    set Linearize at       = initial
  end
end
)");
  std::ostringstream out;
  run->run({}, out);
  const auto &lin = run->linearization;
  ASSERT_TRUE(lin.contains("units")) << lin.dump();
  EXPECT_EQ(lin["states"], nlohmann::json({"x", "x_dot"}));
  EXPECT_EQ(lin["units"]["states"], nlohmann::json({"m", "m/s"}));
  EXPECT_EQ(lin["units"]["inputs"], nlohmann::json({""}));
  EXPECT_EQ(lin["units"]["outputs"], nlohmann::json({"N"}));
}
