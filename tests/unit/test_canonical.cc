// Canonical form of derived expressions: the same text, C source and
// numbers whatever order GiNaC keeps terms in (GiNaC sorts the operands of
// sums and products by hash values that depend on symbol serial numbers and
// on the address its library is loaded at).
#include <hamilton/lumped/canonical.h>
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/lumped/simulation.h>
#include <hamilton/run.h>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace hamilton;
using namespace hamilton::lumped;
using GiNaC::ex;
using GiNaC::symbol;

namespace
{
  /**
   * The crank-slider kinetic coenergy of prm/lumped/crank_slider_pendulum.prm
   * and derivatives of it (the kind of expressions the residual holds), with
   * the symbols created in the order `order` (a permutation of 0..4), so that
   * GiNaC's serial numbers, hashes and operand orders differ between calls.
   */
  std::vector<ex>
  crank_slider_expressions(const std::vector<int> &order, GiNaC::lst &arguments)
  {
    const char       *names[] = {"alpha", "theta", "alpha_dot", "theta_dot", "d"};
    std::vector<symbol> s(5);
    for (const int k : order)
      s[k] = symbol(names[k]);
    const ex &alpha = s[0], &theta = s[1], &ad = s[2], &td = s[3], &d = s[4];
    const ex  ds = exact(0.2), lp = exact(0.3), mp = exact(0.2);
    const ex  slider_rate =
      d * ad * (sin(alpha) + d * sin(alpha) * cos(alpha) / (ds * sqrt(1 - d * d / (ds * ds) * pow(sin(alpha), 2))));
    const ex T = mp / 2 * (pow(lp * td * cos(theta) - slider_rate, 2) + pow(lp * td * sin(theta), 2)) +
                 exact(0.05) / 2 * pow(slider_rate, 2);
    std::vector<ex> result{T};
    for (const auto &x : {alpha, theta, ad, td})
      {
        result.push_back(T.diff(GiNaC::ex_to<symbol>(x)));
        for (const auto &y : {alpha, ad})
          result.push_back(T.diff(GiNaC::ex_to<symbol>(x)).diff(GiNaC::ex_to<symbol>(y)));
      }
    arguments = GiNaC::lst{alpha, theta, ad, td, d};
    return result;
  }
} // namespace

TEST(Canonical, SameSourceWhateverTheTermOrder)
{
  // every permutation of the creation order gives the same C source, text
  // and LaTeX (the operand orders inside GiNaC differ between them: checked)
  std::vector<int> order{0, 1, 2, 3, 4};
  std::string      reference_c, reference_text, reference_latex, first_ginac;
  bool             ginac_order_differed = false;
  do
    {
      GiNaC::lst      arguments;
      const auto      expressions = crank_slider_expressions(order, arguments);
      const std::string c         = CanonicalLists({expressions}, arguments).c_source();
      std::string       text, latex;
      for (const auto &e : expressions)
        {
          text += canonical_string(e) + "\n";
          latex += canonical_string(e, CanonicalForm::Style::latex) + "\n";
        }
      std::ostringstream ginac;
      ginac << expressions[3];
      if (reference_c.empty())
        {
          reference_c     = c;
          reference_text  = text;
          reference_latex = latex;
          first_ginac     = ginac.str();
        }
      ginac_order_differed = ginac_order_differed || ginac.str() != first_ginac;
      ASSERT_EQ(c, reference_c);
      ASSERT_EQ(text, reference_text);
      ASSERT_EQ(latex, reference_latex);
    }
  while (std::next_permutation(order.begin(), order.end()));
  EXPECT_TRUE(ginac_order_differed) << "GiNaC printed every permutation alike: the test shows nothing";
}

TEST(Canonical, EvaluationAgreesWithGiNaC)
{
  // the canonical program against GiNaC's own evaluation (evalf of the
  // substituted expression, 17 digits): a second, independent evaluator
  GiNaC::lst        arguments;
  const auto        expressions = crank_slider_expressions({0, 1, 2, 3, 4}, arguments);
  const CanonicalLists lists({expressions}, arguments);
  std::mt19937      random(1);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (unsigned int trial = 0; trial < 20; ++trial)
    {
      std::vector<double> x(5);
      GiNaC::exmap        at;
      for (unsigned int k = 0; k < 5; ++k)
        {
          x[k]                  = uniform(random);
          at[arguments.op(k)] = exact(x[k]);
        }
      x[4] = 0.05 * (1 + x[4]); // d < ds: the square root stays real
      at[arguments.op(4)] = exact(x[4]);
      std::vector<double> values(expressions.size());
      lists.evaluate(0, x.data(), values.data());
      for (unsigned int i = 0; i < expressions.size(); ++i)
        {
          GiNaC::Digits         = 30;
          const double expected = GiNaC::ex_to<GiNaC::numeric>(GiNaC::evalf(expressions[i].subs(at))).to_double();
          EXPECT_NEAR(values[i], expected, 1e-13 * (1 + std::abs(expected))) << "expression " << i;
        }
    }
}

TEST(Canonical, ExactNumbers)
{
  // a double is a dyadic rational: 0.1 = 3602879701896397 / 2^55
  EXPECT_TRUE((exact(0.1) - GiNaC::numeric(3602879701896397LL) / GiNaC::pow(2, 55)).is_zero());
  // sums of exact numbers are exact: 0.1 + 0.2 - 0.3 is not 0 (as in doubles)
  EXPECT_FALSE((exact(0.1) + exact(0.2) - exact(0.3)).is_zero());
  EXPECT_EQ(*numeric_value(exact(0.25) * GiNaC::sin(exact(0.5))), 0.25 * std::sin(0.5));
  EXPECT_FALSE(numeric_value(symbol("x") + 1).has_value());
  EXPECT_THROW(exact(std::nan("")), InputError);
  // printed numbers: a number typed as a decimal prints as that decimal
  EXPECT_EQ(canonical_string(exact(9.81) * symbol("g")), "9.81*g");
  EXPECT_EQ(canonical_string(GiNaC::numeric(1, 2) * pow(symbol("x"), 2) - symbol("y")), "1/2*x^2 - y");
  EXPECT_EQ(canonical_string(GiNaC::matrix(0, 0)), "(none)");
}

TEST(Canonical, CompiledEqualsInterpretedBitForBit)
{
  // the C source and the interpreter perform the same operations in the
  // same order: residuals, Jacobians and outputs agree exactly
  for (const std::string file : {"prm/lumped/crank_slider_pendulum.prm", "prm/lumped/rrr_parallel_robot.prm",
                                 "prm/lumped/movable_plate_capacitor.prm"})
    {
      dealii::ParameterHandler prm;
      read_parameters(prm, std::string(HAMILTON_SOURCE_DIR) + "/" + file, {});
      Section   section(prm);
      LumpedRun run;
      run.parse_parameters(section, std::string(HAMILTON_SOURCE_DIR) + "/prm/lumped");
      const CompiledSystem compiled(*run.equations, Evaluation::compiled);
      const CompiledSystem interpreted(*run.equations, Evaluation::interpreted);
      ASSERT_TRUE(compiled.is_compiled());
      ASSERT_FALSE(interpreted.is_compiled());
      const unsigned int N = compiled.size();
      std::mt19937       random(2);
      std::uniform_real_distribution<double> uniform(-0.5, 0.5);
      for (unsigned int trial = 0; trial < 5; ++trial)
        {
          std::vector<double> y(N), y_dot(N), r1(N), r2(N), j1(N * N), j2(N * N), k1(N * N), k2(N * N);
          for (auto &v : y)
            v = uniform(random);
          for (auto &v : y_dot)
            v = uniform(random);
          compiled.residual(0.1, y.data(), y_dot.data(), r1.data());
          interpreted.residual(0.1, y.data(), y_dot.data(), r2.data());
          compiled.jacobian(0.1, y.data(), y_dot.data(), j1.data(), k1.data());
          interpreted.jacobian(0.1, y.data(), y_dot.data(), j2.data(), k2.data());
          for (unsigned int i = 0; i < N; ++i)
            if (std::isfinite(r1[i]))
              {
                EXPECT_EQ(r1[i], r2[i]) << file << ": residual " << i;
              }
          for (unsigned int i = 0; i < N * N; ++i)
            if (std::isfinite(j1[i]) && std::isfinite(k1[i]))
              {
                EXPECT_EQ(j1[i], j2[i]) << file << ": dF/dy entry " << i;
                EXPECT_EQ(k1[i], k2[i]) << file << ": dF/dy' entry " << i;
              }
        }
    }
}
