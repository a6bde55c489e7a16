// The geometry of tube supports in space (model/spatial_support.h): gaps and local contact
// frames at a displacement, the one rule every solver and statistic reads.
#include <vibroimpact/model/spatial_support.h>

#include <cmath>

namespace vibroimpact::model
{
  unsigned int SpatialSupport::n_candidates() const
  {
    return shape == Shape::annular ? 1u : static_cast<unsigned int>(sides.size());
  }

  Eigen::Matrix<double, 3, 4> frame_coefficients(const SpatialSupport &support, const std::array<double, 2> &nu)
  {
    Eigen::Matrix<double, 3, 4> c = Eigen::Matrix<double, 3, 4>::Zero();
    c(0, 0) = -nu[0], c(0, 1) = -nu[1];
    c(1, 0) = -nu[1], c(1, 1) = nu[0];
    if (support.twist.nonZeros() > 0)
      c(1, 3) = support.outer_radius;
    if (support.axial.nonZeros() > 0)
      c(2, 2) = 1.0;
    return c;
  }

  std::array<double, 2> relative_position(const SpatialSupport &support, const Eigen::VectorXd &u)
  {
    return {{support.transverse[0].dot(u) - support.centre[0], support.transverse[1].dot(u) - support.centre[1]}};
  }

  namespace
  {
    // The frame of a wall with outward normal ν at gap g.
    ContactFrame frame_of(const SpatialSupport &support, const unsigned int candidate, const std::array<double, 2> &nu,
                          const double gap)
    {
      const Eigen::Matrix<double, 3, 4> c = frame_coefficients(support, nu);
      ContactFrame f;
      f.candidate = candidate;
      f.gap       = gap;
      f.outward   = nu;
      f.angle     = std::atan2(nu[1], nu[0]);
      f.normal    = c(0, 0) * support.transverse[0] + c(0, 1) * support.transverse[1];
      f.tangent   = c(1, 0) * support.transverse[0] + c(1, 1) * support.transverse[1];
      if (c(1, 3) != 0.0)
        f.tangent += c(1, 3) * support.twist;
      f.axial = support.axial;
      return f;
    }
  } // namespace

  std::vector<ContactFrame> contact_frames(const SpatialSupport &support, const Eigen::VectorXd &u)
  {
    const auto                r = relative_position(support, u);
    std::vector<ContactFrame> frames;
    if (support.shape == SpatialSupport::Shape::annular)
      {
        const double rho = std::hypot(r[0], r[1]);
        const std::array<double, 2> nu = rho > 0 ? std::array<double, 2>{{r[0] / rho, r[1] / rho}} :
                                                   std::array<double, 2>{{1.0, 0.0}};
        frames.push_back(frame_of(support, 0, nu, support.clearance - rho));
        return frames;
      }
    frames.reserve(support.sides.size());
    for (unsigned int k = 0; k < support.sides.size(); ++k)
      {
        const auto &side = support.sides[k];
        frames.push_back(frame_of(support, k, side.normal,
                                  side.distance - (side.normal[0] * r[0] + side.normal[1] * r[1])));
      }
    return frames;
  }
} // namespace vibroimpact::model
