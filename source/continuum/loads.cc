// The distributed loads of the continuum as functions, and their check before
// anything is solved: a traction or body force that is not a finite number
// where it is integrated (sqrt of a negative number, a division by zero, an
// overflow) would make every result NaN.

#include "solver.h"

#include <hamilton/base/format.h>
#include <hamilton/base/input.h>

#include <cctype>

namespace hamilton::continuum
{
  namespace
  {
    /** The "Additional information" of a deal.II exception on one line. */
    std::string
    additional_information(const std::exception &e)
    {
      std::string text = e.what();
      if (const auto at = text.find("Additional information:"); at != std::string::npos)
        text = text.substr(at + 23);
      if (const auto end = text.find("Stacktrace"); end != std::string::npos)
        text = text.substr(0, end);
      std::string compact;
      for (const char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)))
          compact += c;
        else if (!compact.empty() && compact.back() != ' ')
          compact += ' ';
      while (!compact.empty() && compact.back() == ' ')
        compact.pop_back();
      return compact;
    }

    std::string
    expression_of(const std::vector<std::string> &components, const unsigned int dim)
    {
      std::string expression;
      for (unsigned int d = 0; d < dim; ++d)
        expression += (d == 0 ? "" : ";") + components[d];
      return expression;
    }
  } // namespace

  template <int dim>
  std::unique_ptr<FunctionParser<dim>>
  Solver<dim>::load_function(const std::vector<std::string> &components,
                             const ContinuumModel::Load     &load,
                             const std::string              &entry) const
  {
    auto              function   = std::make_unique<FunctionParser<dim>>(dim);
    const std::string expression = expression_of(components, dim);
    try
      {
        function->initialize(dim == 2 ? "x,y" : "x,y,z", expression, {{"pi", M_PI}});
      }
    catch (const std::exception &e)
      {
        input_error("Continuum/Loads/" + load.name, entry, "'" + expression + "'",
                    "is not a valid list of expressions of " + std::string(dim == 2 ? "x, y" : "x, y, z") + ": " +
                      additional_information(e));
      }
    return function;
  }

  template <int dim>
  void
  Solver<dim>::check_loads() const
  {
    const QGauss<dim>     quadrature(fe.degree + 1);
    const QGauss<dim - 1> face_quadrature(fe.degree + 1);
    FEValues<dim>         fe_values(fe, quadrature, update_quadrature_points);
    FEFaceValues<dim>     face_values(fe, face_quadrature, update_quadrature_points);
    const char           *names[] = {"x", "y", "z"};
    const std::string     unit[]  = {"N/m^2", "N/m^3"};

    // the first value that is not finite on this rank: the message
    std::string problem;
    const auto  check = [&](const ContinuumModel::Load &load, const std::string &entry, const std::string &where,
                           const FunctionParser<dim> &function, const Point<dim> &p) {
      for (unsigned int c = 0; c < dim && problem.empty(); ++c)
        if (const double value = function.value(p, c); !std::isfinite(value))
          {
            std::string at;
            for (unsigned int d = 0; d < dim; ++d)
              at += (d == 0 ? "" : ", ") + format_significant(p[d], 8);
            problem = "In subsection 'Continuum/Loads/" + load.name + "': '" + entry + "' = '" +
                      expression_of(entry == "Traction" ? load.traction : load.body_force, dim) +
                      "': its " + names[c] + " component is " + format_significant(value) + " at (" + at +
                      ") m, a quadrature point " + where + ". A load must be a finite number (" +
                      unit[entry == "Traction" ? 0 : 1] + ") wherever it acts: correct the expression there (a "
                      "square root or logarithm of a negative number, a division by zero, an overflow).";
          }
    };
    for (const auto &load : model.loads)
      if (load.kind == ContinuumModel::Load::Kind::traction)
        {
          const auto                   function = load_function(load.traction, load, "Traction");
          std::set<types::boundary_id> ids;
          for (const auto &s : load.surfaces)
            ids.insert(boundary_ids.at(s));
          for (const auto &cell : dof_handler.active_cell_iterators())
            if (cell->is_locally_owned())
              for (const unsigned int f : cell->face_indices())
                if (cell->face(f)->at_boundary() && ids.count(cell->face(f)->boundary_id()) != 0 && problem.empty())
                  {
                    face_values.reinit(cell, f);
                    for (const unsigned int q : face_values.quadrature_point_indices())
                      check(load, "Traction", "of its surfaces", *function, face_values.quadrature_point(q));
                  }
        }
      else if (load.kind == ContinuumModel::Load::Kind::body_force)
        {
          const auto                   function = load_function(load.body_force, load, "Body force");
          std::set<types::material_id> ids;
          for (const auto &[id, r] : region_of)
            if (std::find(load.regions.begin(), load.regions.end(), model.regions[r].name) != load.regions.end())
              ids.insert(id);
          for (const auto &cell : dof_handler.active_cell_iterators())
            if (cell->is_locally_owned() && ids.count(cell->material_id()) != 0 && problem.empty())
              {
                fe_values.reinit(cell);
                for (const unsigned int q : fe_values.quadrature_point_indices())
                  check(load, "Body force", "of its regions", *function, fe_values.quadrature_point(q));
              }
        }
    // every rank stops with the same message (the lowest rank's)
    for (const auto &message : Utilities::MPI::all_gather(comm, problem))
      if (!message.empty())
        throw InputError(message);
  }

#define HAMILTON_INSTANTIATE(dim)                                                                                  \
  template std::unique_ptr<FunctionParser<dim>> Solver<dim>::load_function(                                        \
    const std::vector<std::string> &, const ContinuumModel::Load &, const std::string &) const;                   \
  template void Solver<dim>::check_loads() const;

  HAMILTON_INSTANTIATE(2)
  HAMILTON_INSTANTIATE(3)
#undef HAMILTON_INSTANTIATE
} // namespace hamilton::continuum
