// The geometry of tube supports in space (model/spatial_support.h): gaps, the per-step
// linearisation of the annular gap, and the local frames (n, t1, t2) with the twist's R θ̇.
#include <vibroimpact/model/spatial_support.h>

#include <gtest/gtest.h>

#include <cmath>

using namespace vibroimpact;
using model::SpatialSupport;

namespace
{
  // A point with DoFs (r1, r2, x, θ): each row picks one.
  model::SparseRowVector pick(const int dof)
  {
    model::SparseRowVector row(4);
    row.insert(dof) = 1.0;
    return row;
  }

  SpatialSupport point_support(const SpatialSupport::Shape shape)
  {
    SpatialSupport s;
    s.shape        = shape;
    s.transverse   = {{pick(0), pick(1)}};
    s.axial        = pick(2);
    s.twist        = pick(3);
    s.outer_radius = 0.01;
    s.centre       = {{1e-4, -2e-4}};
    s.clearance    = 1e-3;
    return s;
  }
} // namespace

TEST(SpatialSupport, AnnularGapIsClearanceMinusRadiusAndItsRowIsTheGradient)
{
  const auto      s = point_support(SpatialSupport::Shape::annular);
  Eigen::VectorXd u(4);
  u << 1e-4 + 0.6e-3, -2e-4 + 0.9e-3, 0.0, 0.0; // |r − c| = 1.0817e-3: penetrating
  const auto f = model::contact_frames(s, u);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NEAR(f[0].gap, 1e-3 - std::hypot(0.6e-3, 0.9e-3), 1e-18);
  EXPECT_NEAR(f[0].angle, std::atan2(0.9, 0.6), 1e-14);
  // g(u + du) − g(u) − normal·du = O(|du|²/ρ): the linearisation a step uses.
  for (const double eps : {1e-6, 1e-7})
    {
      Eigen::VectorXd du(4);
      du << 0.3 * eps, -0.8 * eps, 0.0, 0.0;
      const double g1  = model::contact_frames(s, Eigen::VectorXd(u + du))[0].gap;
      const double err = std::abs(g1 - f[0].gap - f[0].normal.dot(du));
      const double rho = std::hypot(0.6e-3, 0.9e-3);
      EXPECT_LT(err, 0.6 * eps * eps / rho) << eps;
      EXPECT_GT(err, 0.1 * eps * eps / rho) << eps; // the curvature term is there: not linear
    }
}

TEST(SpatialSupport, FrameIsOrthonormalInThePlaneAndTheTwistSlidesTheSurface)
{
  const auto      s = point_support(SpatialSupport::Shape::annular);
  Eigen::VectorXd u(4);
  u << 0.0, 0.0, 0.0, 0.0;
  u[0] = s.centre[0] - 0.5e-3, u[1] = s.centre[1] + 0.5e-3; // ν = (−1, 1)/√2
  const auto f = model::contact_frames(s, u)[0];
  // n = −ν, t1 = e_x × ν = (−ν2, ν1): orthogonal, unit, right-handed with e_x.
  const double n1 = f.normal.coeff(0), n2 = f.normal.coeff(1), t1 = f.tangent.coeff(0), t2 = f.tangent.coeff(1);
  EXPECT_NEAR(n1 * t1 + n2 * t2, 0.0, 1e-15);
  EXPECT_NEAR(n1 * n1 + n2 * n2, 1.0, 1e-15);
  EXPECT_NEAR(t1 * t1 + t2 * t2, 1.0, 1e-15);
  EXPECT_NEAR(n1, 1 / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(n2, -1 / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(t1, -1 / std::sqrt(2.0), 1e-15); // −ν2
  EXPECT_NEAR(t2, -1 / std::sqrt(2.0), 1e-15); // ν1
  // A pure twist rate θ̇ moves the contact point R θ̇ along t1, and nothing along n or e_x.
  Eigen::VectorXd v = Eigen::VectorXd::Zero(4);
  v[3]              = 2.0;
  EXPECT_NEAR(f.tangent.dot(v), s.outer_radius * 2.0, 1e-15);
  EXPECT_EQ(f.normal.dot(v), 0.0);
  EXPECT_EQ(f.axial.dot(v), 0.0);
  EXPECT_TRUE(s.three_dimensional());
}

TEST(SpatialSupport, PolygonSidesAreHalfPlanesWithExactLinearGaps)
{
  auto s  = point_support(SpatialSupport::Shape::polygonal);
  s.twist = model::SparseRowVector(4); // no torsion: the tangent is the centreline's only
  // A trefoil of three sides at 90°, 210°, 330°, each at distance 1e-3.
  for (const double deg : {90.0, 210.0, 330.0})
    s.sides.push_back({{{std::cos(deg * M_PI / 180), std::sin(deg * M_PI / 180)}}, 1e-3});
  ASSERT_EQ(s.n_candidates(), 3u);
  Eigen::VectorXd u = Eigen::VectorXd::Zero(4);
  u[0]              = s.centre[0];
  u[1]              = s.centre[1] + 1.5e-3; // 0.5e-3 into the top side, clear of the others
  const auto f      = model::contact_frames(s, u);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_NEAR(f[0].gap, -0.5e-3, 1e-15);
  EXPECT_NEAR(f[1].gap, 1e-3 + 0.75e-3, 1e-15);
  EXPECT_NEAR(f[2].gap, 1e-3 + 0.75e-3, 1e-15);
  Eigen::VectorXd du(4);
  du << 2e-4, -3e-4, 0.0, 0.0;
  const auto f1 = model::contact_frames(s, Eigen::VectorXd(u + du));
  for (unsigned int k = 0; k < 3; ++k)
    EXPECT_NEAR(f1[k].gap, f[k].gap + f[k].normal.dot(du), 1e-18) << k;
  EXPECT_EQ(f[0].tangent.coeff(3), 0.0);
}
