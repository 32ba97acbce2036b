#include <hamilton/base/files.h>
#include <hamilton/base/pvd.h>
#include <hamilton/analyses/modal.h>
#include <hamilton/output/writers.h>

#include <deal.II/base/data_out_base.h>

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkHexahedron.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <algorithm>
#include <cerrno>

namespace hamilton
{
  void
  write_vtu_series(const BeamModel          &model,
                   const Discretization     &discretization,
                   const std::vector<Field> &fields,
                   unsigned int              samples_per_element,
                   const std::string        &directory,
                   const std::string        &group,
                   const AnalysisResult     *result)
  {
    const std::vector<double> xs = discretization.sample_points(samples_per_element);

    // Geometry: for each x-interval and each layer of the segment there, a
    // hexahedron. Points are not shared between intervals so that layers of
    // different segments meet cleanly at joints.
    vtkNew<vtkPoints>           points;
    vtkNew<vtkUnstructuredGrid> grid;
    vtkNew<vtkIntArray>         layer_index;
    layer_index->SetName("layer");
    // every layer by name: "segment/layer", numbered in the order met along x
    vtkNew<vtkStringArray> layer_name, layer_names;
    layer_name->SetName("layer_name");
    layer_names->SetName("layer_names");
    vtkNew<vtkIntArray> layer_id;
    layer_id->SetName("layer_id");
    std::vector<std::string> names;
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
            const std::string name = segment.name + "/" + section.layers[l].name;
            layer_name->InsertNextValue(name);
            if (std::find(names.begin(), names.end(), name) == names.end())
              {
                names.push_back(name);
                layer_names->InsertNextValue(name);
              }
            layer_id->InsertNextValue(static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin()));
          }
      }
    grid->SetPoints(points);
    grid->GetCellData()->AddArray(layer_index);
    grid->GetCellData()->AddArray(layer_name);
    grid->GetCellData()->AddArray(layer_id);

    // the modes' frequencies (short circuit; open circuit and k_eff with
    // electrodes) as FieldData of each file, TIME the frequency, CYCLE the
    // mode number
    const auto *modal = dynamic_cast<const ModalResult *>(result);
    const auto  mode_of = [&](const Field &field) -> const ModalResult::Mode * {
      if (modal == nullptr)
        return nullptr;
      for (const auto &m : modal->modes)
        if ("mode_" + std::to_string(m.index) == field.name)
          return &m;
      return nullptr;
    };
    const auto number = [](const std::string &name, double value) {
      vtkNew<vtkDoubleArray> a;
      a->SetName(name.c_str());
      a->InsertNextValue(value);
      return a;
    };

    std::vector<std::pair<double, std::string>> records, by_frequency;
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
        vtkNew<vtkFieldData> metadata;
        metadata->AddArray(layer_names);
        if (const auto *mode = mode_of(field))
          {
            metadata->AddArray(number("TIME", mode->frequency_hz));
            vtkNew<vtkIntArray> cycle;
            cycle->SetName("CYCLE");
            cycle->InsertNextValue(static_cast<int>(mode->index));
            metadata->AddArray(cycle);
            metadata->AddArray(number("mode", mode->index));
            metadata->AddArray(number("frequency_hz", mode->frequency_hz));
            if (!modal->capacitances.empty())
              {
                metadata->AddArray(number("frequency_open_circuit_hz", mode->frequency_open_circuit_hz));
                metadata->AddArray(number("k_eff", mode->k_eff));
              }
          }
        grid->SetFieldData(metadata);

        const std::string name = field.name + ".vtu";
        // VTK formats the file in memory and write_file() writes it: VTK 9.1's
        // writer, when the file system refuses a write (EFBIG, ENOSPC),
        // deletes uninitialized position arrays (DeletePositionArrays) and
        // corrupts the heap (a crash at exit instead of the message)
        vtkNew<vtkXMLUnstructuredGridWriter> writer;
        writer->WriteToOutputStringOn();
        writer->SetInputData(grid);
        writer->SetDataModeToAscii();
        if (writer->Write() != 1 || writer->GetErrorCode() != 0)
          output_error(directory + "/" + name, ENOMEM);
        write_file(directory + "/" + name, [&](std::ostream &file) { file << writer->GetOutputString(); });
        records.emplace_back(field.index, name);
        if (const auto *mode = mode_of(field))
          by_frequency.emplace_back(mode->frequency_hz, name);
      }

    write_file(directory + "/" + group + ".pvd",
               [&](std::ostream &pvd) { write_pvd(pvd, records); });
    // the same files with the frequency as ParaView's time, if the
    // frequencies tell the modes apart (not two rigid-body modes at 0 Hz)
    bool distinct = by_frequency.size() == records.size();
    for (std::size_t i = 1; i < by_frequency.size(); ++i)
      distinct = distinct && by_frequency[i].first > by_frequency[i - 1].first;
    if (distinct && !by_frequency.empty())
      write_file(directory + "/" + group + "_by_frequency.pvd",
                 [&](std::ostream &pvd) { write_pvd(pvd, by_frequency); });
  }
} // namespace hamilton
