// The deformed structure as VTK XML frames (one .vtu per time, each carrying its time) and their
// .pvd record; every file is checked after writing (io/write_error.h).
#include <vibroimpact/io/vtk_writer.h>
#include <vibroimpact/io/write_error.h>

#include <deal.II/base/data_out_base.h>

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::io
{
  namespace
  {
    // VTK 9.1 frees a wild pointer after a failed write (a full disk, a size limit): it writes
    // into memory, and the file is written and checked here.
    void write_grid(vtkUnstructuredGrid *grid, const std::filesystem::path &file)
    {
      vtkNew<vtkXMLUnstructuredGridWriter> writer;
      writer->SetWriteToOutputString(true);
      writer->SetInputData(grid);
      writer->SetDataModeToBinary();
      if (writer->Write() != 1)
        throw std::runtime_error("VTK could not form " + file.string());
      write_file(file, writer->GetOutputString());
    }

    vtkNew<vtkDoubleArray> time_array(const double time)
    {
      vtkNew<vtkDoubleArray> t;
      t->SetName("TimeValue");
      t->SetNumberOfTuples(1);
      t->SetValue(0, time);
      return t;
    }
  } // namespace

  VtkSeries::VtkSeries(std::filesystem::path directory,
                       std::string           basename,
                       model::OutputGeometry geometry)
    : directory_(std::move(directory))
    , basename_(std::move(basename))
    , geometry_(std::move(geometry))
  {}

  void VtkSeries::write_frame(const double                                                time,
                              const std::vector<std::pair<std::string, model::Vector>> &dof_fields,
                              const std::vector<std::pair<std::string, model::Vector>> &contact_fields)
  {
    vtkNew<vtkUnstructuredGrid> grid;
    vtkNew<vtkPoints>           points;
    points->SetNumberOfPoints(geometry_.points.size());
    for (std::size_t i = 0; i < geometry_.points.size(); ++i)
      points->SetPoint(i, geometry_.points[i].data());
    grid->SetPoints(points);

    grid->Allocate(geometry_.segments.size());
    for (const auto &segment : geometry_.segments)
      {
        vtkIdType ids[2] = {segment[0], segment[1]};
        if (segment[0] == segment[1]) // a point mass or a contact point
          grid->InsertNextCell(VTK_VERTEX, 1, ids);
        else
          grid->InsertNextCell(VTK_LINE, 2, ids);
      }
    vtkNew<vtkIntArray> body;
    body->SetName("body");
    for (const unsigned int b : geometry_.segment_body)
      body->InsertNextValue(static_cast<int>(b));
    grid->GetCellData()->AddArray(body);

    for (const auto &[name, dofs] : dof_fields)
      {
        const model::Vector    sampled = geometry_.displacement_map * dofs;
        vtkNew<vtkDoubleArray> array;
        array->SetName(name.c_str());
        array->SetNumberOfComponents(3);
        array->SetNumberOfTuples(geometry_.points.size());
        for (std::size_t i = 0; i < geometry_.points.size(); ++i)
          array->SetTuple3(i, sampled[3 * i], sampled[3 * i + 1], sampled[3 * i + 2]);
        grid->GetPointData()->AddArray(array);
      }
    for (const auto &[name, values] : contact_fields)
      {
        vtkNew<vtkDoubleArray> array;
        array->SetName(name.c_str());
        array->SetNumberOfTuples(geometry_.points.size());
        array->Fill(0.0);
        for (std::size_t c = 0; c < geometry_.contact_points.size() && c < std::size_t(values.size()); ++c)
          array->SetValue(geometry_.contact_points[c], values[c]);
        grid->GetPointData()->AddArray(array);
      }
    grid->GetFieldData()->AddArray(time_array(time));

    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "-%05u.vtu", n_frames());
    const std::string file = basename_ + suffix;
    write_grid(grid, directory_ / file);
    frames_.emplace_back(time, file);
  }

  void VtkSeries::write_record() const
  {
    std::ostringstream record; // deal.II's writer crashes on a failing stream: give it memory
    dealii::DataOutBase::write_pvd_record(record, frames_);
    write_file(directory_ / (basename_ + ".pvd"), record.str());
  }

  void write_markers(const std::filesystem::path             &file,
                     const std::vector<std::array<double, 3>> &points,
                     const std::vector<double>                &values,
                     const std::string                        &value_name)
  {
    vtkNew<vtkUnstructuredGrid> grid;
    vtkNew<vtkPoints>           vtk_points;
    vtkNew<vtkDoubleArray>      array;
    array->SetName(value_name.c_str());
    grid->Allocate(points.size());
    for (std::size_t i = 0; i < points.size(); ++i)
      {
        const vtkIdType id = vtk_points->InsertNextPoint(points[i].data());
        grid->InsertNextCell(VTK_VERTEX, 1, &id);
        array->InsertNextValue(i < values.size() ? values[i] : 0.0);
      }
    grid->SetPoints(vtk_points);
    grid->GetPointData()->AddArray(array);
    write_grid(grid, file);
  }
} // namespace vibroimpact::io
