// One .vtu frame's content in a form that knows no writer: points, cells (lines and vertices),
// point and cell arrays, and the frame's time. io/vtk_writer.cc forms it once; the build's one
// back end turns it into the file's text (VTK's XML writer, or deal.II's DataOutBase where VTK's
// development package cannot be installed beside ParaView: Debian's python3-paraview conflicts
// with it).
#pragma once

#include <vibroimpact/model/structural_model.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  // Named values, `components` a tuple (a point's or a cell's), tuples one after the other.
  struct VtuArray
  {
    std::string         name;
    unsigned int        components = 1;
    bool                integral   = false; // written as Int32 by VTK (a body index)
    std::vector<double> values;
  };

  struct VtuFrame
  {
    std::vector<std::array<double, 3>>       points;
    std::vector<std::array<unsigned int, 2>> cells; // point indices; equal: a vertex, else a line
    std::vector<VtuArray>                    point_arrays;
    std::vector<VtuArray>                    cell_arrays;
    std::optional<double>                    time; // written as the field "TimeValue"
  };

  // A frame of the structure drawn on its geometry (io::VtkSeries::write_frame): the DoF fields
  // as 3-component point arrays through the displacement map, the contact fields on the contact
  // points (zero elsewhere), each segment's body as a cell array, and the time.
  VtuFrame form_frame(const model::OutputGeometry                            &geometry,
                      double                                                    time,
                      const std::vector<std::pair<std::string, model::Vector>> &dof_fields,
                      const std::vector<std::pair<std::string, model::Vector>> &contact_fields);

  // The frame as VTK's XML writer writes it (binary, zlib): source/io/vtu_vtk.cc.
  std::string vtu_text_by_vtk(const VtuFrame &frame);

  // The frame as deal.II's DataOutBase writes it: source/io/vtu_dealii.cc. DataOutBase has no
  // cell data and writes Float32: cell arrays become point arrays (constant on each cell, so a
  // point shared by cells whose values differ is written once per run of equal cells), and
  // values are rounded to float.
  std::string vtu_text_by_dealii(const VtuFrame &frame);
} // namespace vibroimpact::io
