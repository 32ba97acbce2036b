#!/usr/bin/env python3
"""SymPy + SciPy peer of Hamilton's lumped examples, run by benchmark_lumped_systems.

usage: lumped_peer.py SYSTEM --rtol R --atol A --final-time T
                      [--output-interval DT] [--csv FILE] [--method LSODA|Radau|BDF|DOP853]
       lumped_peer.py --list

SYSTEM is the name of an example in prm/lumped (scotch_yoke_dc_motor, ...). Each
system below carries the parameter values of its .prm file, but its energies are
written here from the geometry (positions of the bodies and of the rotors, the
motor's coupling coenergy), not copied from Hamilton's closed forms, so that the
final states check one program against the other. Derivation: SymPy, Lagrange's
equations with Rayleigh dissipation,

    d/dt dL/dq' - dL/dq + dD/dq' = Q + Phi_q^T lambda,   L = T* + W_m* - V - W_e,

written as a residual that is linear in the unknowns z = (velocities of the
coordinates without inertia, accelerations of the others, multipliers), K z = F;
lambdify (numpy, common subexpressions) gives K, F and the residual's derivatives
for an analytic Jacobian. Integration: scipy.integrate.solve_ivp at the given
rtol/atol, states sampled every DT and written to a CSV as Hamilton writes
lumped.csv. Default method LSODA (stiff/non-stiff switching, analytic Jacobian):
measured on this machine it needs 10-18 times fewer right-hand sides than Radau
at rtol 1e-11 and 4-18 times less time, and Radau does not finish the
movable-plate capacitor at atol 1e-20 within 10 minutes (its Newton iteration
cannot meet the tolerance on the velocity decaying to 1e-16 m/s). DOP853
(explicit, no Jacobian) at rtol 1e-13 serves as the reference solution.

Constraints: the slider-crank is integrated in minimal coordinates (the crank
angle; rod angle and slider position are closed-form functions of it). The 3RRR
robot, which has no closed-form minimal coordinates, is integrated in its six
redundant coordinates with the constraints differentiated twice (index 1) and
Baumgarte stabilization Phi'' + 2 a Phi' + a^2 Phi = 0, a = 10 1/s; the largest
|Phi| at the end is printed.

Prints one JSON object on stdout: the times of each phase (s), the evaluation
counts and the final state (every coordinate and its '_dot', by Hamilton's names).
"""
import time

_start = time.perf_counter()
import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402
import sympy as sp  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

IMPORT_SECONDS = time.perf_counter() - _start

EPSILON_0 = 8.8541878128e-12  # F/m, Hamilton's default permittivity of the movable-plate capacitor
BAUMGARTE = 10.0  # 1/s


class Model:
    """Coordinates, energies, dissipation, forces, inputs and constraints of one system."""

    def __init__(self, names, initial=None):
        self.names = list(names)
        self.q = sp.symbols(" ".join(self.names), real=True, seq=True)
        self.v = sp.symbols(" ".join(n + "_dot" for n in self.names), real=True, seq=True)
        self.initial = [0.0] * len(self.names)
        for name, value in (initial or {}).items():
            self.initial[self.names.index(name)] = value
        self.lagrangian = sp.Integer(0)
        self.dissipation = sp.Integer(0)
        self.forces = [sp.Integer(0)] * len(self.names)
        self.inputs = []  # (symbol, function of t)
        self.constraints = []
        self.dependent = {}  # name -> expression of q (minimal coordinates)

    def __getitem__(self, name):
        return self.q[self.names.index(name)]

    def rate(self, name):
        return self.v[self.names.index(name)]

    def dt(self, expression):
        """Time derivative of an expression of the coordinates."""
        return sum(sp.diff(expression, qi) * vi for qi, vi in zip(self.q, self.v))

    def input(self, name, function):
        symbol = sp.Symbol(name, real=True)
        self.inputs.append((symbol, function))
        return symbol

    def force(self, name, value):
        k = self.names.index(name)
        self.forces[k] = self.forces[k] + value

    def body(self, mass, x, y, inertia=0, angle=0):
        """Kinetic energy of a rigid body in the plane: centre of mass (x, y), rotation angle."""
        self.lagrangian += mass * (self.dt(x) ** 2 + self.dt(y) ** 2) / 2 + inertia * self.dt(angle) ** 2 / 2

    def dc_motor(self, charge, shaft, ratio, R, L, ke, J, b, voltage, kt=None):
        """Armature charge, rotor angle ratio*shaft: W_m* = L i^2/2 + ke i theta_m, the
        rotor's kinetic energy, armature and rotor losses; a torque constant kt != ke
        adds the torque (kt - ke) i on the rotor (virtual work on every coordinate)."""
        i = self.rate(charge)
        theta = ratio * shaft
        self.lagrangian += L * i**2 / 2 + ke * i * theta + J * self.dt(theta) ** 2 / 2
        self.dissipation += R * i**2 / 2 + b * self.dt(theta) ** 2 / 2
        self.force(charge, voltage)
        if kt is not None and kt != ke:
            for name, qk in zip(self.names, self.q):
                self.force(name, (kt - ke) * i * sp.diff(theta, qk))


def step(value, start=0.0):
    return lambda t: value if t >= start else 0.0


def sine(amplitude, frequency, phase):
    return lambda t: amplitude * math.sin(2 * math.pi * frequency * t + phase)


def scotch_yoke_dc_motor():
    m = Model(["alpha", "q"])
    jm, mc, d, l, r, ke, bm = 1.0e-4, 0.5, 0.02, 1e-3, 1.2, 1.1e-2, 1.0e-6
    alpha, i = m["alpha"], m.rate("q")
    m.body(0, 0, 0, jm, alpha)  # disk
    m.body(mc, d * sp.cos(alpha), 0)  # cart driven by the pin
    m.lagrangian += l * i**2 / 2 + ke * i * alpha
    m.dissipation += bm * m.rate("alpha") ** 2 / 2 + r * i**2 / 2
    m.force("q", m.input("v", step(12)))
    return m


def crank_slider_pendulum():
    m = Model(["alpha", "theta", "q"], {"theta": 0.1})
    jm, mp, d, ds, lp, g = 1.0e-4, 0.2, 0.05, 0.2, 0.3, 9.81
    l, r, ke, bm, bc, bp = 1e-3, 1.2, 1.1e-2, 1.0e-6, 0.05, 0.01
    alpha, theta, i = m["alpha"], m["theta"], m.rate("q")
    slider = d * sp.cos(alpha) + sp.sqrt(ds**2 - (d * sp.sin(alpha)) ** 2)
    m.body(0, 0, 0, jm, alpha)
    m.body(mp, slider + lp * sp.sin(theta), -lp * sp.cos(theta))  # bob on the slider
    m.lagrangian -= mp * g * (-lp * sp.cos(theta))
    m.lagrangian += l * i**2 / 2 + ke * i * alpha
    m.dissipation += bc * m.dt(slider) ** 2 / 2 + bm * m.rate("alpha") ** 2 / 2
    m.dissipation += bp * lp**2 * m.rate("theta") ** 2 / 2 + r * i**2 / 2
    m.force("q", m.input("v", step(6)))
    return m


def overhead_crane():
    m = Model(["x", "theta", "q"])
    rw, mt, mp, l, g, d1 = 0.025, 2.0, 0.85, 0.7, 9.81, 2.0
    x, theta = m["x"], m["theta"]
    m.body(mt, x, 0)
    m.body(mp, x + l * sp.sin(theta), -l * sp.cos(theta))
    m.lagrangian -= mp * g * (-l * sp.cos(theta))
    m.dissipation += d1 * m.rate("x") ** 2 / 2
    m.dc_motor("q", x / rw, ratio=10, R=1, L=0.001, ke=0.1, kt=1, J=0.001, b=0.1, voltage=m.input("u", step(10)))
    return m


def slider_crank_dae():
    # minimal coordinates: crank angle q1 (and the motor charge q); the rod angle
    # q2 (measured downwards) and the slider position q3 close the loop
    m = Model(["q1", "q"])
    m1, m2, m3, l1, l2, a1, a2, g = 1, 2, 1, 0.2, 0.5, 0.1, 0.25, 9.81
    I1, I2 = 1 * 0.2**2 / 12, 2 * 0.5**2 / 12
    q1 = m["q1"]
    q2 = sp.asin(l1 * sp.sin(q1) / l2)
    q3 = l1 * sp.cos(q1) + l2 * sp.cos(q2)
    ax, ay = l1 * sp.cos(q1), l1 * sp.sin(q1)
    m.body(m1, a1 * sp.cos(q1), a1 * sp.sin(q1), I1, q1)  # crank
    rod_x, rod_y = ax + a2 * sp.cos(q2), ay - a2 * sp.sin(q2)
    m.body(m2, rod_x, rod_y, I2, q2)  # rod
    m.body(m3, q3, 0)  # slider
    m.lagrangian -= g * (m1 * a1 * sp.sin(q1) + m2 * rod_y)
    m.dc_motor("q", q1, ratio=10, R=3, L=0.001, ke=0.1, kt=3, J=0.001, b=0.1, voltage=m.input("u", step(20)))
    m.dependent = {"q2": q2, "q3": q3}
    return m


def two_link_arm():
    m = Model(["q1", "q2", "qa", "qb"], {"q1": -math.pi / 2})
    m1, m2, l1, a1, a2, g, d = 2, 1, 0.5, 0.25, 0.2, 9.81, 0.05
    I1, I2 = 2 * 0.5**2 / 12, 1 * 0.4**2 / 12
    q1, q2 = m["q1"], m["q2"]
    c1 = (a1 * sp.cos(q1), a1 * sp.sin(q1))
    c2 = (l1 * sp.cos(q1) + a2 * sp.cos(q1 + q2), l1 * sp.sin(q1) + a2 * sp.sin(q1 + q2))
    m.body(m1, *c1, I1, q1)
    m.body(m2, *c2, I2, q1 + q2)
    m.lagrangian -= g * (m1 * c1[1] + m2 * c2[1])
    m.dissipation += d * m.rate("q1") ** 2 / 2 + d * m.rate("q2") ** 2 / 2
    motor = dict(ratio=50, R=1, L=0.001, ke=0.05, J=1e-5, b=0)
    m.dc_motor("qa", q1, voltage=m.input("u1", step(12)), **motor)
    m.dc_motor("qb", q2, voltage=m.input("u2", step(6)), **motor)
    return m


def movable_plate_capacitor():
    m = Model(["x", "q"])
    g0, mass, c, k, area, R = 1e-5, 1e-6, 1e-3, 10, 1e-4, 1e6
    x, q = m["x"], m["q"]
    m.body(mass, x, 0)
    m.lagrangian -= k * x**2 / 2 + q**2 * (g0 - x) / (2 * EPSILON_0 * area)
    m.dissipation += c * m.rate("x") ** 2 / 2 + R * m.rate("q") ** 2 / 2
    m.force("q", m.input("v", step(1)))
    return m


def rrr_parallel_robot():
    theta0 = {"theta1": 5.461620619779392, "theta2": 1.2728304149930025, "theta3": 3.367225517386198}
    m = Model(["theta1", "theta2", "theta3", "xC", "yC", "phi", "i1", "i2", "i3"], theta0)
    L0, L1, l1, l2, m1, m2, m3, I1, I3 = 0.6, 0.2, 0.25, 0.3, 0.5, 0.3, 1, 0.003, 0.005
    r0, b = L0 / sp.sqrt(3), L1 / sp.sqrt(3)
    xC, yC, phi = m["xC"], m["yC"], m["phi"]
    m.body(m3, xC, yC, I3, phi)  # platform
    phases = [0, 2.0944, 4.18879]
    for k, angle in enumerate([7 * sp.pi / 6, -sp.pi / 6, sp.pi / 2]):
        theta = m["theta%d" % (k + 1)]
        ox, oy = r0 * sp.cos(angle), r0 * sp.sin(angle)
        ax, ay = ox + l1 * sp.cos(theta), oy + l1 * sp.sin(theta)
        bx, by = xC + b * sp.cos(phi + angle), yC + b * sp.sin(phi + angle)
        m.body(m1, (ox + ax) / 2, (oy + ay) / 2, I1, theta)  # crank, centre at mid-length
        m.body(m2 / 2, ax, ay)  # rod mass lumped at its two ends
        m.body(m2 / 2, bx, by)
        m.constraints.append((bx - ax) ** 2 + (by - ay) ** 2 - l2**2)
        u = m.input("u%d" % (k + 1), sine(3, 1, phases[k]))
        m.dc_motor("i%d" % (k + 1), theta, ratio=20, R=2, L=0.002, ke=0.05, J=2e-5, b=1e-5, voltage=u)
    return m


SYSTEMS = {
    f.__name__: f
    for f in [
        scotch_yoke_dc_motor,
        crank_slider_pendulum,
        overhead_crane,
        slider_crank_dae,
        two_link_arm,
        movable_plate_capacitor,
        rrr_parallel_robot,
    ]
}


class Derived:
    """Lagrange's equations of a Model as K(q, v_S, t) z = F(q, v_S, t) with lambdified K, F and
    the residual's derivatives; state y = (q, v_S), S: the coordinates with inertia."""

    def __init__(self, m):
        n = len(m.q)
        L, D = sp.expand(m.lagrangian), m.dissipation
        p = [sp.diff(L, vi) for vi in m.v]
        mass = sp.Matrix(n, n, lambda i, j: sp.diff(p[i], m.v[j]))
        self.first = [i for i in range(n) if all(mass[i, j] == 0 for j in range(n))]
        self.second = [i for i in range(n) if i not in self.first]
        acc = {i: sp.Symbol(m.names[i] + "_ddot", real=True) for i in self.second}
        lam = [sp.Symbol("lambda_%d" % (k + 1), real=True) for k in range(len(m.constraints))]
        phi = sp.Matrix(m.constraints)
        jac = phi.jacobian(sp.Matrix(m.q)) if lam else sp.zeros(0, n)
        residual = []
        for i in range(n):
            r = sum(sp.diff(p[i], qj) * vj for qj, vj in zip(m.q, m.v))
            r += sum(mass[i, j] * acc[j] for j in self.second)
            r += -sp.diff(L, m.q[i]) + sp.diff(D, m.v[i]) - m.forces[i]
            r -= sum(jac[k, i] * lam[k] for k in range(len(lam)))
            residual.append(r)
        for k in range(len(lam)):  # Phi'' + 2 a Phi' + a^2 Phi = 0
            rate = sum(jac[k, j] * m.v[j] for j in range(n))
            second = sum(jac[k, j] * acc[j] for j in self.second)
            second += sum(sp.diff(rate, qj) * vj for qj, vj in zip(m.q, m.v))
            residual.append(second + 2 * BAUMGARTE * rate + BAUMGARTE**2 * phi[k])
        self.z = [m.v[i] for i in self.first] + [acc[i] for i in self.second] + lam
        K, F = sp.linear_eq_to_matrix(residual, self.z)
        state = list(m.q) + [m.v[i] for i in self.second]
        inputs = [s for s, _ in m.inputs]
        R = sp.Matrix(residual)
        dR = R.jacobian(sp.Matrix(state))
        args = state + inputs
        self.KF = sp.lambdify(args, [K, F], modules="numpy", cse=True)
        self.dR = sp.lambdify(args + self.z, dR, modules="numpy", cse=True)
        self.phi = sp.lambdify(list(m.q), phi, modules="numpy") if lam else None
        self.dependent = {
            name: (
                sp.lambdify(list(m.q), e, modules="math"),
                sp.lambdify(list(m.q) + list(m.v), m.dt(e), modules="math"),
            )
            for name, e in m.dependent.items()
        }
        self.functions = [f for _, f in m.inputs]
        self.n, self.m = n, len(lam)

    def solve(self, t, y):
        args = list(y) + [f(t) for f in self.functions]
        K, F = self.KF(*args)
        return np.linalg.solve(np.asarray(K, dtype=float), np.asarray(F, dtype=float).ravel()), args

    def velocities(self, y, z):
        v = np.empty(self.n)
        v[self.first] = z[: len(self.first)]
        v[self.second] = y[self.n :]
        return v

    def rhs(self, t, y):
        z, _ = self.solve(t, y)
        nf = len(self.first)
        return np.concatenate([self.velocities(y, z), z[nf : nf + len(self.second)]])

    def jacobian(self, t, y):
        z, args = self.solve(t, y)
        K = np.asarray(self.KF(*args)[0], dtype=float)
        dz = -np.linalg.solve(K, np.asarray(self.dR(*args, *z), dtype=float))
        nf, ns = len(self.first), len(self.second)
        J = np.zeros((self.n + ns, self.n + ns))
        for k, i in enumerate(self.second):
            J[i, self.n + k] = 1
        for k, i in enumerate(self.first):
            J[i] = dz[k]
        J[self.n :] = dz[nf : nf + ns]
        return J


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("system", nargs="?")
    parser.add_argument("--list", action="store_true", help="print the systems and exit")
    parser.add_argument("--rtol", type=float, default=1e-10)
    parser.add_argument("--atol", type=float, default=1e-12)
    parser.add_argument("--final-time", type=float, required=False)
    parser.add_argument("--output-interval", type=float, default=0)
    parser.add_argument("--csv", help="write the sampled states here")
    parser.add_argument("--method", default="LSODA", choices=["Radau", "BDF", "LSODA", "DOP853"])
    a = parser.parse_args()
    if a.list:
        print("\n".join(SYSTEMS))
        return
    if a.system not in SYSTEMS or a.final_time is None:
        parser.error("give one of %s and --final-time" % ", ".join(SYSTEMS))

    clock = time.perf_counter()
    model = SYSTEMS[a.system]()
    derived = Derived(model)
    derive = time.perf_counter() - clock

    y0 = np.array(model.initial + [0.0] * len(derived.second))
    T = a.final_time
    samples = None
    if a.output_interval > 0:
        samples = np.linspace(0, T, int(round(T / a.output_interval)) + 1)
    clock = time.perf_counter()
    jacobian = {"jac": derived.jacobian} if a.method != "DOP853" else {}
    sol = solve_ivp(derived.rhs, (0, T), y0, method=a.method, rtol=a.rtol, atol=a.atol, t_eval=samples, **jacobian)
    integrate = time.perf_counter() - clock
    if not sol.success:
        sys.exit("%s: solve_ivp failed: %s" % (a.system, sol.message))

    clock = time.perf_counter()
    if a.csv:
        columns = model.names + [model.names[i] + "_dot" for i in derived.second]
        np.savetxt(a.csv, np.column_stack([sol.t, sol.y.T]), delimiter=",", header=",".join(["t"] + columns),
                   comments="", fmt="%.17g")
    write = time.perf_counter() - clock

    y = sol.y[:, -1]
    z, _ = derived.solve(T, y)
    v = derived.velocities(y, z)
    final = {}
    for k, name in enumerate(model.names):
        final[name], final[name + "_dot"] = float(y[k]), float(v[k])
    for name, (position, rate) in derived.dependent.items():
        final[name], final[name + "_dot"] = position(*y[: derived.n]), rate(*y[: derived.n], *v)
    result = {
        "system": a.system,
        "method": a.method,
        "rtol": a.rtol,
        "atol": a.atol,
        "final_time": float(sol.t[-1]),
        "import_seconds": IMPORT_SECONDS,
        "derive_seconds": derive,
        "integrate_seconds": integrate,
        "write_seconds": write,
        "rhs_evaluations": int(sol.nfev),
        "jacobians": int(sol.njev),
        "lu_decompositions": int(sol.nlu),
        "constraint_residual": float(np.max(np.abs(derived.phi(*y[: derived.n])))) if derived.phi else 0.0,
        "final": final,
        "process_seconds": time.perf_counter() - _start,
    }
    json.dump(result, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
