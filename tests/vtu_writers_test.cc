// Both VTU back ends (VTK's writer and deal.II's DataOutBase) write the frame they are
// given: the same points, cells, arrays (names, components, values) and time. deal.II's is always
// compiled into this test; VTK's where the build has VTK. deal.II's text is read back by a small
// reader of our own (it always exists); where VTK is present, both texts are also read by VTK's
// XML reader, the one ParaView uses.
#include <vibroimpact/io/vtk_writer.h>

#include "vtu_form.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#ifdef VIBROIMPACT_TEST_WITH_VTK
#  include <vtkCellData.h>
#  include <vtkDataArray.h>
#  include <vtkFieldData.h>
#  include <vtkIdList.h>
#  include <vtkNew.h>
#  include <vtkPointData.h>
#  include <vtkUnstructuredGrid.h>
#  include <vtkXMLUnstructuredGridReader.h>
#endif

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace vibroimpact;

namespace
{
  // A grid as read back from a .vtu text, whoever wrote and whoever read it.
  struct ReadGrid
  {
    std::vector<std::array<double, 3>>                                 points;
    std::vector<std::vector<unsigned int>>                             cells;
    std::map<std::string, std::pair<unsigned int, std::vector<double>>> point_arrays, cell_arrays;
    std::optional<double>                                              time;
  };

  // A drawn structure with what real models have: two bodies' polylines one after the other, a
  // point mass (a vertex), and a contact vertex on the first polyline's point (same place, its
  // own values).
  model::OutputGeometry test_geometry()
  {
    model::OutputGeometry g;
    for (unsigned int i = 0; i < 5; ++i) // beam 0 along x
      g.points.push_back({{0.25 * i, 0.0, 0.0}}), g.point_body.push_back(0);
    for (unsigned int i = 0; i < 4; ++i) // rod 1 along y, from the beam's tip
      g.points.push_back({{1.0, -0.1 - 0.3 * i, 0.0}}), g.point_body.push_back(1);
    g.points.push_back({{2.0, 0.5, 0.0}}), g.point_body.push_back(2); // point mass
    g.points.push_back({{0.5, 0.0, 0.0}}), g.point_body.push_back(0); // contact on the beam
    g.contact_points = {10};
    for (unsigned int p = 0; p < 4; ++p)
      g.segments.push_back({{p, p + 1}}), g.segment_body.push_back(0);
    for (unsigned int p = 5; p < 8; ++p)
      g.segments.push_back({{p, p + 1}}), g.segment_body.push_back(1);
    g.segments.push_back({{9, 9}}), g.segment_body.push_back(2);
    g.segments.push_back({{10, 10}}), g.segment_body.push_back(0);
    // Each point moves with its own DoF, along a direction that differs from point to point.
    g.displacement_map.resize(3 * g.points.size(), g.points.size());
    for (unsigned int p = 0; p < g.points.size(); ++p)
      for (unsigned int c = 0; c < 3; ++c)
        g.displacement_map.insert(3 * p + c, p) = 1.0 + 0.1 * c - 0.05 * p;
    return g;
  }

  io::VtuFrame test_frame()
  {
    model::Vector u(11), v(11), impulse(1);
    for (int i = 0; i < 11; ++i)
      u[i] = 1e-3 * std::sin(1.0 + i), v[i] = -0.7 * std::cos(0.3 * i);
    impulse[0] = 0.0123456789;
    return io::form_frame(test_geometry(), 0.123456789012345678, {{"displacement", u}, {"velocity", v}},
                          {{"contact_impulse", impulse}});
  }

  // ---------------------------------------------------------------- our own reader (deal.II's text)
  std::vector<unsigned char> base64(const std::string &text)
  {
    static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::vector<unsigned char> bytes;
    unsigned int               bits = 0, n_bits = 0;
    for (const char c : text)
      {
        const auto k = alphabet.find(c);
        if (k == std::string::npos)
          continue; // padding, line breaks
        bits = (bits << 6) | unsigned(k), n_bits += 6;
        if (n_bits >= 8)
          bytes.push_back((bits >> (n_bits - 8)) & 0xff), n_bits -= 8;
      }
    return bytes;
  }

  // deal.II's compressed binary array: base64 of the header {1 block, size, size, compressed
  // size} (four UInt32: 24 characters), then base64 of the zlib block.
  template <typename T>
  std::vector<T> decode(std::string text)
  {
    text.erase(std::remove_if(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c) != 0; }), text.end());
    const auto header = base64(text.substr(0, 24));
    uint32_t   sizes[4];
    std::memcpy(sizes, header.data(), sizeof sizes);
    EXPECT_EQ(sizes[0], 1u);
    const auto    packed = base64(text.substr(24));
    std::vector<T> values(sizes[1] / sizeof(T));
    uLongf        length = sizes[1];
    EXPECT_EQ(uncompress(reinterpret_cast<Bytef *>(values.data()), &length, packed.data(), packed.size()), Z_OK);
    return values;
  }

  // The value of attribute `name` in the tag that starts at `tag` ("" if it has none).
  std::string attribute(const std::string &text, std::size_t tag, const std::string &name)
  {
    const std::size_t close = text.find('>', tag);
    const std::size_t at    = text.find(" " + name + "=\"", tag);
    if (at == std::string::npos || at > close)
      return "";
    const std::size_t begin = at + name.size() + 3;
    return text.substr(begin, text.find('"', begin) - begin);
  }

  // deal.II's text: a FieldData TimeValue, then pieces of points, cells and point data.
  ReadGrid read_dealii_text(const std::string &text)
  {
    ReadGrid grid;
    std::vector<int32_t> connectivity, offsets;
    for (std::size_t tag = text.find("<DataArray"); tag != std::string::npos; tag = text.find("<DataArray", tag + 1))
      {
        const std::size_t begin   = text.find('>', tag) + 1;
        const std::string content = text.substr(begin, text.find('<', begin) - begin);
        const std::string name    = attribute(text, tag, "Name");
        const std::string n       = attribute(text, tag, "NumberOfComponents");
        if (name == "TimeValue")
          grid.time = std::stod(content);
        else if (name.empty()) // a piece's points: they continue the previous piece's
          {
            const auto xyz = decode<float>(content);
            for (std::size_t i = 0; i + 2 < xyz.size(); i += 3)
              grid.points.push_back({{xyz[i], xyz[i + 1], xyz[i + 2]}});
          }
        else if (name == "connectivity")
          connectivity = decode<int32_t>(content);
        else if (name == "offsets")
          {
            // A piece's point indices start at 0: shift them past the earlier pieces' points.
            offsets                    = decode<int32_t>(content);
            const std::size_t n_points = grid.points.size() - std::stoul(attribute(text, text.rfind("<Piece", tag), "NumberOfPoints"));
            for (std::size_t c = 0, first = 0; c < offsets.size(); first = offsets[c++])
              {
                grid.cells.emplace_back();
                for (auto k = first; k < std::size_t(offsets[c]); ++k)
                  grid.cells.back().push_back(static_cast<unsigned int>(n_points + connectivity[k]));
              }
          }
        else if (name != "types")
          {
            auto &target = grid.point_arrays[name];
            target.first = n.empty() ? 1 : std::stoul(n);
            for (const float value : decode<float>(content))
              target.second.push_back(value);
          }
      }
    return grid;
  }

#ifdef VIBROIMPACT_TEST_WITH_VTK
  // ---------------------------------------------------------------- VTK's reader (either text)
  ReadGrid read_by_vtk(const std::string &text)
  {
    vtkNew<vtkXMLUnstructuredGridReader> reader;
    reader->ReadFromInputStringOn();
    reader->SetInputString(text);
    reader->Update();
    vtkUnstructuredGrid *vtk = reader->GetOutput();
    ReadGrid             grid;
    for (vtkIdType i = 0; i < vtk->GetNumberOfPoints(); ++i)
      {
        double xyz[3];
        vtk->GetPoint(i, xyz);
        grid.points.push_back({{xyz[0], xyz[1], xyz[2]}});
      }
    for (vtkIdType c = 0; c < vtk->GetNumberOfCells(); ++c)
      {
        vtkNew<vtkIdList> ids;
        vtk->GetCellPoints(c, ids);
        grid.cells.emplace_back();
        for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k)
          grid.cells.back().push_back(static_cast<unsigned int>(ids->GetId(k)));
      }
    const auto take = [](vtkFieldData *data, auto &arrays) {
      for (int a = 0; a < data->GetNumberOfArrays(); ++a)
        {
          vtkDataArray *array  = data->GetArray(a);
          auto         &target = arrays[array->GetName()];
          target.first         = array->GetNumberOfComponents();
          for (vtkIdType t = 0; t < array->GetNumberOfTuples(); ++t)
            for (int c = 0; c < array->GetNumberOfComponents(); ++c)
              target.second.push_back(array->GetComponent(t, c));
        }
    };
    take(vtk->GetPointData(), grid.point_arrays);
    take(vtk->GetCellData(), grid.cell_arrays);
    if (vtkDataArray *time = vtk->GetFieldData()->GetArray("TimeValue"))
      grid.time = time->GetComponent(0, 0);
    return grid;
  }
#endif

  // ---------------------------------------------------------------- the comparison with the form
  bool near(double a, double b, double scale) { return std::abs(a - b) <= 1e-6 * scale; }

  // Every read cell is one of the frame's (same kind, same places), each frame cell is read once,
  // and every array holds the frame's values (to float precision) at the cell's points. A cell
  // array may come back as cell data (VTK) or as point data constant on the cell (deal.II).
  void expect_carries(const ReadGrid &grid, const io::VtuFrame &frame, const std::string &writer)
  {
    SCOPED_TRACE(writer);
    ASSERT_TRUE(grid.time.has_value());
    EXPECT_EQ(*grid.time, *frame.time) << "the time is written to the last digit";
    ASSERT_EQ(grid.cells.size(), frame.cells.size());
    std::vector<bool> used(frame.cells.size(), false);
    for (std::size_t r = 0; r < grid.cells.size(); ++r)
      {
        const auto &cell  = grid.cells[r];
        std::size_t match = frame.cells.size();
        for (std::size_t f = 0; f < frame.cells.size() && match == frame.cells.size(); ++f)
          {
            const auto &fc     = frame.cells[f];
            const bool  vertex = fc[0] == fc[1];
            bool        same   = !used[f] && cell.size() == (vertex ? 1u : 2u);
            for (std::size_t k = 0; same && k < cell.size(); ++k)
              for (unsigned int d = 0; d < 3; ++d)
                same = same && near(grid.points[cell[k]][d], frame.points[fc[k]][d], 1.0);
            if (same)
              match = f;
          }
        ASSERT_LT(match, frame.cells.size()) << "read cell " << r << " is none of the frame's";
        used[match] = true;
        for (const auto &array : frame.point_arrays)
          {
            ASSERT_EQ(grid.point_arrays.count(array.name), 1u) << array.name;
            const auto &[components, values] = grid.point_arrays.at(array.name);
            ASSERT_EQ(components, array.components) << array.name;
            double scale = 0.0;
            for (const double x : array.values)
              scale = std::max(scale, std::abs(x));
            for (std::size_t k = 0; k < cell.size(); ++k)
              for (unsigned int c = 0; c < components; ++c)
                EXPECT_TRUE(near(values[cell[k] * components + c],
                                 array.values[frame.cells[match][k] * components + c], scale))
                  << array.name << " at read cell " << r;
          }
        for (const auto &array : frame.cell_arrays)
          {
            const bool as_cells = grid.cell_arrays.count(array.name) == 1;
            ASSERT_TRUE(as_cells || grid.point_arrays.count(array.name) == 1) << array.name;
            const auto &[components, values] = as_cells ? grid.cell_arrays.at(array.name) : grid.point_arrays.at(array.name);
            ASSERT_EQ(components, array.components) << array.name;
            for (std::size_t k = 0; k < (as_cells ? 1 : cell.size()); ++k)
              EXPECT_EQ(values[(as_cells ? r : cell[k]) * components], array.values[match * components])
                << array.name << " at read cell " << r;
          }
      }
    EXPECT_EQ(grid.point_arrays.size() + grid.cell_arrays.size(), frame.point_arrays.size() + frame.cell_arrays.size())
      << "arrays the frame does not have";
  }
} // namespace

TEST(VtuWriters, DealIIsWriterCarriesTheFramesPointsArraysAndTime)
{
  const io::VtuFrame frame = test_frame();
  const ReadGrid     grid  = read_dealii_text(io::vtu_text_by_dealii(frame));
  expect_carries(grid, frame, "deal.II, read by our reader");
  // Points are shared along each polyline as in VTK's file: none is written twice here.
  EXPECT_EQ(grid.points.size(), frame.points.size());
}

#ifdef VIBROIMPACT_TEST_WITH_VTK
TEST(VtuWriters, BothWritersFramesReadByVtkCarryTheSamePointsArraysAndTime)
{
  const io::VtuFrame frame = test_frame();
  expect_carries(read_by_vtk(io::vtu_text_by_vtk(frame)), frame, "VTK, read by VTK");
  expect_carries(read_by_vtk(io::vtu_text_by_dealii(frame)), frame, "deal.II, read by VTK");
}
#endif

TEST(VtuWriters, TheBuildNamesItsWriter)
{
  const std::string name = io::vtu_writer_name();
#ifdef VIBROIMPACT_TEST_WITH_VTK
  EXPECT_NE(name.find("VTK"), std::string::npos) << name;
#else
  EXPECT_NE(name.find("deal.II"), std::string::npos) << name;
#endif
}

// The .pvd record lists every frame with its time to the last digit, as the .vtu's TimeValue and
// the .xdmf carry it: seven steps of 1e-3 are 0.006999999999999999, which deal.II's record (12
// digits) wrote as 0.007, so the .pvd's times were not the .xdmf's (seen opening both in ParaView).
TEST(VtuWriters, PvdRecordListsEachFramesTimeToTheLastDigit)
{
  const std::filesystem::path directory = std::filesystem::temp_directory_path() /
                                          ("vibroimpact-pvd-record-" + std::to_string(::getpid()));
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  std::vector<double> times;
  double              t = 0.0;
  for (int k = 0; k < 8; ++k, t += 1e-3)
    times.push_back(t);
  times.push_back(0.1 + 0.2);
  times.push_back(0.123456789012345678);
  io::VtkSeries series(directory, "solution", test_geometry());
  model::Vector u = model::Vector::Zero(11);
  for (const double time : times)
    series.write_frame(time, {{"displacement", u}});
  series.write_record();

  std::ifstream in(directory / "solution.pvd");
  std::string   text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<double> listed;
  for (auto at = text.find("timestep=\""); at != std::string::npos; at = text.find("timestep=\"", at + 1))
    listed.push_back(std::strtod(text.c_str() + at + 10, nullptr));
  ASSERT_EQ(listed.size(), times.size()) << text;
  for (std::size_t k = 0; k < times.size(); ++k)
    EXPECT_EQ(listed[k], times[k]) << "frame " << k << " in\n" << text;
  EXPECT_NE(text.find("file=\"solution-00009.vtu\""), std::string::npos) << text;
  EXPECT_EQ(text.find("<!--"), std::string::npos) << "a date line makes every rerun's record differ";
  std::filesystem::remove_all(directory);
}
