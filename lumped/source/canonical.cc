#include <hamilton/base/input.h>
#include <hamilton/lumped/canonical.h>

#include <deal.II/base/exceptions.h>

#include <algorithm>
#include <cln/cln.h>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace hamilton::lumped
{
  using GiNaC::ex;
  using GiNaC::numeric;

  namespace
  {
    /** GiNaC's own text of e (messages, numbers, names), or its LaTeX. */
    std::string
    str(const ex &e, bool latex = false)
    {
      std::ostringstream s;
      if (latex)
        s << GiNaC::latex;
      s << e;
      return s.str();
    }

    /** Replaces floating-point numbers by exact rationals, recursively. */
    struct ExactNumbers : public GiNaC::map_function
    {
      ex
      operator()(const ex &e) override
      {
        if (GiNaC::is_a<numeric>(e))
          {
            const numeric &n = GiNaC::ex_to<numeric>(e);
            if (n.is_rational())
              return e;
            if (!n.is_real())
              throw InputError("An expression holds the complex number " + str(e) +
                               " (I, or an even root of a negative number): lumped systems are real.");
            const double value = n.to_double();
            return exact(value);
          }
        return e.map(*this);
      }
    };

    /** The shortest decimal that reads back as `value` (up to 17 digits). */
    std::string
    shortest_decimal(double value)
    {
      char buffer[40];
      for (int digits = 1; digits <= 17; ++digits)
        {
          std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
          if (std::strtod(buffer, nullptr) == value)
            break;
        }
      return buffer;
    }

    /** Whether the rational came from a double rather than from a formula (a power-of-two denominator >= 2^10). */
    bool
    from_double(const numeric &r)
    {
      const numeric d = r.denom();
      if (d < 1024)
        return false;
      const cln::cl_I den = cln::the<cln::cl_I>(d.to_cl_N());
      return cln::logcount(den) == 1; // a power of two
    }

    const std::map<std::string, std::string> &
    c_names()
    {
      static const std::map<std::string, std::string> names{
        {"sin", "sin"},   {"cos", "cos"},   {"tan", "tan"},   {"asin", "asin"}, {"acos", "acos"},
        {"atan", "atan"}, {"atan2", "atan2"}, {"sinh", "sinh"}, {"cosh", "cosh"}, {"tanh", "tanh"},
        {"exp", "exp"},   {"log", "log"},   {"abs", "fabs"}, {"asinh", "asinh"}};
      return names;
    }

    /** The function evaluated for function node `index` (the order of c_names()). */
    double
    apply(unsigned int index, double x, double y)
    {
      switch (index)
        {
          case 0: return std::acos(x);
          case 1: return std::asin(x);
          case 2: return std::atan(x);
          case 3: return std::atan2(x, y);
          case 4: return std::cos(x);
          case 5: return std::cosh(x);
          case 6: return std::exp(x);
          case 7: return std::fabs(x);
          case 8: return std::log(x);
          case 9: return std::sin(x);
          case 10: return std::sinh(x);
          case 11: return std::tan(x);
          case 12: return std::tanh(x);
          case 13: return std::asinh(x);
        }
      return std::nan("");
    }

    /** Index of a GiNaC function name in the order of apply() (alphabetical, asinh appended). */
    int
    function_index(const std::string &name)
    {
      static const std::vector<std::string> names{"acos", "asin", "atan",  "atan2", "cos",  "cosh", "exp",
                                                  "abs",  "log",  "sin",   "sinh",  "tan",  "tanh", "asinh"};
      const auto i = std::find(names.begin(), names.end(), name);
      return i == names.end() ? -1 : int(i - names.begin());
    }

  } // namespace

  ex
  exact(double value)
  {
    if (!std::isfinite(value))
      throw InputError("A parameter or coefficient is not finite (" + std::to_string(value) +
                       "): give finite values.");
    return numeric(cln::rational(cln::cl_DF(value)));
  }

  ex
  exact(const ex &e)
  {
    ExactNumbers f;
    return f(e);
  }

  std::optional<double>
  numeric_value(const ex &e)
  {
    const ex     x     = exact(e);
    const ex     value = GiNaC::evalf(x);
    if (!GiNaC::is_a<numeric>(value) || !GiNaC::ex_to<numeric>(value).is_real())
      return std::nullopt;
    CanonicalForm      form;
    const unsigned int root = form.add(x);
    form.evaluate(nullptr);
    return form.value(root);
  }

  CanonicalForm::CanonicalForm(const GiNaC::lst &arguments, Style style)
    : arguments(arguments)
    , style(style)
  {
    for (unsigned int k = 0; k < arguments.nops(); ++k)
      argument_index[arguments.op(k)] = k;
  }

  unsigned int
  CanonicalForm::push(Node node)
  {
    if (const auto found = by_text.find(node.text); found != by_text.end())
      return found->second;
    nodes.push_back(std::move(node));
    by_text[nodes.back().text] = nodes.size() - 1;
    return nodes.size() - 1;
  }

  std::string
  CanonicalForm::print_constant(const numeric &value) const
  {
    if (style == Style::c)
      {
        std::string text = shortest_decimal(value.to_double());
        if (text.find_first_of(".en") == std::string::npos)
          text += ".0";
        return text;
      }
    if (value.is_integer())
      return str(value);
    if (from_double(value))
      return shortest_decimal(value.to_double());
    if (style == Style::latex)
      return "\\frac{" + str(value.numer()) + "}{" + str(value.denom()) + "}";
    return str(value.numer()) + "/" + str(value.denom());
  }

  unsigned int
  CanonicalForm::constant(const numeric &value)
  {
    Assert(value >= 0, dealii::ExcInternalError());
    Node node{Op::constant};
    node.number     = value.to_double();
    node.text       = print_constant(value);
    node.precedence = value.is_integer() || from_double(value) ? 4 : 2; // 1/2 is a quotient
    return push(node);
  }

  void
  CanonicalForm::sort(std::vector<unsigned int> &children) const
  {
    std::sort(children.begin(), children.end(),
              [this](unsigned int a, unsigned int b) { return nodes[a].text < nodes[b].text; });
  }

  std::string
  CanonicalForm::wrap(unsigned int node, int precedence) const
  {
    const std::string &t = nodes[node].text;
    if (style == Style::c || nodes[node].precedence > precedence)
      return t;
    return style == Style::latex ? "\\left(" + t + "\\right)" : "(" + t + ")";
  }

  unsigned int
  CanonicalForm::value_node(const ex &e)
  {
    const Signed s = build(e);
    if (!s.negative)
      return s.node;
    Node node{Op::negate};
    node.children   = {s.node};
    node.text       = style == Style::c ? "(-" + nodes[s.node].text + ")" : "-" + wrap(s.node, 1);
    node.precedence = 1;
    return push(node);
  }

  CanonicalForm::Signed
  CanonicalForm::build(const ex &e)
  {
    if (const auto found = built.find(e); found != built.end())
      return found->second;
    const Signed result = [&]() -> Signed {
      if (GiNaC::is_a<numeric>(e))
        {
          const numeric &n = GiNaC::ex_to<numeric>(e);
          if (!n.is_real())
            throw InputError("An expression holds the complex number " + str(e) +
                             ": lumped systems are real.");
          return {constant(GiNaC::abs(n)), n < 0};
        }
      if (GiNaC::is_a<GiNaC::constant>(e)) // pi, Euler's constant, Catalan's constant
        {
          Node node{Op::constant};
          node.number = GiNaC::ex_to<numeric>(GiNaC::evalf(e)).to_double();
          node.text   = style == Style::c ? print_constant(numeric(node.number)) : str(e, style == Style::latex);
          return {push(node), false};
        }
      if (GiNaC::is_a<GiNaC::symbol>(e))
        {
          Node node{Op::argument};
          if (const auto k = argument_index.find(e); k != argument_index.end())
            node.index = k->second;
          else if (style == Style::c || arguments.nops() > 0)
            throw InputError("The expression holds the symbol '" + GiNaC::ex_to<GiNaC::symbol>(e).get_name() +
                             "', which has no value here.");
          node.text = style == Style::c ? "a[" + std::to_string(node.index) + "]" : str(e, style == Style::latex);
          return {push(node), false};
        }
      if (GiNaC::is_a<GiNaC::add>(e))
        {
          // terms sorted by their text (numbers last), signs apart; the sign
          // of the whole chosen so that the first term is added
          std::vector<Signed> terms;
          for (std::size_t k = 0; k < e.nops(); ++k)
            terms.push_back(build(e.op(k)));
          const auto order = [&](const Signed &a, const Signed &b) {
            const bool ca = nodes[a.node].op == Op::constant, cb = nodes[b.node].op == Op::constant;
            if (ca != cb)
              return cb;
            if (nodes[a.node].text != nodes[b.node].text)
              return nodes[a.node].text < nodes[b.node].text;
            return a.negative < b.negative;
          };
          std::sort(terms.begin(), terms.end(), order);
          const bool flip = terms.front().negative;
          if (flip)
            {
              for (auto &t : terms)
                t.negative = !t.negative;
              std::sort(terms.begin(), terms.end(), order);
            }
          Node node{Op::sum};
          node.precedence = 1;
          std::string text;
          for (std::size_t k = 0; k < terms.size(); ++k)
            {
              node.children.push_back(terms[k].node);
              node.minus.push_back(terms[k].negative);
              if (style == Style::c)
                text += (terms[k].negative ? "-" : (k ? "+" : "")) + nodes[terms[k].node].text;
              else
                text += (terms[k].negative ? (k ? " - " : "-") : (k ? " + " : "")) + wrap(terms[k].node, 1);
            }
          node.text = style == Style::c ? "(" + text + ")" : text;
          return {push(node), flip};
        }
      if (GiNaC::is_a<GiNaC::mul>(e))
        {
          Node    node{Op::product};
          numeric coefficient = 1;
          bool    negative    = false;
          for (std::size_t k = 0; k < e.nops(); ++k)
            {
              const ex f = e.op(k);
              if (GiNaC::is_a<numeric>(f))
                {
                  coefficient *= GiNaC::ex_to<numeric>(f);
                  continue;
                }
              const bool reciprocal = GiNaC::is_a<GiNaC::power>(f) && GiNaC::is_a<numeric>(f.op(1)) &&
                                      GiNaC::ex_to<numeric>(f.op(1)).is_real() &&
                                      GiNaC::ex_to<numeric>(f.op(1)) < 0;
              const Signed s = build(reciprocal ? GiNaC::pow(f.op(0), -f.op(1)) : f);
              (reciprocal ? node.denominator : node.children).push_back(s.node);
              negative = negative != s.negative;
            }
          if (!coefficient.is_real())
            throw InputError("An expression holds the complex number " + str(coefficient) +
                             ": lumped systems are real.");
          negative    = negative != (coefficient < 0);
          coefficient = GiNaC::abs(coefficient);
          sort(node.children);
          sort(node.denominator);
          if (coefficient != 1)
            node.children.insert(node.children.begin(), constant(coefficient));
          if (node.children.size() == 1 && node.denominator.empty())
            return {node.children.front(), negative};
          node.precedence = 2;
          const auto join = [&](const std::vector<unsigned int> &factors) {
            std::string text;
            for (std::size_t k = 0; k < factors.size(); ++k)
              text += (k ? (style == Style::latex ? " " : "*") : "") + wrap(factors[k], 1);
            return text;
          };
          const std::string top = node.children.empty() ? (style == Style::c ? "1.0" : "1") : join(node.children);
          if (node.denominator.empty())
            node.text = top;
          else if (style == Style::latex)
            node.text = "\\frac{" + top + "}{" + join(node.denominator) + "}";
          else
            node.text = top + "/" +
                        (node.denominator.size() == 1 && nodes[node.denominator[0]].precedence > 2 ?
                           join(node.denominator) :
                           "(" + join(node.denominator) + ")");
          if (style == Style::c)
            node.text = "(" + node.text + ")";
          return {push(node), negative};
        }
      if (GiNaC::is_a<GiNaC::power>(e))
        {
          const ex base = e.op(0), exponent = e.op(1);
          if (GiNaC::is_a<numeric>(exponent) && GiNaC::ex_to<numeric>(exponent).is_real())
            {
              const numeric n = GiNaC::ex_to<numeric>(exponent);
              if (n < 0) // 1/b^-n
                {
                  const Signed s = build(GiNaC::pow(base, -exponent));
                  Node         node{Op::product};
                  node.denominator = {s.node};
                  node.precedence  = 2;
                  // C: the text of a product with this one factor in its
                  // denominator (the same node, whichever form GiNaC chose)
                  const std::string &b = nodes[s.node].text;
                  node.text            = style == Style::c ? "(1.0/" + (nodes[s.node].precedence > 2 ? b : "(" + b + ")") + ")" :
                                     style == Style::latex ? "\\frac{1}{" + nodes[s.node].text + "}" :
                                                             "1/" + wrap(s.node, 2);
                  return {push(node), s.negative};
                }
              if (n == numeric(1, 2))
                {
                  Node node{Op::square_root};
                  node.children = {value_node(base)};
                  const std::string &b = nodes[node.children[0]].text;
                  node.text            = style == Style::latex ? "\\sqrt{" + b + "}" : "sqrt(" + b + ")";
                  return {push(node), false};
                }
              // an integer power of -b is +-(b^n): the sign comes out
              const Signed s = n.is_integer() ? build(base) : Signed{value_node(base), false};
              Node         node{Op::power};
              node.number     = n.to_double();
              node.precedence = 3;
              node.children   = {s.node};
              const std::string x = style == Style::c ? print_constant(numeric(node.number)) : print_constant(n);
              if (style == Style::c)
                node.text = "pow(" + nodes[s.node].text + "," + x + ")";
              else if (style == Style::latex)
                node.text = "{" + wrap(s.node, 3) + "}^{" + x + "}";
              else
                node.text = wrap(s.node, 3) + "^" + (n.is_integer() ? x : "(" + x + ")");
              return {push(node), s.negative && n.is_integer() && cln::oddp(cln::the<cln::cl_I>(n.to_cl_N()))};
            }
          // a symbolic exponent
          Node node{Op::power};
          node.children   = {value_node(base), value_node(exponent)};
          node.index      = 1;
          node.precedence = 3;
          const std::string &b = nodes[node.children[0]].text, &x = nodes[node.children[1]].text;
          node.text = style == Style::c     ? "pow(" + b + "," + x + ")" :
                      style == Style::latex ? "{" + wrap(node.children[0], 3) + "}^{" + x + "}" :
                                              wrap(node.children[0], 3) + "^(" + x + ")";
          return {push(node), false};
        }
      if (GiNaC::is_a<GiNaC::function>(e))
        {
          const std::string name  = GiNaC::ex_to<GiNaC::function>(e).get_name();
          const int         index = function_index(name);
          if (index < 0)
            throw InputError("The derived equations use the function '" + name +
                             "', which Hamilton cannot evaluate. Allowed: sin, cos, tan, asin, acos, atan, "
                             "atan2, sinh, cosh, tanh, asinh, exp, log, abs, sqrt, ^.");
          Node node{Op::function};
          node.index = index;
          std::string args;
          for (std::size_t k = 0; k < e.nops(); ++k)
            {
              node.children.push_back(value_node(e.op(k)));
              args += (k ? ", " : "") + nodes[node.children.back()].text;
            }
          if (style == Style::c)
            node.text = c_names().at(name) + "(" + args + ")";
          else if (style == Style::latex)
            node.text = (name == "atan2" || name == "abs" || name == "asinh" ? "\\operatorname{" + name + "}" : "\\" + name) +
                        "\\left(" + args + "\\right)";
          else
            node.text = name + "(" + args + ")";
          return {push(node), false};
        }
      throw InputError("The derived equations hold '" + str(e) +
                       "', which Hamilton cannot evaluate (only numbers, symbols, +, *, ^ and the "
                       "functions sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, exp, log, abs).");
    }();
    built[e] = result;
    return result;
  }

  unsigned int
  CanonicalForm::add(const ex &e)
  {
    return value_node(exact(e));
  }

  const std::string &
  CanonicalForm::print(unsigned int root) const
  {
    AssertIndexRange(root, nodes.size());
    return nodes[root].text;
  }

  void
  CanonicalForm::evaluate(const double *x) const
  {
    values.resize(nodes.size());
    for (unsigned int k = 0; k < nodes.size(); ++k)
      {
        const Node &n = nodes[k];
        double     &v = values[k];
        switch (n.op)
          {
            case Op::constant:
              v = n.number;
              break;
            case Op::argument:
              v = x[n.index];
              break;
            case Op::sum: // as printed in C: ((-a)+b-c...)
              v = n.minus[0] ? -values[n.children[0]] : values[n.children[0]];
              for (unsigned int c = 1; c < n.children.size(); ++c)
                v = n.minus[c] ? v - values[n.children[c]] : v + values[n.children[c]];
              break;
            case Op::product:
              {
                // as printed in C: (n1*n2*...)/(d1*d2*...)
                double top = n.children.empty() ? 1.0 : values[n.children[0]];
                for (unsigned int c = 1; c < n.children.size(); ++c)
                  top *= values[n.children[c]];
                if (!n.denominator.empty())
                  {
                    double bottom = values[n.denominator[0]];
                    for (unsigned int c = 1; c < n.denominator.size(); ++c)
                      bottom *= values[n.denominator[c]];
                    top /= bottom;
                  }
                v = top;
                break;
              }
            case Op::power:
              {
                const double b = values[n.children[0]];
                const double p = n.index == 1 ? values[n.children[1]] : n.number;
                v = p == 2 ? b * b : std::pow(b, p); // the C compiler makes pow(b, 2.0) b*b
                break;
              }
            case Op::square_root:
              v = std::sqrt(values[n.children[0]]);
              break;
            case Op::negate:
              v = -values[n.children[0]];
              break;
            case Op::function:
              v = apply(n.index, values[n.children[0]], n.children.size() > 1 ? values[n.children[1]] : 0.);
              break;
          }
      }
  }

  std::string
  canonical_string(const ex &e, CanonicalForm::Style style)
  {
    CanonicalForm form({}, style);
    return form.print(form.add(e));
  }

  std::string
  canonical_string(const GiNaC::matrix &m, CanonicalForm::Style style)
  {
    if (m.rows() == 0 || m.cols() == 0)
      return "(none)";
    CanonicalForm form({}, style);
    std::string   text = style == CanonicalForm::Style::latex ? "\\begin{pmatrix}" : "[";
    for (unsigned int i = 0; i < m.rows(); ++i)
      {
        if (style == CanonicalForm::Style::latex)
          text += i ? " \\\\ " : " ";
        else
          text += i ? ", [" : "[";
        for (unsigned int j = 0; j < m.cols(); ++j)
          text += (j ? (style == CanonicalForm::Style::latex ? " & " : ", ") : "") + form.print(form.add(m(i, j)));
        if (style != CanonicalForm::Style::latex)
          text += "]";
      }
    return text + (style == CanonicalForm::Style::latex ? " \\end{pmatrix}" : "]");
  }

  CanonicalLists::CanonicalLists(const std::vector<std::vector<ex>> &lists, const GiNaC::lst &arguments)
  {
    forms.reserve(lists.size());
    for (const auto &list : lists)
      {
        forms.emplace_back(arguments, CanonicalForm::Style::c);
        roots.emplace_back();
        for (const auto &e : list)
          roots.back().push_back(forms.back().add(e));
      }
  }

  void
  CanonicalLists::evaluate(unsigned int list, const double *x, double *result) const
  {
    AssertIndexRange(list, forms.size());
    const auto &form = forms[list];
    form.evaluate(x);
    for (unsigned int i = 0; i < roots[list].size(); ++i)
      result[i] = form.value(roots[list][i]);
  }

  std::string
  CanonicalLists::c_source() const
  {
    std::ostringstream source;
    source << "#include <math.h>\n";
    for (unsigned int f = 0; f < forms.size(); ++f)
      {
        source << "void hamilton_f" << f << "(const int *an, const double *a, const int *fn, double *f)\n{\n";
        for (unsigned int i = 0; i < roots[f].size(); ++i)
          source << "  f[" << i << "] = " << forms[f].print(roots[f][i]) << ";\n";
        source << "}\n";
      }
    return source.str();
  }
} // namespace hamilton::lumped
