// Frames as one HDF5 file and an XDMF 3 index of it (io/xdmf_series.h).
#include <vibroimpact/io/hdf5_records.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/io/xdmf_series.h>

#include <cstdio>
#include <fstream>

namespace vibroimpact::io
{
  namespace
  {
    std::string frame_group(const std::size_t k)
    {
      char name[32];
      std::snprintf(name, sizeof name, "frames/%05zu", k);
      return name;
    }
  } // namespace

  XdmfSeries::XdmfSeries(std::filesystem::path directory, std::string basename, model::OutputGeometry geometry)
    : directory_(std::move(directory))
    , basename_(std::move(basename))
    , geometry_(std::move(geometry))
    , file_(std::make_unique<Hdf5Records>(directory_ / (basename_ + ".h5")))
  {
    std::vector<double> points;
    for (const auto &p : geometry_.points)
      points.insert(points.end(), p.begin(), p.end());
    file_->write_matrix("mesh", "points", points, 3, false);
    std::vector<unsigned int> segments;
    for (const auto &s : geometry_.segments) // a point mass is a segment of one point twice
      segments.insert(segments.end(), s.begin(), s.end());
    file_->write_matrix("mesh", "segments", segments, 2);
    file_->write_matrix("mesh", "body", geometry_.segment_body, 1);
  }

  XdmfSeries::~XdmfSeries() = default;

  void XdmfSeries::write_frame(const double                                                time,
                               const std::vector<std::pair<std::string, model::Vector>> &dof_fields,
                               const std::vector<std::pair<std::string, model::Vector>> &contact_fields)
  {
    const std::string group = frame_group(times_.size());
    const std::size_t n     = geometry_.points.size();
    if (times_.empty())
      {
        for (const auto &field : dof_fields)
          arrays_.emplace_back(field.first, true);
        if (geometry_.rotation_map.rows() > 0) // a Timoshenko beam's θ, a scalar a point
          for (const auto &field : dof_fields)
            arrays_.emplace_back(field.first + "_rotation", false);
        for (const auto &field : contact_fields)
          arrays_.emplace_back(field.first, false);
      }
    for (const auto &[name, dofs] : dof_fields)
      {
        const model::Vector sampled = geometry_.displacement_map * dofs;
        file_->write_matrix(group, name, std::vector<double>(sampled.data(), sampled.data() + 3 * n), 3, false);
      }
    if (geometry_.rotation_map.rows() > 0)
      for (const auto &[name, dofs] : dof_fields)
        {
          const model::Vector rotation = geometry_.rotation_map * dofs;
          file_->write_matrix(group, name + "_rotation", std::vector<double>(rotation.data(), rotation.data() + n), 1,
                              false);
        }
    for (const auto &[name, values] : contact_fields)
      {
        std::vector<double> on_points(n, 0.0);
        for (std::size_t c = 0; c < geometry_.contact_points.size() && c < std::size_t(values.size()); ++c)
          on_points[geometry_.contact_points[c]] = values[c];
        file_->write_matrix(group, name, on_points, 1, false);
      }
    times_.push_back(time);
  }

  void XdmfSeries::write_record()
  {
    file_->close();
    const std::string h5 = basename_ + ".h5:/", n = std::to_string(geometry_.points.size()),
                      m  = std::to_string(geometry_.segments.size());
    const auto        path = directory_ / (basename_ + ".xdmf");
    std::ofstream     out(path);
    out.precision(17);
    out << "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n<Domain>\n"
        << "<Grid Name=\"" << basename_ << "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
    for (std::size_t k = 0; k < times_.size(); ++k)
      {
        out << "<Grid Name=\"frame " << k << "\" GridType=\"Uniform\">\n<Time Value=\"" << times_[k] << "\"/>\n"
            << "<Topology TopologyType=\"Polyline\" NodesPerElement=\"2\" NumberOfElements=\"" << m << "\">"
            << "<DataItem Dimensions=\"" << m << " 2\" NumberType=\"UInt\" Precision=\"4\" Format=\"HDF\">" << h5
            << "mesh/segments</DataItem></Topology>\n"
            << "<Geometry GeometryType=\"XYZ\"><DataItem Dimensions=\"" << n
            << " 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << h5 << "mesh/points</DataItem></Geometry>\n"
            << "<Attribute Name=\"body\" AttributeType=\"Scalar\" Center=\"Cell\"><DataItem Dimensions=\"" << m
            << "\" NumberType=\"UInt\" Precision=\"4\" Format=\"HDF\">" << h5 << "mesh/body</DataItem></Attribute>\n";
        for (const auto &[name, vector] : arrays_)
          out << "<Attribute Name=\"" << name << "\" AttributeType=\"" << (vector ? "Vector" : "Scalar")
              << "\" Center=\"Node\"><DataItem Dimensions=\"" << n << (vector ? " 3" : "")
              << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << h5 << frame_group(k) << "/" << name
              << "</DataItem></Attribute>\n";
        out << "</Grid>\n";
      }
    out << "</Grid>\n</Domain>\n</Xdmf>\n";
    check_written(out, path);
  }
} // namespace vibroimpact::io
