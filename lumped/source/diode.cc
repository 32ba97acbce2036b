// Diodes and the full-wave bridge rectifier: nonlinear dissipative elements
// between loop charges (the "standard energy harvesting" interface).
#include <hamilton/lumped/component.h>

#include <deal.II/base/utilities.h>

namespace hamilton::lumped
{
  using namespace dealii;
  using GiNaC::ex;

  namespace
  {
    /** The parameters of the diode law (README, "Rectifier circuits"). */
    struct DiodeLaw
    {
      ex saturation_current, thermal_voltage, series_resistance; ///< I_s, n V_T, R_s

      static void
      declare(ParameterHandler &prm)
      {
        prm.declare_entry("Saturation current", "1e-9", Patterns::Anything(),
                          "I_s (A), positive: the forward law is Shockley's, i = I_s (exp(v/(n V_T)) - 1), "
                          "for i >> I_s. A number or an expression of the parameters.");
        prm.declare_entry("Emission coefficient", "1", Patterns::Anything(), "n (-), positive.");
        prm.declare_entry("Thermal voltage", "0.025852", Patterns::Anything(),
                          "V_T = k T/q (V), positive (0.025852 V at 300 K). A small n V_T and a small I_s "
                          "approach the ideal diode.");
        prm.declare_entry("Series resistance", "0", Patterns::Anything(), "R_s (Ohm), non-negative.");
      }

      DiodeLaw(System &system, Section &s, const std::string &name)
        : saturation_current(component_parameter(system, s, "Saturation current", "Is", name, true))
        , thermal_voltage(component_parameter(system, s, "Emission coefficient", "n", name, true) *
                          component_parameter(system, s, "Thermal voltage", "VT", name, true))
        , series_resistance(component_parameter(system, s, "Series resistance", "Rs", name, false))
      {}

      /**
       * The voltage v(i) of the diode carrying the current i (anode to
       * cathode): with x = i/I_s, s = sqrt(x^2 + 1), p = (x + s)/2 and
       * m = (x - s)/2 (smooth max(x, 0) and min(x, 0)),
       *   v = n V_T [ln(2 (1 + p)/3) + k (m + 1/2)] + R_s i,  k = 2 ln(3/2):
       * v(0) = 0, strictly increasing, smooth; for i >> I_s it tends to
       * Shockley's n V_T ln(i/I_s) + R_s i, for i << -I_s to the leakage
       * resistance k n V_T/I_s. Its power v i is never negative.
       * Evaluated as p = e^u/2, m = -e^(-u)/2 with u = asinh(x): (x - s)/2
       * loses its value to cancellation at x >> 1 (1e-16 x, 3e-9 V at
       * i = 30 uA with I_s = 1e-14 A, more than the tolerances allow).
       */
      ex
      voltage(const ex &i) const
      {
        const ex u = GiNaC::asinh(i / saturation_current);
        const ex k = 2 * GiNaC::log(GiNaC::numeric(3, 2));
        return thermal_voltage * (GiNaC::log(GiNaC::numeric(2, 3) + GiNaC::exp(u) / 3) +
                                  k * (GiNaC::numeric(1, 2) - GiNaC::exp(-u) / 2)) +
               series_resistance * i;
      }
    };

    /** The charge expression of `entry`, which must not be empty. */
    ex
    charge_entry(System &system, Section &s, const std::string &entry, const std::string &example)
    {
      if (Utilities::trim(s.get(entry)).empty())
        s.fail(entry, "is empty: give the charge coordinates through the element, e.g. '" + example + "'.");
      return component_expression(system, s, entry, true);
    }
  } // namespace

  /** A diode on a loop charge: the resistive force v(i) (DiodeLaw), booked as dissipation. */
  class Diode : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Charge", "", Patterns::Anything(),
                        "Expression of the charge coordinates through the diode from anode to cathode (C), "
                        "e.g. 'q1 - q2'.");
      DiodeLaw::declare(prm);
    }

    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const ex       q = charge_entry(system, s, "Charge", "q1 - q2");
      const DiodeLaw law(system, s, name);
      const ex       v = law.voltage(system.time_derivative(q));
      system.add_resistive_force(v, q);
      system.diode_currents.push_back(system.time_derivative(q) / law.saturation_current);
      system.outputs.emplace_back(name + "_V", v);
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, Diode, "diode",
                           "a diode on a loop charge: Shockley's law with leakage and series resistance, a "
                           "nonlinear dissipative element.")

  /**
   * A full-wave bridge of four equal diodes between an AC loop (terminals A,
   * B; its charge q_in leaves A into the bridge) and a DC output (P, N): D1
   * A->P, D2 B->P, D3 N->A, D4 N->B. Loop charges: q_in, the output charge
   * q_out (into P, back from N through the DC circuit) and an internal one a;
   * the diodes carry q_in + a (D1), q_out - q_in - a (D2), a (D3),
   * q_out - a (D4), which satisfies Kirchhoff's current law at the four nodes.
   */
  class BridgeRectifier : public Component
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Input charge", "", Patterns::Anything(),
                        "Expression of the charge coordinates of the AC loop through the bridge (C), e.g. "
                        "an electrode charge 'beam_top'.");
      prm.declare_entry("Output charge", "", Patterns::Anything(),
                        "Name of the coordinate of the charge delivered to the positive DC terminal (C), "
                        "created if new; empty: '<name>_out'. Close the DC loop with a capacitor and a load "
                        "on it, e.g. capacitor 'Charge = rect_out - load_q', resistor 'Charge = load_q'.");
      DiodeLaw::declare(prm);
    }

    void
    add_to(System &system, Section &s, const std::string &name) const override
    {
      const ex    in       = charge_entry(system, s, "Input charge", "beam_top");
      std::string out_name = Utilities::trim(s.get("Output charge"));
      if (out_name.empty())
        out_name = name + "_out";
      const ex       out = system.coordinate(out_name, true, s.path(), "Output charge");
      const ex       a   = system.coordinate(name + "_a", true, s.path(), "Output charge");
      const DiodeLaw law(system, s, name);
      for (const ex &q : {in + a, out - in - a, a, out - a})
        {
          system.add_resistive_force(law.voltage(system.time_derivative(q)), q);
          system.diode_currents.push_back(system.time_derivative(q) / law.saturation_current);
        }
    }
  };
  HAMILTON_REGISTER_PLUGIN(Component, BridgeRectifier, "bridge rectifier",
                           "a full-wave bridge of four diodes from an AC loop charge to a DC output charge.")
} // namespace hamilton::lumped
