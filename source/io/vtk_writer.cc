// The deformed structure as VTK XML frames (one .vtu per time, each carrying its time) and their
// .pvd record. A frame's content is formed here once (io/vtu_form.h) and turned into text by the
// build's one back end (VTK's writer, or deal.II's where VTK is not installed: CMake option
// VIBROIMPACT_WITH_VTK); every file is then written and checked here (io/write_error.h).
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/vtk_writer.h>
#include <vibroimpact/io/write_error.h>

#include "vtu_form.h"

#include <cstdio>
#include <sstream>

namespace vibroimpact::io
{
  namespace
  {
    void write_frame_file(const VtuFrame &frame, const std::filesystem::path &file)
    {
#ifdef VIBROIMPACT_WITH_VTK
      write_file(file, vtu_text_by_vtk(frame));
#else
      write_file(file, vtu_text_by_dealii(frame));
#endif
    }
  } // namespace

  const char *vtu_writer_name() { return VIBROIMPACT_VTU_WRITER; } // CMake names it, for --version too

  VtkSeries::VtkSeries(std::filesystem::path directory,
                       std::string           basename,
                       model::OutputGeometry geometry)
    : directory_(std::move(directory))
    , basename_(std::move(basename))
    , geometry_(std::move(geometry))
  {}

  VtuFrame form_frame(const model::OutputGeometry                            &geometry,
                      const double                                              time,
                      const std::vector<std::pair<std::string, model::Vector>> &dof_fields,
                      const std::vector<std::pair<std::string, model::Vector>> &contact_fields)
  {
    const std::size_t n_points = geometry.points.size();
    VtuFrame          frame;
    frame.points = geometry.points;
    frame.cells  = geometry.segments;
    frame.cell_arrays.push_back({"body", 1, true, {geometry.segment_body.begin(), geometry.segment_body.end()}});
    for (const auto &[name, dofs] : dof_fields)
      {
        const model::Vector sampled = geometry.displacement_map * dofs;
        frame.point_arrays.push_back({name, 3, false, {sampled.data(), sampled.data() + 3 * n_points}});
      }
    if (geometry.rotation_map.rows() > 0) // a Timoshenko beam's θ, a scalar a point
      for (const auto &[name, dofs] : dof_fields)
        {
          const model::Vector rotation = geometry.rotation_map * dofs;
          frame.point_arrays.push_back({name + "_rotation", 1, false, {rotation.data(), rotation.data() + n_points}});
        }
    for (const auto &[name, values] : contact_fields)
      {
        VtuArray array{name, 1, false, std::vector<double>(n_points, 0.0)};
        for (std::size_t c = 0; c < geometry.contact_points.size() && c < std::size_t(values.size()); ++c)
          array.values[geometry.contact_points[c]] = values[c];
        frame.point_arrays.push_back(std::move(array));
      }
    frame.time = time;
    return frame;
  }

  void VtkSeries::write_frame(const double                                                time,
                              const std::vector<std::pair<std::string, model::Vector>> &dof_fields,
                              const std::vector<std::pair<std::string, model::Vector>> &contact_fields)
  {
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "-%05u.vtu", n_frames());
    const std::string file = basename_ + suffix;
    write_frame_file(form_frame(geometry_, time, dof_fields, contact_fields), directory_ / file);
    frames_.emplace_back(time, file);
  }

  void VtkSeries::write_record() const
  {
    // deal.II's write_pvd_record's layout, with each time as the shortest text that reads back as
    // the frame's double (deal.II's 12 digits made 7 steps of 1e-3 "0.007", not the .vtu's and
    // the .xdmf's 0.006999999999999999) and without its date line, so that a rerun's record is
    // the same file.
    std::ostringstream record;
    record << "<?xml version=\"1.0\"?>\n"
           << "<VTKFile type=\"Collection\" version=\"0.1\" ByteOrder=\"LittleEndian\">\n  <Collection>\n";
    for (const auto &[time, file] : frames_)
      record << "    <DataSet timestep=\"" << CsvWriter::format(time) << "\" group=\"\" part=\"0\" file=\"" << file
             << "\"/>\n";
    record << "  </Collection>\n</VTKFile>\n";
    write_file(directory_ / (basename_ + ".pvd"), record.str());
  }

  void write_markers(const std::filesystem::path             &file,
                     const std::vector<std::array<double, 3>> &points,
                     const std::vector<double>                &values,
                     const std::string                        &value_name)
  {
    VtuFrame frame;
    frame.points = points;
    VtuArray array{value_name, 1, false, {}};
    for (unsigned int i = 0; i < points.size(); ++i)
      {
        frame.cells.push_back({{i, i}});
        array.values.push_back(i < values.size() ? values[i] : 0.0);
      }
    frame.point_arrays.push_back(std::move(array));
    write_frame_file(frame, file);
  }
} // namespace vibroimpact::io
