#ifndef hamilton_lumped_component_h
#define hamilton_lumped_component_h

#include <hamilton/base/registry.h>
#include <hamilton/lumped/system.h>

namespace hamilton::lumped
{
  /**
   * A library component (DC motor, resistor, pendulum, ...): it contributes
   * coordinates, parameters and energy, dissipation, force and constraint
   * terms to a System, nothing else. Each registers itself by its lowercase
   * name and declares its entries in the component's own subsection
   * "Lumped system/Components/<name>".
   */
  class Component
  {
  public:
    virtual ~Component() = default;

    /**
     * Read the entries of component `name` (the section is inside its
     * subsection) and add its terms to the system.
     */
    virtual void
    add_to(System &system, Section &section, const std::string &name) const = 0;
  };

  using ComponentRegistry = Registry<Component>;

  /**
   * Helpers for components: a parameter entry (a number or an expression of
   * the system's parameters), registered as the parameter "<symbol>_<name>"
   * so that equations print with it.
   */
  GiNaC::ex
  component_parameter(System            &system,
                      Section           &section,
                      const std::string &entry,
                      const std::string &symbol,
                      const std::string &component,
                      bool               positive);

  /** An expression entry of a component, in the system's symbols. */
  GiNaC::ex
  component_expression(System &system, Section &section, const std::string &entry, bool energy);
} // namespace hamilton::lumped

#endif
