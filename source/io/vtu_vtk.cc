// The VTU back end on VTK's XML writer (builds with VIBROIMPACT_WITH_VTK): a VtuFrame becomes a
// vtkUnstructuredGrid written to memory, binary and zlib-compressed, as ParaView's own files are.
#include "vtu_form.h"

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
#include <vtkZLibDataCompressor.h>

#ifdef VIBROIMPACT_WITH_LIBDEFLATE
#include <libdeflate.h>
#endif

#include <stdexcept>

namespace vibroimpact::io
{
  namespace
  {
    vtkSmartPointer<vtkDataArray> vtk_array(const VtuArray &values)
    {
      vtkSmartPointer<vtkDataArray> array;
      if (values.integral)
        array = vtkSmartPointer<vtkIntArray>::New();
      else
        array = vtkSmartPointer<vtkDoubleArray>::New();
      array->SetName(values.name.c_str());
      array->SetNumberOfComponents(static_cast<int>(values.components));
      array->SetNumberOfTuples(static_cast<vtkIdType>(values.values.size() / values.components));
      for (std::size_t i = 0; i < values.values.size(); ++i)
        array->SetComponent(static_cast<vtkIdType>(i / values.components), static_cast<int>(i % values.components),
                            values.values[i]);
      return array;
    }

#ifdef VIBROIMPACT_WITH_LIBDEFLATE
    // VTK's zlib compressor with its streams formed by libdeflate at its fastest level, since
    // compression is much of a frame's cost and the frames most of the writer thread's
    // (doc/performance.md, "Output: records, frames and plots"): the same format (a .vtu still
    // names vtkZLibDataCompressor, whose reader inflates it), formed ~3.5 times faster than by
    // zlib's level 1 and a little smaller.
    class LibdeflateZLibCompressor : public vtkZLibDataCompressor // its class name stays VTK's
    {
    public:
      static LibdeflateZLibCompressor *New()
      {
        auto *compressor = new LibdeflateZLibCompressor;
        compressor->InitializeObjectBase();
        return compressor;
      }
      size_t GetMaximumCompressionSpace(const size_t size) override
      {
        return deflater_ ? libdeflate_zlib_compress_bound(deflater_, size)
                         : vtkZLibDataCompressor::GetMaximumCompressionSpace(size);
      }

    protected:
      LibdeflateZLibCompressor()
        : deflater_(libdeflate_alloc_compressor(1))
      {}
      ~LibdeflateZLibCompressor() override { libdeflate_free_compressor(deflater_); }
      // 0 when it does not fit, which VTK takes for a failure, as it does zlib's.
      size_t CompressBuffer(unsigned char const *data, const size_t size, unsigned char *compressed,
                            const size_t space) override
      {
        if (!deflater_)
          return vtkZLibDataCompressor::CompressBuffer(data, size, compressed, space);
        return libdeflate_zlib_compress(deflater_, data, size, compressed, space);
      }

    private:
      libdeflate_compressor *deflater_;
    };
#endif

    // zlib-format streams at the fastest level (doc/performance.md, "Output: records, frames and
    // plots"): a frame's compression was 80 % of its cost at VTK's default level (2.1e9 of 2.6e9
    // instructions for 101 frames of the six-support example) for files only 10-20 % larger.
    void compress_fast(vtkXMLUnstructuredGridWriter &writer)
    {
#ifdef VIBROIMPACT_WITH_LIBDEFLATE
      vtkNew<LibdeflateZLibCompressor> compressor;
      writer.SetCompressor(compressor);
#else
      writer.SetCompressorTypeToZLib();
      writer.SetCompressionLevel(1);
#endif
    }
  } // namespace

  std::string vtu_text_by_vtk(const VtuFrame &frame)
  {
    vtkNew<vtkUnstructuredGrid> grid;
    vtkNew<vtkPoints>           points; // VTK's default Float32 points, as ParaView writes them
    points->SetNumberOfPoints(static_cast<vtkIdType>(frame.points.size()));
    for (std::size_t i = 0; i < frame.points.size(); ++i)
      points->SetPoint(static_cast<vtkIdType>(i), frame.points[i].data());
    grid->SetPoints(points);

    grid->Allocate(static_cast<vtkIdType>(frame.cells.size()));
    for (const auto &cell : frame.cells)
      {
        vtkIdType ids[2] = {cell[0], cell[1]};
        if (cell[0] == cell[1])
          grid->InsertNextCell(VTK_VERTEX, 1, ids);
        else
          grid->InsertNextCell(VTK_LINE, 2, ids);
      }
    for (const auto &array : frame.cell_arrays)
      grid->GetCellData()->AddArray(vtk_array(array));
    for (const auto &array : frame.point_arrays)
      grid->GetPointData()->AddArray(vtk_array(array));
    if (frame.time)
      grid->GetFieldData()->AddArray(vtk_array({"TimeValue", 1, false, {*frame.time}}));

    // VTK 9.1 frees a wild pointer after a failed write to a file (a full disk, a size limit):
    // it writes into memory, and the caller writes the file and checks it.
    vtkNew<vtkXMLUnstructuredGridWriter> writer;
    writer->SetWriteToOutputString(true);
    writer->SetInputData(grid);
    writer->SetDataModeToBinary();
    compress_fast(*writer);
    if (writer->Write() != 1)
      throw std::runtime_error("VTK could not form a .vtu frame");
    return writer->GetOutputString();
  }
} // namespace vibroimpact::io
