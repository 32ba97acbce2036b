#ifndef hamilton_base_input_h
#define hamilton_base_input_h

#include <deal.II/base/function_parser.h>
#include <deal.II/base/parameter_handler.h>

#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hamilton
{
  /**
   * An error the user can cause through the parameter file. The message names
   * the subsection and entry, the offending value, what is allowed and how to
   * fix it. `main` prints it and exits with status 1; nothing is written.
   */
  class InputError : public std::runtime_error
  {
  public:
    using std::runtime_error::runtime_error;
  };

  /**
   * Throw an InputError of the form
   * "In subsection 'path': 'entry' = value: requirement".
   */
  [[noreturn]] void
  input_error(const std::string &path,
              const std::string &entry,
              const std::string &value,
              const std::string &requirement);

  /**
   * A ParameterHandler together with the path of the subsection currently
   * entered, so that parsing code can name where a bad value came from.
   * Entering and leaving are scoped: use Scope.
   */
  class Section
  {
  public:
    explicit Section(dealii::ParameterHandler &prm);

    /** Enter subsection `name` for the lifetime of the returned object. */
    class Scope
    {
    public:
      Scope(Section &section, const std::string &name);
      ~Scope();
      Scope(const Scope &) = delete;
      Scope &operator=(const Scope &) = delete;

    private:
      Section &section;
    };

    /** The current path, subsections joined by '/'. */
    std::string
    path() const;

    dealii::ParameterHandler &
    handler();

    std::string
    get(const std::string &entry) const;
    /**
     * A number (see parse_number): a text that is not one, a non-finite
     * value or a magnitude beyond 1e300 or below 1e-300 (other than 0) ends
     * with an InputError naming the entry.
     */
    double
    get_double(const std::string &entry) const;
    /** A whole number from 0 to 2^31 - 1, with a message naming the entry otherwise. */
    unsigned int
    get_unsigned(const std::string &entry) const;
    /** true/yes or false/no, with a message naming the entry otherwise. */
    bool
    get_bool(const std::string &entry) const;

    /** A double that must be > 0 (strictly), with a message naming the entry. */
    double
    get_positive(const std::string &entry, const std::string &unit) const;
    /** A double that must be >= 0, with a message naming the entry. */
    double
    get_non_negative(const std::string &entry, const std::string &unit) const;

    /**
     * A comma-separated list of user-chosen names, checked for emptiness
     * and duplicates.
     */
    std::vector<std::string>
    get_names(const std::string &entry) const;

    /**
     * Parse the entry as a function of x (m) with the constants pi and e.
     * A malformed expression ends with an InputError naming the entry.
     */
    std::shared_ptr<dealii::FunctionParser<1>>
    get_function_of_x(const std::string &entry) const;

    [[noreturn]] void
    fail(const std::string &entry, const std::string &requirement) const;

  private:
    dealii::ParameterHandler &prm;
    std::vector<std::string>  stack;
  };

  /** The largest magnitude a number in a parameter file may have. */
  constexpr double largest_number = 1e300;
  /** The smallest non-zero magnitude a number in a parameter file may have. */
  constexpr double smallest_number = 1e-300;

  /**
   * Parse one number: the whole text must be a finite number of magnitude
   * zero or within [smallest_number, largest_number]. Throws
   * std::invalid_argument with a message that says what is allowed (to be
   * completed with the entry's name, see Section::fail).
   */
  double
  parse_number(const std::string &text);

  /**
   * Parse "a, b, c", "linspace(start, stop, count)" or
   * "logspace(exponent1, exponent2, count)" (10^exponent). Throws
   * std::invalid_argument on malformed text.
   */
  std::vector<double>
  parse_number_list(const std::string &text);

  /** Split a comma-separated list, trimming blanks; empty items removed. */
  std::vector<std::string>
  split_list(const std::string &text);

  /**
   * Declare a list of user-named subsections: an entry "Names" in the
   * current subsection, and for each name already known, a subsection of that
   * name whose entries `declare_one` declares. The names come from a first,
   * lenient pass over the file (see read_parameter_file).
   */
  void
  declare_named_list(dealii::ParameterHandler            &prm,
                     const std::string                   &names_documentation,
                     const std::vector<std::string>      &names,
                     const std::function<void(dealii::ParameterHandler &)>
                       &declare_one);

  /**
   * Parse a parameter file in three passes: the first two (with undeclared
   * entries skipped) let `declare` learn the user-chosen names and what
   * depends on them (a component's type); the last declares everything and
   * parses strictly, so that a misspelt entry or subsection is
   * an error. `declare(prm, first_pass)` must declare the same entries on both
   * passes except the named subsections. The lenient pass reads names through
   * `Section`, so `declare` receives the handler of the first pass (nullptr on
   * the first pass itself).
   *
   * `changes` ("Subsection/.../Entry", value) replace entries in the text of
   * the file before all three passes (an entry the file does not set is
   * added), so a change of a list of names declares its subsections and every
   * value is checked as if the file held it. A path that names no entry or a
   * value that its entry's pattern refuses ends with an InputError that
   * quotes the change as `--set 'path=value'` and names the closest entries.
   */
  void
  read_parameter_file(
    dealii::ParameterHandler &prm,
    const std::string        &filename,
    const std::function<void(dealii::ParameterHandler &,
                             const dealii::ParameterHandler *)> &declare,
    const std::vector<std::pair<std::string, std::string>>      &changes = {});

  /**
   * The text of a parameter file with entries replaced in place (the same
   * line numbers) or, where the file does not set them, appended in their
   * subsections. Paths are "Subsection/.../Entry".
   */
  std::string
  apply_changes(const std::string &text, const std::vector<std::pair<std::string, std::string>> &changes);

  /**
   * "" if `path` ("Subsection/.../Entry") names an entry declared in `prm`
   * or an item of a list entry (see list_item; values read from `values`,
   * default `prm`); otherwise the requirement for a message: the closest existing entries
   * and how to write a path.
   */
  std::string
  check_entry_path(const dealii::ParameterHandler &prm,
                   const std::string              &path,
                   const dealii::ParameterHandler *values = nullptr);

  /**
   * The expression of item `name` of an entry that lists 'name = expression;
   * ...' (such as 'Lumped system/Parameters'), if it has one. A change or a
   * study may name such an item by the path 'Lumped system/Parameters/NAME'
   * and give it a number.
   */
  std::optional<std::string>
  list_item(const std::string &entry_value, const std::string &name);

  /**
   * "" if the entry at `path` (declared) accepts `value` by its pattern,
   * otherwise what is wrong and what is allowed. The entry keeps its value.
   */
  std::string
  check_entry_value(dealii::ParameterHandler &prm, const std::string &path, const std::string &value);

  /**
   * Refuse two changes (--set) of the same entry (paths compared part by
   * part, blanks collapsed): an InputError quotes both.
   */
  void
  check_distinct_changes(const std::vector<std::pair<std::string, std::string>> &changes);

  /** "" unless `value` holds parameter-file syntax ('#', '\\', a line break). */
  std::string
  check_entry_value_text(const std::string &value);

  /** The `n` declared entry paths closest to `path` (edit distance, case ignored). */
  std::vector<std::string>
  closest_entries(const dealii::ParameterHandler &prm, const std::string &path, unsigned int n);

  /**
   * Whether `prm` declares `entry` in the subsection `path` (from the top
   * level). ParameterHandler::get on an undeclared entry is an assertion
   * (an abort in a Debug build): ask this first where the path comes from
   * the user.
   */
  bool
  entry_declared(const dealii::ParameterHandler &prm, const std::vector<std::string> &path, const std::string &entry);

  /**
   * Refuse a parameter file that sets an entry twice in the same
   * subsection (ParameterHandler would keep the last value silently): an
   * InputError names the subsection, the entry and both lines.
   */
  void
  check_duplicate_entries(std::istream &in, const std::string &filename);

  /**
   * The edit (Levenshtein) distance of two texts, letters compared without
   * case: to suggest the closest existing name for a misspelt one.
   */
  std::size_t
  edit_distance(const std::string &a, const std::string &b);

  /**
   * Translate an exception of ParameterHandler::parse_input on `file_text`
   * (the text of `filename` as parsed, the same line numbers) into an
   * InputError: a value its pattern refuses names the subsection, entry, value
   * and what is allowed; a misspelt subsection or entry names the subsection,
   * the line and the 3 closest entries of `prm` (closest_entries, as for
   * --set).
   */
  [[noreturn]] void
  rethrow_parse_error(const dealii::ParameterHandler &prm,
                      const std::string              &filename,
                      const std::string              &file_text,
                      const std::exception           &e);
} // namespace hamilton

#endif
