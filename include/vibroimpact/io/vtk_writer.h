// ParaView output: a series of .vtu frames (each carrying its time) and the .pvd record that
// lists them. The structure is drawn on the model's OutputGeometry, i.e. sampled finer than the
// mesh with each body's own shape functions.
#pragma once

#include <vibroimpact/model/structural_model.h>

#include <array>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::io
{
  class VtkSeries
  {
  public:
    // Frames go to directory/basename-NNNNN.vtu, the record to directory/basename.pvd.
    VtkSeries(std::filesystem::path directory, std::string basename, model::OutputGeometry geometry);

    // DoF vectors named here (displacement, velocity, a mode shape) are drawn through the
    // geometry's displacement map as 3-component point data; the first one also deforms the
    // drawn points when ParaView's "Warp by vector" is applied to it.
    // contact_fields: one value per contact (e.g. the impulse), drawn on the contact points and
    // zero elsewhere.
    void write_frame(double                                                    time,
                     const std::vector<std::pair<std::string, model::Vector>> &dof_fields,
                     const std::vector<std::pair<std::string, model::Vector>> &contact_fields = {});

    // (Re)writes the .pvd record for the frames written so far.
    void write_record() const;

    unsigned int n_frames() const { return static_cast<unsigned int>(frames_.size()); }

  private:
    std::filesystem::path                      directory_;
    std::string                                basename_;
    model::OutputGeometry                      geometry_;
    std::vector<std::pair<double, std::string>> frames_;
  };

  // The VTU writer this build uses, for `vibroimpact --version`: VTK's, or deal.II's where the
  // build has no VTK (CMake option VIBROIMPACT_WITH_VTK; the files carry the same content).
  const char *vtu_writer_name();

  // Marker points (contact locations, probes) with a name index, for drawing obstacles.
  void write_markers(const std::filesystem::path             &file,
                     const std::vector<std::array<double, 3>> &points,
                     const std::vector<double>                &values,
                     const std::string                        &value_name);
} // namespace vibroimpact::io
