#ifndef hamilton_discretization_finite_elements_h
#define hamilton_discretization_finite_elements_h

#include <hamilton/discretization/discretization.h>
#include <hamilton/elements/c1_beam_element.h>

#include <memory>

namespace hamilton
{
  /**
   * C1 finite elements of degree p >= 3 (C1BeamElement). The mesh has a
   * vertex at every key point of the model (segment ends, supports, masses,
   * point loads); each interval between key points gets a share of the
   * requested number of elements proportional to its length (at least one).
   * Supports are imposed by removing the constrained unknowns.
   */
  class FiniteElements : public Discretization
  {
  public:
    static void
    declare_parameters(dealii::ParameterHandler &prm);
    void
    parse_parameters(Section &section) override;

    /** Set the discretization directly (tests, sweeps). */
    void
    set(unsigned int n_elements, unsigned int degree);

    void
    setup(const BeamModel &model) override;
    unsigned int
    n_dofs() const override;
    std::unique_ptr<Operators>
    assemble() const override;
    void
    evaluate(const dealii::Vector<double> &u,
             double                        x,
             double                       &w,
             double                       &slope,
             double                       &curvature) const override;
    std::vector<double>
    sample_points(unsigned int per_element) const override;
    void
    assemble_geometric_stiffness(const std::function<double(double)> &axial_force,
                                 dealii::SparseMatrix<double>        &matrix) const override;
    std::string
    description() const override;

    /** Mesh vertices (m). */
    const std::vector<double> &
    vertices() const
    {
      return nodes;
    }

  private:
    unsigned int requested_elements = 20;
    unsigned int degree             = 3;

    const BeamModel                 *model = nullptr;
    std::unique_ptr<C1BeamElement>   element;
    std::vector<double>              nodes;
    std::vector<double>              slope_scale; ///< per node (m)
    std::vector<int>                 free_index;  ///< full -> free, -1 if fixed
    unsigned int                     n_free = 0;

    unsigned int
    n_full_dofs() const;
    /** Full indices of the local unknowns of element e. */
    std::vector<unsigned int>
    full_dofs(unsigned int e) const;
    /** Add element e's share of every electrode's coupling and capacitance. */
    void
    add_electrodes(unsigned int                  e,
                   const Segment                &segment,
                   const dealii::Vector<double> &curvature,
                   const std::vector<int>       &reaction_of,
                   Operators                    &ops) const;

    /** The element containing x. */
    unsigned int
    find_element(double x) const;
  };
} // namespace hamilton

#endif
