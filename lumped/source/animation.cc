#include <hamilton/base/files.h>
#include <hamilton/base/pvd.h>
#include <hamilton/lumped/animation.h>

#include <deal.II/base/data_out_base.h>

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkStringArray.h>
#include <vtkXMLPolyDataWriter.h>

#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace hamilton::lumped
{
  Animation::Animation(const System &s, const std::string &dir, double frame_interval)
    : system(s)
    , directory(dir)
    , interval(frame_interval)
  {
    GiNaC::lst symbols{system.time};
    for (const auto &f : system.time_functions)
      symbols.append(f.first);
    for (const auto &c : system.coordinates)
      symbols.append(c.position);
    const auto          parameters = system.parameter_values();
    std::vector<GiNaC::ex> xy;
    for (const auto &line : system.drawing)
      for (const auto &[x, y] : line.points)
        {
          xy.push_back(x.subs(parameters));
          xy.push_back(y.subs(parameters));
        }
    values.resize(xy.size());
    arguments.resize(symbols.nops());
    // interpreted: a few evaluations per frame need no C compiler
    points = std::make_unique<CanonicalLists>(std::vector<std::vector<GiNaC::ex>>{xy}, symbols);
    std::error_code error;
    std::filesystem::create_directories(std::filesystem::path(directory) / "animation", error);
    if (error)
      output_error((std::filesystem::path(directory) / "animation").string(), error.value());
  }

  void
  Animation::add(const std::vector<double> &row)
  {
    const double t = row[0];
    if (t < next_time - 1e-9 * interval)
      return;
    const auto start = std::chrono::steady_clock::now();
    next_time += interval * (1 + std::floor((t - next_time) / interval + 1e-9));
    const unsigned int u = system.time_functions.size(), n = system.coordinates.size();
    arguments[0] = t;
    for (unsigned int k = 0; k < u; ++k)
      arguments[1 + k] = system.time_functions[k].second(t);
    std::copy(row.begin() + 1, row.begin() + 1 + n, arguments.begin() + 1 + u);
    points->evaluate(0, arguments.data(), values.data());

    vtkNew<vtkPoints>      vtk_points;
    vtkNew<vtkCellArray>   lines;
    vtkNew<vtkIntArray>    part;
    vtkNew<vtkStringArray> names;
    part->SetName("part");
    names->SetName("part_names");
    unsigned int k = 0;
    for (unsigned int l = 0; l < system.drawing.size(); ++l)
      {
        const auto &line = system.drawing[l];
        lines->InsertNextCell(line.points.size());
        for (unsigned int p = 0; p < line.points.size(); ++p, k += 2)
          lines->InsertCellPoint(vtk_points->InsertNextPoint(values[k], values[k + 1], 0.));
        part->InsertNextValue(l);
        names->InsertNextValue(line.name);
      }
    vtkNew<vtkPolyData> data;
    data->SetPoints(vtk_points);
    data->SetLines(lines);
    data->GetCellData()->AddArray(part);
    data->GetFieldData()->AddArray(names);
    char name[64];
    std::snprintf(name, sizeof(name), "animation/frame_%05zu.vtp", frames.size());
    vtkNew<vtkXMLPolyDataWriter> writer;
    writer->SetFileName((std::filesystem::path(directory) / name).c_str());
    writer->SetInputData(data);
    errno = 0;
    if (writer->Write() != 1 || writer->GetErrorCode() != 0)
      output_error((std::filesystem::path(directory) / name).string(), errno);
    frames.emplace_back(t, name);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  nlohmann::json
  Animation::finish() const
  {
    write_file((std::filesystem::path(directory) / "animation.pvd").string(),
               [&](std::ostream &pvd) { write_pvd(pvd, frames); });
    nlohmann::json parts = nlohmann::json::array();
    for (const auto &line : system.drawing)
      parts.push_back(line.name);
    return {{"file", "animation.pvd"}, {"frames", frames.size()}, {"frame_interval_s", interval}, {"parts", parts},
            {"writing_s", seconds}};
  }
} // namespace hamilton::lumped
