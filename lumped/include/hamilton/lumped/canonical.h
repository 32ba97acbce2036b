#ifndef hamilton_lumped_canonical_h
#define hamilton_lumped_canonical_h

#include <ginac/ginac.h>

#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

/**
 * Derived expressions in a canonical order, so that every run of the same
 * file gives the same printed equations, the same C source and the same
 * numbers, bit for bit.
 *
 * GiNaC keeps the operands of sums and products sorted by hash values that
 * depend on the address at which its library is loaded, so the order of
 * terms (and with it the rounding of every evaluation) changes from run to
 * run under address-space randomisation. Two measures remove that:
 *
 * - exact(): every floating-point number becomes the exact rational of its
 *   double value before GiNaC computes with it, so that GiNaC's own
 *   arithmetic (collecting terms, combining coefficients) is exact and
 *   independent of the order in which it meets the operands;
 * - CanonicalForm: sums and products list their operands sorted by their
 *   printed form; printing, C code generation and evaluation all go through
 *   it, never through GiNaC's operand order.
 */
namespace hamilton::lumped
{
  /**
   * e with every floating-point number replaced by the exact rational value
   * of the double it holds (a double is a dyadic rational). Throws
   * InputError for a complex number (e.g. I, or sqrt of a negative number).
   */
  GiNaC::ex
  exact(const GiNaC::ex &e);

  /** The exact rational value of a double (which must be finite). */
  GiNaC::ex
  exact(double value);

  /**
   * The value of an expression without symbols, evaluated in canonical
   * order; nothing if it holds a symbol (or is not real).
   */
  std::optional<double>
  numeric_value(const GiNaC::ex &e);

  /**
   * Expressions of a list of argument symbols in canonical form: a program
   * of nodes in post-order (children before parents, shared subexpressions
   * once), each sum and product with its operands in the order of their
   * printed form. evaluate() runs the program; c_expression() prints the
   * same operations in the same order as C.
   */
  class CanonicalForm
  {
  public:
    /** How expressions are printed (and hence ordered). */
    enum class Style
    {
      c,     ///< C: arguments a[k], double literals, pow/sqrt, fabs
      text,  ///< readable text: names, 1/2, x^2
      latex  ///< LaTeX: TeX names of the symbols, \frac, \sin
    };

    /**
     * `arguments` are the symbols an expression may contain (in Style::c the
     * k-th is printed a[k] and read from x[k] by evaluate()); with an empty
     * list in the text styles any symbol is printed by its name.
     */
    explicit CanonicalForm(const GiNaC::lst &arguments = {}, Style style = Style::c);

    /**
     * Add an expression (made exact() first) and return its root node.
     * Throws InputError for something that cannot be evaluated: a symbol
     * that is not an argument, a complex number, a function other than
     * sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, exp, log,
     * abs.
     */
    unsigned int
    add(const GiNaC::ex &e);

    /** The printed form of node `root` in this form's style. */
    const std::string &
    print(unsigned int root) const;

    /**
     * Evaluate every node at the arguments x (size: number of arguments);
     * the value of node k is then value(k).
     */
    void
    evaluate(const double *x) const;

    double
    value(unsigned int node) const
    {
      return values[node];
    }

    unsigned int
    n_nodes() const
    {
      return nodes.size();
    }

  private:
    enum class Op
    {
      constant, ///< a number >= 0
      argument,
      sum,         ///< children added or subtracted (signs) in order
      product,     ///< children multiplied in order, divided by the product of the denominator
      power,       ///< child ^ number, or child ^ second child
      square_root,
      negate,
      function
    };
    struct Node
    {
      explicit Node(Op op)
        : op(op)
      {}
      Op                        op;
      double                    number = 0; ///< constant; exponent of a power
      unsigned int              index  = 0; ///< argument; function; 1 for a symbolic exponent
      std::vector<unsigned int> children, denominator;
      std::vector<bool>         minus;          ///< sum: child k is subtracted
      std::string               text;
      int                       precedence = 4; ///< 1 sum or negation, 2 product or quotient, 3 power, 4 atom
    };
    /** A node and a sign: the expression is -node when `negative`. */
    struct Signed
    {
      unsigned int node;
      bool         negative;
    };

    /**
     * The canonical node of e up to its sign: e and -e give the same node
     * (GiNaC places signs of sums and products by hash order too).
     */
    Signed
    build(const GiNaC::ex &e);
    /** The node whose value is e itself (a negation node if needed). */
    unsigned int
    value_node(const GiNaC::ex &e);
    unsigned int
    push(Node node);
    unsigned int
    constant(const GiNaC::numeric &value);
    void
    sort(std::vector<unsigned int> &children) const;
    std::string
    print_constant(const GiNaC::numeric &value) const;
    std::string
    wrap(unsigned int node, int precedence) const;

    GiNaC::lst                                    arguments;
    GiNaC::exhashmap<unsigned>                    argument_index; ///< lookup only
    Style                                         style;
    std::vector<Node>                             nodes;
    GiNaC::exhashmap<Signed>                      built;   ///< lookup only: no order depends on it
    std::unordered_map<std::string, unsigned int> by_text; ///< equal text, equal node
    mutable std::vector<double>                   values;
  };

  /**
   * One expression printed canonically as text or LaTeX (any symbols).
   */
  std::string
  canonical_string(const GiNaC::ex &e, CanonicalForm::Style style = CanonicalForm::Style::text);

  /** A matrix printed canonically: [[a, b], [c, d]] or a LaTeX pmatrix; "(none)" when empty. */
  std::string
  canonical_string(const GiNaC::matrix &m, CanonicalForm::Style style = CanonicalForm::Style::text);

  /**
   * Lists of expressions of `arguments` in canonical form, evaluated either
   * by interpreting the canonical program or as C source with one function
   * per list (signature of GiNaC's FUNCP_CUBA: (n args, args, n results,
   * results)); both do the same operations in the same order.
   */
  class CanonicalLists
  {
  public:
    CanonicalLists(const std::vector<std::vector<GiNaC::ex>> &lists, const GiNaC::lst &arguments);

    /** Interpret list `list` at the arguments x, results into `result`. */
    void
    evaluate(unsigned int list, const double *x, double *result) const;

    /** C source of every list: functions hamilton_f0, hamilton_f1, ... */
    std::string
    c_source() const;

    /** Number of results of list `list`. */
    unsigned int
    size(unsigned int list) const
    {
      return roots[list].size();
    }

    unsigned int
    n_lists() const
    {
      return roots.size();
    }

  private:
    std::vector<CanonicalForm>             forms; ///< one per list (each evaluates only its own nodes)
    std::vector<std::vector<unsigned int>> roots;
  };
} // namespace hamilton::lumped

#endif
