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
      ContactFrame f;
      f.candidate = candidate;
      f.gap       = gap;
      f.outward   = nu;
      f.angle     = std::atan2(nu[1], nu[0]);
      f.normal    = -(nu[0] * support.transverse[0] + nu[1] * support.transverse[1]);
      f.tangent   = -nu[1] * support.transverse[0] + nu[0] * support.transverse[1];
      if (support.twist.nonZeros() > 0)
        f.tangent += support.outer_radius * support.twist;
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
