#include <hamilton/base/files.h>
#include <hamilton/output/writers.h>

#include <deal.II/base/data_out_base.h>

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkHexahedron.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <cerrno>

namespace hamilton
{
  void
  write_vtu_series(const BeamModel          &model,
                   const Discretization     &discretization,
                   const std::vector<Field> &fields,
                   unsigned int              samples_per_element,
                   const std::string        &directory,
                   const std::string        &group)
  {
    const std::vector<double> xs = discretization.sample_points(samples_per_element);

    // Geometry: for each x-interval and each layer of the segment there, a
    // hexahedron. Points are not shared between intervals so that layers of
    // different segments meet cleanly at joints.
    vtkNew<vtkPoints>           points;
    vtkNew<vtkUnstructuredGrid> grid;
    vtkNew<vtkIntArray>         layer_index;
    layer_index->SetName("layer");
    struct PointRef
    {
      double x, z;
    };
    std::vector<PointRef> refs;
    for (std::size_t i = 0; i + 1 < xs.size(); ++i)
      {
        const double   x0 = xs[i], x1 = xs[i + 1];
        const Segment &segment = model.segment_at((x0 + x1) / 2);
        const auto    &section = segment.section;
        for (std::size_t l = 0; l < section.layers.size(); ++l)
          {
            const double half_width = section.layers[l].width / 2;
            const auto [z0, z1]     = section.layer_bounds[l];
            vtkNew<vtkHexahedron> hex;
            const double corner[8][3] = {{x0, -half_width, z0},
                                         {x1, -half_width, z0},
                                         {x1, half_width, z0},
                                         {x0, half_width, z0},
                                         {x0, -half_width, z1},
                                         {x1, -half_width, z1},
                                         {x1, half_width, z1},
                                         {x0, half_width, z1}};
            for (unsigned int c = 0; c < 8; ++c)
              {
                const vtkIdType id = points->InsertNextPoint(corner[c]);
                refs.push_back({corner[c][0], corner[c][2]});
                hex->GetPointIds()->SetId(c, id);
              }
            grid->InsertNextCell(hex->GetCellType(), hex->GetPointIds());
            layer_index->InsertNextValue(static_cast<int>(l));
          }
      }
    grid->SetPoints(points);
    grid->GetCellData()->AddArray(layer_index);

    std::vector<std::pair<double, std::string>> records;
    for (const auto &field : fields)
      {
        vtkNew<vtkDoubleArray> displacement;
        displacement->SetName("displacement");
        displacement->SetNumberOfComponents(3);
        vtkNew<vtkDoubleArray> deflection;
        deflection->SetName("w");
        for (const auto &p : refs)
          {
            double w, slope, curvature;
            discretization.evaluate(field.values, p.x, w, slope, curvature);
            const double u[3] = {-p.z * slope, 0., w};
            displacement->InsertNextTuple(u);
            deflection->InsertNextValue(w);
          }
        grid->GetPointData()->RemoveArray("displacement");
        grid->GetPointData()->RemoveArray("w");
        grid->GetPointData()->AddArray(displacement);
        grid->GetPointData()->AddArray(deflection);
        grid->GetPointData()->SetActiveVectors("displacement");

        const std::string name = field.name + ".vtu";
        vtkNew<vtkXMLUnstructuredGridWriter> writer;
        writer->SetFileName((directory + "/" + name).c_str());
        writer->SetInputData(grid);
        writer->SetDataModeToAscii();
        errno = 0;
        if (writer->Write() != 1 || writer->GetErrorCode() != 0)
          output_error(directory + "/" + name, errno);
        records.emplace_back(field.index, name);
      }

    write_file(directory + "/" + group + ".pvd",
               [&](std::ostream &pvd) { dealii::DataOutBase::write_pvd_record(pvd, records); });
  }
} // namespace hamilton
