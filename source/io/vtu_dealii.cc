// The VTU back end on deal.II's DataOutBase (builds without VTK, e.g. beside Debian's ParaView,
// whose python3-paraview conflicts with VTK's development package). Runs of line cells that follow
// each other and carry equal cell values become one patch with its points attached
// (points_are_available), so points are shared along a body as in VTK's file; vertices are patches
// of dimension 0. deal.II writes one dimension per piece: the file holds a piece of lines and a
// piece of vertices, which VTK's reader (and ParaView) joins into one grid. The time is our own
// FieldData line, named and typed as VTK's writer does ("TimeValue", Float64): deal.II's own
// (VtkFlags::time) is "TIME", Float32.
#include "vtu_form.h"

#include <deal.II/base/data_out_base.h>

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace vibroimpact::io
{
  namespace
  {
    using namespace dealii;
    using VectorRanges = std::vector<
      std::tuple<unsigned int, unsigned int, std::string, DataComponentInterpretation::DataComponentInterpretation>>;

    // A data row for every component of every point array, then every cell array.
    unsigned int n_rows(const VtuFrame &frame)
    {
      unsigned int rows = 0;
      for (const auto &array : frame.point_arrays)
        rows += array.components;
      for (const auto &array : frame.cell_arrays)
        rows += array.components;
      return rows;
    }

    // The values at one output point: its point arrays' tuples, then its cell's cell arrays.
    template <int dim>
    void fill_column(const VtuFrame &frame, unsigned int point, unsigned int cell, DataOutBase::Patch<dim, 3> &patch,
                     unsigned int column)
    {
      unsigned int row = 0;
      for (const auto &array : frame.point_arrays)
        for (unsigned int c = 0; c < array.components; ++c)
          patch.data(row++, column) = static_cast<float>(array.values[point * array.components + c]);
      for (const auto &array : frame.cell_arrays)
        for (unsigned int c = 0; c < array.components; ++c)
          patch.data(row++, column) = static_cast<float>(array.values[cell * array.components + c]);
    }

    bool same_cell_values(const VtuFrame &frame, unsigned int a, unsigned int b)
    {
      for (const auto &array : frame.cell_arrays)
        for (unsigned int c = 0; c < array.components; ++c)
          if (array.values[a * array.components + c] != array.values[b * array.components + c])
            return false;
      return true;
    }

    // Line cells [first, last] form a run: the points of one polyline.
    DataOutBase::Patch<1, 3> line_patch(const VtuFrame &frame, unsigned int first, unsigned int last)
    {
      DataOutBase::Patch<1, 3> patch;
      patch.reference_cell       = ReferenceCells::Line;
      patch.n_subdivisions       = last - first + 1;
      patch.points_are_available = true;
      const unsigned int rows    = n_rows(frame);
      patch.data.reinit(rows + 3, patch.n_subdivisions + 1);
      for (unsigned int k = 0; k <= patch.n_subdivisions; ++k)
        {
          const unsigned int cell  = first + (k == 0 ? 0 : k - 1);
          const unsigned int point = k == 0 ? frame.cells[first][0] : frame.cells[cell][1];
          fill_column(frame, point, cell, patch, k);
          for (unsigned int d = 0; d < 3; ++d)
            patch.data(rows + d, k) = static_cast<float>(frame.points[point][d]);
        }
      patch.vertices[0] = Point<3>(frame.points[frame.cells[first][0]][0], frame.points[frame.cells[first][0]][1],
                                   frame.points[frame.cells[first][0]][2]);
      patch.vertices[1] = Point<3>(frame.points[frame.cells[last][1]][0], frame.points[frame.cells[last][1]][1],
                                   frame.points[frame.cells[last][1]][2]);
      return patch;
    }

    DataOutBase::Patch<0, 3> vertex_patch(const VtuFrame &frame, unsigned int cell)
    {
      DataOutBase::Patch<0, 3> patch; // its reference cell is the vertex
      const unsigned int       point = frame.cells[cell][0];
      patch.vertices[0]              = Point<3>(frame.points[point][0], frame.points[point][1], frame.points[point][2]);
      patch.data.reinit(n_rows(frame), 1);
      fill_column(frame, point, cell, patch, 0);
      return patch;
    }

    // deal.II's names: one a component; arrays of 3 components are vectors.
    void name_data(const VtuFrame &frame, std::vector<std::string> &names, VectorRanges &vectors)
    {
      for (const auto *arrays : {&frame.point_arrays, &frame.cell_arrays})
        for (const auto &array : *arrays)
          {
            if (array.components != 1 && array.components != 3)
              throw std::logic_error("the VTU array " + array.name + " has neither 1 nor 3 components");
            if (array.components == 3)
              vectors.emplace_back(names.size(), names.size() + 2, array.name,
                                   DataComponentInterpretation::component_is_part_of_vector);
            names.insert(names.end(), array.components, array.name);
          }
    }
  } // namespace

  std::string vtu_text_by_dealii(const VtuFrame &frame)
  {
    std::vector<DataOutBase::Patch<1, 3>> lines;
    std::vector<DataOutBase::Patch<0, 3>> vertices;
    for (unsigned int c = 0; c < frame.cells.size(); ++c)
      if (frame.cells[c][0] == frame.cells[c][1])
        vertices.push_back(vertex_patch(frame, c));
      else
        {
          unsigned int last = c;
          while (last + 1 < frame.cells.size() && frame.cells[last + 1][0] != frame.cells[last + 1][1] &&
                 frame.cells[last + 1][0] == frame.cells[last][1] && same_cell_values(frame, last, last + 1))
            ++last;
          lines.push_back(line_patch(frame, c, last));
          lines.back().patch_index = lines.size() - 1;
          c = last;
        }
    for (unsigned int v = 0; v < vertices.size(); ++v)
      vertices[v].patch_index = v;

    std::vector<std::string> names;
    VectorRanges             vectors;
    name_data(frame, names, vectors);
    DataOutBase::VtkFlags flags; // time left unset: deal.II would write it as "TIME", Float32
    flags.print_date_and_time = false;
    flags.compression_level   = DataOutBase::VtkFlags::best_speed; // as the VTK back end: zlib level 1

    std::ostringstream out;
    DataOutBase::write_vtu_header(out, flags);
    if (frame.time)
      {
        char line[160];
        std::snprintf(line, sizeof line,
                      "<FieldData>\n<DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" "
                      "format=\"ascii\">%.17g</DataArray>\n</FieldData>\n",
                      *frame.time);
        out << line;
      }
    if (!lines.empty())
      DataOutBase::write_vtu_main(lines, names, vectors, flags, out);
    if (!vertices.empty())
      DataOutBase::write_vtu_main(vertices, names, vectors, flags, out);
    DataOutBase::write_vtu_footer(out);
    return out.str();
  }
} // namespace vibroimpact::io
