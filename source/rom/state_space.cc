#include <hamilton/base/input.h>
#include <hamilton/rom/state_space.h>

#include <deal.II/base/utilities.h>

#include <algorithm>

namespace hamilton
{
  namespace
  {
    std::vector<std::vector<double>>
    rows(const Eigen::MatrixXd &A)
    {
      std::vector<std::vector<double>> result(A.rows(), std::vector<double>(A.cols()));
      for (Eigen::Index i = 0; i < A.rows(); ++i)
        for (Eigen::Index j = 0; j < A.cols(); ++j)
          result[i][j] = A(i, j);
      return result;
    }

    std::string
    names(const std::vector<std::string> &list)
    {
      std::string result;
      for (const auto &n : list)
        result += (result.empty() ? "'" : ", '") + n + "'";
      return result.empty() ? "none" : result;
    }
  } // namespace

  Eigen::MatrixXcd
  StateSpace::transfer(double omega) const
  {
    Eigen::MatrixXcd   S = -A.cast<std::complex<double>>();
    S.diagonal().array() += std::complex<double>(0., omega);
    return C.cast<std::complex<double>>() * S.partialPivLu().solve(B.cast<std::complex<double>>()) +
           D.cast<std::complex<double>>();
  }

  nlohmann::json
  StateSpace::to_json() const
  {
    return {{"format", "hamilton-state-space"},
            {"version", 1},
            {"description", "x' = A x + B u, y = C x + D u (SI units; displacements and "
                            "velocities relative to the base; load currents flow into "
                            "the electrode's load)"},
            {"states", states},
            {"inputs", inputs},
            {"outputs", outputs},
            {"A", rows(A)},
            {"B", rows(B)},
            {"C", rows(C)},
            {"D", rows(D)}};
  }

  std::vector<Port>
  parse_ports(const std::string              &text,
              const std::string              &section,
              const std::string              &entry,
              const std::vector<std::string> &allowed_kinds)
  {
    std::vector<Port> ports;
    for (const auto &item : split_list(text))
      {
        const auto colon = item.find(':');
        Port       port{dealii::Utilities::trim(item.substr(0, colon)),
                  colon == std::string::npos ? "" : dealii::Utilities::trim(item.substr(colon + 1))};
        if (std::find(allowed_kinds.begin(), allowed_kinds.end(), port.kind) == allowed_kinds.end())
          input_error(section, entry, "'" + item + "'",
                      "'" + port.kind + "' is not a port kind here; allowed: " + names(allowed_kinds) +
                        ", each followed by ': name'" +
                        (allowed_kinds.front() == "base acceleration" ? " (except base acceleration)." : "."));
        if ((port.kind == "base acceleration") != port.target.empty())
          input_error(section, entry, "'" + item + "'",
                      port.target.empty() ? "'" + port.kind + "' needs a target: '" + port.kind + ": name'." :
                                            "'base acceleration' takes no target.");
        ports.push_back(port);
      }
    if (ports.empty())
      input_error(section, entry, "''", "give at least one port, e.g. 'base acceleration'.");
    return ports;
  }

  StateSpace
  build_state_space(const ReducedModel           &rom,
                    const std::vector<Electrode> &circuits,
                    const std::vector<Port>      &inputs,
                    const std::vector<Port>      &outputs,
                    const std::string            &section)
  {
    const unsigned int n = rom.size();
    StateSpace         ss;
    for (unsigned int r = 0; r < n; ++r)
      ss.states.push_back("q" + std::to_string(r + 1) + " (kg^1/2 m)");
    for (unsigned int r = 0; r < n; ++r)
      ss.states.push_back("dq" + std::to_string(r + 1) + "/dt (kg^1/2 m/s)");

    // electrode states: voltage unless shorted or driven; RL current
    const unsigned int  n_e = rom.electrodes.size();
    std::vector<int>    voltage_state(n_e, -1), current_state(n_e, -1);
    std::vector<int>    voltage_input(n_e, -1);
    const auto          electrode_index = [&](const Port &p, const std::string &entry) {
      for (unsigned int e = 0; e < n_e; ++e)
        if (rom.electrodes[e].name == p.target)
          return e;
      std::vector<std::string> known;
      for (const auto &e : rom.electrodes)
        known.push_back(e.name);
      input_error(section, entry, "'" + p.name() + "'",
                  "the model has no electrode '" + p.target + "'; electrodes: " + names(known) + ".");
    };
    const auto point_index = [&](const Port &p, const std::string &entry) {
      for (unsigned int k = 0; k < rom.outputs.size(); ++k)
        if (rom.outputs[k].name == p.target)
          return k;
      std::vector<std::string> known;
      for (const auto &o : rom.outputs)
        known.push_back(o.name);
      input_error(section, entry, "'" + p.name() + "'",
                  "there is no output point '" + p.target + "'; points: " + names(known) +
                    ". Add it to 'Output points'.");
    };
    for (unsigned int e = 0; e < n_e; ++e)
      {
        const auto c = circuits[e].circuit;
        if (c != ElectrodeCircuit::short_circuit && c != ElectrodeCircuit::voltage)
          {
            voltage_state[e] = ss.states.size();
            ss.states.push_back("V_" + rom.electrodes[e].name + " (V)");
          }
        if (c == ElectrodeCircuit::series_rl || c == ElectrodeCircuit::parallel_rl)
          {
            current_state[e] = ss.states.size();
            ss.states.push_back("i_L_" + rom.electrodes[e].name + " (A)");
          }
      }

    const unsigned int n_x = ss.states.size(), n_u = inputs.size(), n_y = outputs.size();
    ss.A = Eigen::MatrixXd::Zero(n_x, n_x);
    ss.B = Eigen::MatrixXd::Zero(n_x, n_u);
    ss.C = Eigen::MatrixXd::Zero(n_y, n_x);
    ss.D = Eigen::MatrixXd::Zero(n_y, n_u);

    // mechanics: q'' + 2 zeta omega q' + omega^2 q = sum_e chi_e V_e + f
    for (unsigned int r = 0; r < n; ++r)
      {
        ss.A(r, n + r)     = 1;
        ss.A(n + r, r)     = -rom.omega[r] * rom.omega[r];
        ss.A(n + r, n + r) = -2 * rom.damping_ratios[r] * rom.omega[r];
        for (unsigned int e = 0; e < n_e; ++e)
          if (voltage_state[e] >= 0)
            ss.A(n + r, voltage_state[e]) = rom.electrodes[e].coupling[r];
      }
    // electrodes: C V' = -chi^T q' - i_load + i_in
    for (unsigned int e = 0; e < n_e; ++e)
      {
        const int v = voltage_state[e], i = current_state[e];
        if (v < 0)
          continue;
        const auto  &el = rom.electrodes[e];
        const double C = el.capacitance, R = circuits[e].resistance, L = circuits[e].inductance;
        for (unsigned int r = 0; r < n; ++r)
          ss.A(v, n + r) = -el.coupling[r] / C;
        switch (circuits[e].circuit)
          {
            case ElectrodeCircuit::resistor:
              ss.A(v, v) = -1 / (R * C);
              break;
            case ElectrodeCircuit::series_rl: // L i' + R i = V
              ss.A(v, i) = -1 / C;
              ss.A(i, v) = 1 / L;
              ss.A(i, i) = -R / L;
              break;
            case ElectrodeCircuit::parallel_rl: // L i' = V, i_load = V/R + i
              ss.A(v, v) = -1 / (R * C);
              ss.A(v, i) = -1 / C;
              ss.A(i, v) = 1 / L;
              break;
            default:
              break;
          }
      }

    const std::string in_entry = "State-space inputs", out_entry = "State-space outputs";
    for (unsigned int u = 0; u < n_u; ++u)
      {
        const Port &p = inputs[u];
        if (p.kind == "base acceleration")
          {
            ss.inputs.push_back("base acceleration (m/s^2)");
            for (unsigned int r = 0; r < n; ++r)
              ss.B(n + r, u) = -rom.participation_translation[r];
          }
        else if (p.kind == "force")
          {
            const auto &o = rom.outputs[point_index(p, in_entry)];
            ss.inputs.push_back("force at " + p.target + " (N)");
            for (unsigned int r = 0; r < n; ++r)
              ss.B(n + r, u) = o.displacement[r];
          }
        else
          {
            const unsigned int e = electrode_index(p, in_entry);
            if (p.kind == "voltage")
              {
                if (circuits[e].circuit != ElectrodeCircuit::voltage)
                  input_error(section, in_entry, "'" + p.name() + "'",
                              "electrode '" + p.target + "' is not driven: set its 'Circuit = voltage' "
                              "in 'Beam/Electrodes', or use 'current: " + p.target + "'.");
                voltage_input[e] = u;
                ss.inputs.push_back("V_" + p.target + " (V)");
                for (unsigned int r = 0; r < n; ++r)
                  ss.B(n + r, u) = rom.electrodes[e].coupling[r];
              }
            else // current injected into the electrode
              {
                if (voltage_state[e] < 0)
                  input_error(section, in_entry, "'" + p.name() + "'",
                              "a current cannot be injected into electrode '" + p.target +
                                "', which is short-circuited or voltage-driven; give it an "
                                "open circuit, a resistor or a shunt.");
                ss.inputs.push_back("i_" + p.target + " (A)");
                ss.B(voltage_state[e], u) = 1 / rom.electrodes[e].capacitance;
              }
          }
      }
    for (unsigned int e = 0; e < n_e; ++e)
      if (circuits[e].circuit == ElectrodeCircuit::voltage && voltage_input[e] < 0)
        input_error(section, in_entry, "(no 'voltage: " + rom.electrodes[e].name + "')",
                    "electrode '" + rom.electrodes[e].name + "' has 'Circuit = voltage', so its "
                    "voltage is an input: add 'voltage: " + rom.electrodes[e].name + "'.");

    for (unsigned int y = 0; y < n_y; ++y)
      {
        const Port &p = outputs[y];
        if (p.kind == "displacement" || p.kind == "velocity" || p.kind == "slope")
          {
            const auto &o = rom.outputs[point_index(p, out_entry)];
            const bool  rate = p.kind == "velocity";
            ss.outputs.push_back(p.kind + " at " + p.target +
                                 (p.kind == "displacement" ? " (m)" : rate ? " (m/s)" : " (rad)"));
            for (unsigned int r = 0; r < n; ++r)
              ss.C(y, rate ? n + r : r) = p.kind == "slope" ? o.slope[r] : o.displacement[r];
            continue;
          }
        const unsigned int e  = electrode_index(p, out_entry);
        const auto        &el = rom.electrodes[e];
        const int          v = voltage_state[e], i = current_state[e], u = voltage_input[e];
        const auto         c = circuits[e].circuit;
        if (p.kind == "voltage" || p.kind == "charge")
          {
            const double factor = p.kind == "voltage" ? 1. : el.capacitance;
            ss.outputs.push_back(p.kind == "voltage" ? "V_" + p.target + " (V)" : "Q_" + p.target + " (C)");
            if (v >= 0)
              ss.C(y, v) = factor;
            if (u >= 0)
              ss.D(y, u) = factor;
            if (p.kind == "charge")
              for (unsigned int r = 0; r < n; ++r)
                ss.C(y, r) = el.coupling[r];
          }
        else // current into the load
          {
            if (c == ElectrodeCircuit::voltage || c == ElectrodeCircuit::open_circuit)
              input_error(section, out_entry, "'" + p.name() + "'",
                          c == ElectrodeCircuit::voltage ?
                            "the current of a voltage-driven electrode contains i omega C V, which a "
                            "proper state space cannot output; use 'charge: " + p.target + "' (I = dQ/dt)." :
                            "electrode '" + p.target + "' is open: no current flows.");
            ss.outputs.push_back("i_" + p.target + " (A)");
            if (c == ElectrodeCircuit::short_circuit) // i = -dQ/dt = -chi^T q'
              for (unsigned int r = 0; r < n; ++r)
                ss.C(y, n + r) = -el.coupling[r];
            if (c == ElectrodeCircuit::resistor || c == ElectrodeCircuit::parallel_rl)
              ss.C(y, v) = 1 / circuits[e].resistance;
            if (i >= 0)
              ss.C(y, i) = 1;
          }
      }
    return ss;
  }
} // namespace hamilton
