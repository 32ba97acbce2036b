#include <hamilton/continuum/material.h>

#include <Eigen/Eigenvalues>

#include <array>
#include <cmath>
#include <sstream>

namespace hamilton::continuum
{
  using namespace dealii;

  namespace
  {
    /** Vacuum permittivity (F/m). */
    constexpr double epsilon_0 = 8.8541878128e-12;

    /** IEEE Voigt index of the symmetric pair (i, j). */
    constexpr unsigned int
    voigt(const unsigned int i, const unsigned int j)
    {
      return i == j ? i : 6 - i - j;
    }

    std::string
    format(const double value)
    {
      std::ostringstream s;
      s.precision(6);
      s << value;
      return s.str();
    }

    /** Smallest eigenvalue of a symmetric matrix. */
    template <typename Matrix>
    double
    smallest_eigenvalue(const Matrix &m)
    {
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(Eigen::MatrixXd(m), Eigen::EigenvaluesOnly);
      return solver.eigenvalues().minCoeff();
    }

    /** A list of exactly `count` numbers of entry `entry`. */
    std::vector<double>
    get_numbers(const Section &section, const std::string &entry, const std::size_t count)
    {
      const auto values = parse_numbers(section, entry);
      if (values.size() != count)
        section.fail(entry,
                     "needs exactly " + std::to_string(count) + " numbers, row by row, but has " +
                       std::to_string(values.size()) + ".");
      return values;
    }

    template <int rows, int columns>
    Eigen::Matrix<double, rows, columns>
    get_matrix(const Section &section, const std::string &entry, const double scale)
    {
      const auto                           v = get_numbers(section, entry, rows * columns);
      Eigen::Matrix<double, rows, columns> m;
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < columns; ++j)
          m(i, j) = scale * v[i * columns + j];
      return m;
    }

    /** Require a symmetric positive definite matrix; name the entry otherwise. */
    template <typename Matrix>
    void
    require_spd(const Section &section, const std::string &entry, const Matrix &m, const std::string &what)
    {
      const double asymmetry = (m - m.transpose()).cwiseAbs().maxCoeff();
      if (asymmetry > 1e-10 * m.cwiseAbs().maxCoeff())
        section.fail(entry, what + " must be symmetric (largest difference m_ij - m_ji: " + format(asymmetry) + ").");
      const double lowest = smallest_eigenvalue(m);
      if (!(lowest > 1e-12 * m.cwiseAbs().maxCoeff()))
        section.fail(entry,
                     what + " must be positive definite, but its smallest eigenvalue is " + format(lowest) +
                       " (largest entry " + format(m.cwiseAbs().maxCoeff()) +
                       "). Check signs, units and the Voigt order (xx, yy, zz, yz, xz, xy).");
    }

    /**
     * The conditions under which a transversely isotropic (6 mm) stiffness or
     * compliance a (entries a11, a12, a13, a33, a44, a66, prefix `k` = 'c' or
     * 's') is positive definite: a44 > 0, a66 > 0, a11 > |a12|, a33 > 0 and
     * (a11 + a12) a33 > 2 a13^2 (the matrix's eigenvalues are a44 twice, a66,
     * a11 - a12, and those of [[a11 + a12, sqrt2 a13], [sqrt2 a13, a33]]).
     * The first that fails names
     * its entries and values (the entry given to Section::fail is the one the
     * condition is about), so that the message points at the entry the user
     * changed; nothing if all hold.
     */
    void
    require_transversely_isotropic_spd(const Section &section, const char k, const double a11, const double a12,
                                       const double a13, const double a33, const double a44, const double a66,
                                       const std::string &what)
    {
      const auto name = [k](const char *suffix) { return std::string(1, k) + suffix; };
      const auto is   = [&](const char *suffix, const double value) { return name(suffix) + " = " + format(value); };
      const std::string hint = " Check signs, units and which entry is which (Voigt order xx, yy, zz, yz, xz, xy).";
      if (!(a44 > 0))
        section.fail(name("44"), what + " is not positive definite: " + name("44") + " must be positive." + hint);
      if (!(a66 > 0))
        section.fail(name("66"), what + " is not positive definite: " + name("66") + " must be positive." + hint);
      if (!(a11 > std::abs(a12)))
        section.fail(std::abs(a12) >= std::abs(a11) && a11 > 0 ? name("12") : name("11"),
                     what + " is not positive definite: " + name("11") + " must exceed |" + name("12") + "| (" +
                       is("11", a11) + ", " + is("12", a12) + ")." + hint);
      if (!(a33 > 0))
        section.fail(name("33"), what + " is not positive definite: " + name("33") + " must be positive." + hint);
      if (!((a11 + a12) * a33 > 2 * a13 * a13))
        section.fail(name("13"), what + " is not positive definite: (" + name("11") + " + " + name("12") + ") " +
                                   name("33") + " = " + format((a11 + a12) * a33) + " must exceed 2 " + name("13") +
                                   "^2 = " + format(2 * a13 * a13) + " (" + is("11", a11) + ", " + is("12", a12) +
                                   ", " + is("13", a13) + ", " + is("33", a33) + ")." + hint);
    }
  } // namespace

  void
  Material::declare_parameters(ParameterHandler &p)
  {
    p.declare_entry("Type",
                    "isotropic",
                    Patterns::Selection("isotropic|piezoelectric"),
                    "'isotropic': elastic, no potential (Young's modulus, Poisson's ratio); 'piezoelectric': "
                    "electroelastic constants in the material axes, axis 3 along the region's poling.");
    p.declare_entry("Density", "0", Patterns::Double(), "Density (kg/m^3), > 0.");
    p.declare_entry("Young's modulus", "0", Patterns::Double(), "Young's modulus (Pa), isotropic.");
    p.declare_entry("Poisson's ratio", "0.3", Patterns::Double(), "Poisson's ratio, in (-1, 0.5), isotropic.");
    p.declare_entry("Form",
                    "stress-charge",
                    Patterns::Selection("stress-charge|strain-charge"),
                    "Piezoelectric data as c^E, e, eps^S ('stress-charge') or s^E, d, eps^T "
                    "('strain-charge', converted once on input).");
    p.declare_entry("Symmetry",
                    "6mm",
                    Patterns::Selection("6mm|full"),
                    "'6mm': the constants of poled ceramics by name (c11 ... e15 or s11 ... d15); "
                    "'full': whole matrices in IEEE Voigt order (xx, yy, zz, yz, xz, xy), row by row.");
    p.declare_entry("Permittivity unit",
                    "F/m",
                    Patterns::Selection("F/m|relative"),
                    "Unit of the permittivities: F/m, or relative to eps0 = 8.8541878128e-12 F/m.");
    for (const char *name : {"c11", "c12", "c13", "c33", "c44", "c66"})
      p.declare_entry(name, "0", Patterns::Double(), "Stiffness at constant field c^E (Pa), 6mm stress-charge.");
    for (const char *name : {"s11", "s12", "s13", "s33", "s44", "s66"})
      p.declare_entry(name, "0", Patterns::Double(), "Compliance at constant field s^E (1/Pa), 6mm strain-charge.");
    for (const char *name : {"e31", "e33", "e15"})
      p.declare_entry(name, "0", Patterns::Double(), "Piezoelectric stress constant (C/m^2), 6mm stress-charge.");
    for (const char *name : {"d31", "d33", "d15"})
      p.declare_entry(name, "0", Patterns::Double(), "Piezoelectric strain constant (C/N = m/V), 6mm strain-charge.");
    for (const char *name : {"eps11S", "eps33S"})
      p.declare_entry(name, "0", Patterns::Double(), "Permittivity at constant strain (see 'Permittivity unit').");
    for (const char *name : {"eps11T", "eps33T"})
      p.declare_entry(name, "0", Patterns::Double(), "Permittivity at constant stress (see 'Permittivity unit').");
    p.declare_entry("cE", "", Patterns::Anything(), "Full c^E: 36 numbers (Pa), row by row; 'Symmetry = full'.");
    p.declare_entry("sE", "", Patterns::Anything(), "Full s^E: 36 numbers (1/Pa), row by row; 'Symmetry = full'.");
    p.declare_entry("e", "", Patterns::Anything(), "Full e: 18 numbers (C/m^2), 3 rows of 6; 'Symmetry = full'.");
    p.declare_entry("d", "", Patterns::Anything(), "Full d: 18 numbers (C/N), 3 rows of 6; 'Symmetry = full'.");
    p.declare_entry("epsS", "", Patterns::Anything(), "Full eps^S: 9 numbers; 'Symmetry = full'.");
    p.declare_entry("epsT", "", Patterns::Anything(), "Full eps^T: 9 numbers; 'Symmetry = full'.");
  }

  Material
  Material::parse(Section &s, const std::string &name)
  {
    Material m;
    m.name          = name;
    m.density       = s.get_positive("Density", "kg/m^3");
    m.piezoelectric = s.get("Type") == "piezoelectric";
    if (!m.piezoelectric)
      {
        const double E  = s.get_positive("Young's modulus", "Pa");
        const double nu = s.get_double("Poisson's ratio");
        if (!(nu > -1 && nu < 0.5))
          s.fail("Poisson's ratio", "must lie in (-1, 0.5) for a stable isotropic material.");
        const double lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));
        for (unsigned int i = 0; i < 3; ++i)
          {
            for (unsigned int j = 0; j < 3; ++j)
              m.c(i, j) = lambda;
            m.c(i, i) = lambda + 2 * mu;
            m.c(i + 3, i + 3) = mu;
          }
        return m;
      }

    const bool   strain_charge = s.get("Form") == "strain-charge";
    const bool   full          = s.get("Symmetry") == "full";
    const double eps_scale     = s.get("Permittivity unit") == "relative" ? epsilon_0 : 1.;
    Eigen::Matrix<double, 6, 6> stiffness_or_compliance = Eigen::Matrix<double, 6, 6>::Zero();
    Eigen::Matrix<double, 3, 6> coupling                = Eigen::Matrix<double, 3, 6>::Zero();
    Eigen::Matrix3d             permittivity            = Eigen::Matrix3d::Zero();
    const std::string           elastic_entry = full ? (strain_charge ? "sE" : "cE") : (strain_charge ? "s11" : "c11");
    const std::string           perm_entry    = full ? (strain_charge ? "epsT" : "epsS") : (strain_charge ? "eps33T" : "eps33S");
    if (full)
      {
        stiffness_or_compliance = get_matrix<6, 6>(s, elastic_entry, 1.);
        coupling                = get_matrix<3, 6>(s, strain_charge ? "d" : "e", 1.);
        permittivity            = get_matrix<3, 3>(s, perm_entry, eps_scale);
      }
    else
      {
        const char   k = strain_charge ? 's' : 'c';
        const auto   g = [&](const std::string &entry) { return s.get_double(entry); };
        const double a11 = g(std::string(1, k) + "11"), a12 = g(std::string(1, k) + "12"),
                     a13 = g(std::string(1, k) + "13"), a33 = g(std::string(1, k) + "33"),
                     a44 = g(std::string(1, k) + "44"), a66 = g(std::string(1, k) + "66");
        auto &A = stiffness_or_compliance;
        A(0, 0) = A(1, 1) = a11;
        A(0, 1) = A(1, 0) = a12;
        A(0, 2) = A(2, 0) = A(1, 2) = A(2, 1) = a13;
        A(2, 2)                               = a33;
        A(3, 3) = A(4, 4) = a44;
        A(5, 5)           = a66;
        require_transversely_isotropic_spd(s, k, a11, a12, a13, a33, a44, a66,
                                           strain_charge ? "The compliance s^E" : "The stiffness c^E");
        const char p = strain_charge ? 'd' : 'e';
        coupling(2, 0) = coupling(2, 1) = g(std::string(1, p) + "31");
        coupling(2, 2)                  = g(std::string(1, p) + "33");
        coupling(0, 4) = coupling(1, 3) = g(std::string(1, p) + "15");
        const std::string t = strain_charge ? "T" : "S";
        permittivity(0, 0) = permittivity(1, 1) = eps_scale * g("eps11" + t);
        permittivity(2, 2)                      = eps_scale * g("eps33" + t);
        for (const std::string entry : {"eps11" + t, "eps33" + t})
          if (!(g(entry) > 0))
            s.fail(entry, "a permittivity must be positive (F/m, or relative to eps0 with 'Permittivity unit = "
                          "relative').");
      }

    require_spd(s, elastic_entry, stiffness_or_compliance,
                strain_charge ? "The compliance s^E" : "The stiffness c^E");
    require_spd(s, perm_entry, permittivity, strain_charge ? "The permittivity eps^T" : "The permittivity eps^S");
    if (strain_charge)
      {
        Eigen::FullPivLU<Eigen::Matrix<double, 6, 6>> lu(stiffness_or_compliance);
        if (!lu.isInvertible())
          s.fail(elastic_entry, "the compliance s^E is singular: it has no inverse c^E.");
        m.c   = lu.inverse();
        m.e   = coupling * m.c;
        m.eps = permittivity - coupling * m.c * coupling.transpose();
        if (!(smallest_eigenvalue(m.eps) > 1e-12 * permittivity.cwiseAbs().maxCoeff()))
          s.fail(perm_entry,
                 "the permittivity at constant strain eps^S = eps^T - d c^E d^T is not positive definite "
                 "(smallest eigenvalue " + format(smallest_eigenvalue(m.eps)) +
                   " F/m): the coupling d is too large for eps^T and s^E (a coupling factor >= 1). Check d, "
                   "eps^T and 'Permittivity unit'.");
      }
    else
      {
        m.c   = stiffness_or_compliance;
        m.e   = coupling;
        m.eps = permittivity;
      }
    m.c   = (m.c + m.c.transpose()) / 2;
    m.eps = (m.eps + m.eps.transpose()) / 2;
    return m;
  }

  Material
  Material::rotated(const Tensor<1, 3> &poling) const
  {
    // material axes in mesh coordinates: a3 = poling, a1 from the least
    // aligned mesh axis (Gram-Schmidt), a2 = a3 x a1
    Tensor<1, 3> a3 = poling / poling.norm();
    unsigned int k  = 0;
    for (unsigned int i = 1; i < 3; ++i)
      if (std::abs(a3[i]) < std::abs(a3[k]) - 1e-12)
        k = i;
    Tensor<1, 3> a1;
    a1[k] = 1;
    a1 -= (a1 * a3) * a3;
    a1 /= a1.norm();
    const Tensor<1, 3> a2 = cross_product_3d(a3, a1);
    double             R[3][3]; // R[i][a]: mesh component i of material axis a
    for (unsigned int i = 0; i < 3; ++i)
      {
        R[i][0] = a1[i];
        R[i][1] = a2[i];
        R[i][2] = a3[i];
      }

    Material r = *this;
    r.c.setZero();
    r.e.setZero();
    r.eps.setZero();
    // full-index loops (81 x 81 is cheap once per region)
    for (unsigned int i = 0; i < 3; ++i)
      for (unsigned int j = 0; j < 3; ++j)
        {
          r.eps(i, j) = 0;
          for (unsigned int a = 0; a < 3; ++a)
            for (unsigned int b = 0; b < 3; ++b)
              r.eps(i, j) += R[i][a] * R[j][b] * eps(a, b);
        }
    for (unsigned int k3 = 0; k3 < 3; ++k3)
      for (unsigned int i = 0; i < 3; ++i)
        for (unsigned int j = i; j < 3; ++j)
          {
            double value = 0;
            for (unsigned int c = 0; c < 3; ++c)
              for (unsigned int a = 0; a < 3; ++a)
                for (unsigned int b = 0; b < 3; ++b)
                  value += R[k3][c] * R[i][a] * R[j][b] * e(c, voigt(a, b));
            r.e(k3, voigt(i, j)) = value;
          }
    for (unsigned int i = 0; i < 3; ++i)
      for (unsigned int j = i; j < 3; ++j)
        for (unsigned int k = 0; k < 3; ++k)
          for (unsigned int l = k; l < 3; ++l)
            {
              double value = 0;
              for (unsigned int a = 0; a < 3; ++a)
                for (unsigned int b = 0; b < 3; ++b)
                  for (unsigned int c = 0; c < 3; ++c)
                    for (unsigned int d = 0; d < 3; ++d)
                      value += R[i][a] * R[j][b] * R[k][c] * R[l][d] * this->c(voigt(a, b), voigt(c, d));
              r.c(voigt(i, j), voigt(k, l)) = value;
            }
    return r;
  }

  Eigen::MatrixXd
  Material::enthalpy_matrix(const Formulation formulation) const
  {
    // H in (eps (6), grad phi (3)): [[c, e^T], [e, -eps]]
    Eigen::Matrix<double, 9, 9> H;
    H.topLeftCorner<6, 6>()     = c;
    H.topRightCorner<6, 3>()    = e.transpose();
    H.bottomLeftCorner<3, 6>()  = e;
    H.bottomRightCorner<3, 3>() = -eps;
    if (formulation == Formulation::three_dimensional)
      return H;
    if (formulation == Formulation::axisymmetric)
      {
        // r = x, the axis y, theta = z: eps_rr, eps_yy, gamma_ry, eps_theta,
        // phi_r, phi_y; the shears with theta and E_theta vanish by symmetry
        const std::array<int, 6> kept{0, 1, 5, 2, 6, 7};
        Eigen::MatrixXd          A(6, 6);
        for (int i = 0; i < 6; ++i)
          for (int j = 0; j < 6; ++j)
            A(i, j) = H(kept[i], kept[j]);
        return A;
      }

    // 2D in the x-y plane: kept eps_xx, eps_yy, gamma_xy, phi_x, phi_y;
    // E_z = 0 in both; plane stress condenses eps_zz, gamma_yz, gamma_xz
    // (zero out-of-plane stresses), plane strain sets them to zero.
    const std::array<int, 5> kept{0, 1, 5, 6, 7};
    const std::array<int, 3> out{2, 3, 4};
    Eigen::MatrixXd          Hkk(5, 5), Hko(5, 3), Hoo(3, 3);
    for (int i = 0; i < 5; ++i)
      {
        for (int j = 0; j < 5; ++j)
          Hkk(i, j) = H(kept[i], kept[j]);
        for (int j = 0; j < 3; ++j)
          Hko(i, j) = H(kept[i], out[j]);
      }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        Hoo(i, j) = H(out[i], out[j]);
    if (formulation == Formulation::plane_strain)
      return Hkk;
    Eigen::MatrixXd reduced = Hkk - Hko * Hoo.ldlt().solve(Hko.transpose());
    return (reduced + reduced.transpose()) / 2;
  }

  std::vector<double>
  parse_numbers(const Section &section, const std::string &entry)
  {
    std::vector<double> values;
    for (const auto &item : split_list(section.get(entry)))
      try
        {
          values.push_back(parse_number(item));
        }
      catch (const std::invalid_argument &error)
        {
          section.fail(entry, "'" + item + "' is not a number: " + error.what());
        }
    return values;
  }

  Tensor<1, 3>
  parse_direction(const Section &section, const std::string &entry)
  {
    const std::string text = section.get(entry);
    Tensor<1, 3>      d;
    if (text.size() == 2 && (text[0] == '+' || text[0] == '-') && text[1] >= 'x' && text[1] <= 'z')
      {
        d[text[1] - 'x'] = text[0] == '+' ? 1 : -1;
        return d;
      }
    const auto items = split_list(text);
    if (items.size() != 3)
      section.fail(entry, "must be +x, -x, +y, -y, +z, -z or three numbers 'a, b, c' (a direction in the mesh's axes).");
    const auto values = parse_numbers(section, entry);
    for (unsigned int i = 0; i < 3; ++i)
      d[i] = values[i];
    if (!(d.norm() > 0))
      section.fail(entry, "the direction (0, 0, 0) has no direction; give e.g. '+z' or '0, 0, 1'.");
    return d / d.norm();
  }
} // namespace hamilton::continuum
