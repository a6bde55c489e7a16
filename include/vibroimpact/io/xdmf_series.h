// ParaView output for long records: every frame in one HDF5 file (basename.h5) and one XDMF
// file (basename.xdmf) that ParaView opens as a single time series, with the same point arrays
// and times as the .vtu frames and .pvd record of io::VtkSeries. The mesh is stored once; a
// frame is three small datasets, /frames/NNNNN/{displacement, velocity, contact_impulse}.
#pragma once

#include <vibroimpact/model/structural_model.h>

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::io
{
  class Hdf5Records;

  class XdmfSeries
  {
  public:
    XdmfSeries(std::filesystem::path directory, std::string basename, model::OutputGeometry geometry);
    ~XdmfSeries();

    // As VtkSeries::write_frame: DoF vectors drawn through the displacement map (3 components
    // a point), contact fields on the contact points and zero elsewhere.
    void write_frame(double                                                    time,
                     const std::vector<std::pair<std::string, model::Vector>> &dof_fields,
                     const std::vector<std::pair<std::string, model::Vector>> &contact_fields = {});

    // Closes the .h5 and writes the .xdmf that lists every frame; call once, at the end.
    void write_record();

    unsigned int n_frames() const { return static_cast<unsigned int>(times_.size()); }

  private:
    std::filesystem::path        directory_;
    std::string                  basename_;
    model::OutputGeometry        geometry_;
    std::unique_ptr<Hdf5Records> file_;
    std::vector<double>          times_;
    std::vector<std::pair<std::string, bool>> arrays_; // name, vector (3 components) or scalar
  };
} // namespace vibroimpact::io
