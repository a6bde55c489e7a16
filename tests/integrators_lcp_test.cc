// The Siconos LCP wrapper on small problems with known solutions, for every algorithm.
#include <vibroimpact/contact/lcp_solver.h>

#include <gtest/gtest.h>

using vibroimpact::contact::LcpAlgorithm;
using vibroimpact::contact::LcpSolver;

namespace
{
  const LcpAlgorithm all_algorithms[] = {LcpAlgorithm::lemke, LcpAlgorithm::enumerative, LcpAlgorithm::pgs};
}

TEST(IntegratorsLcp, BothContactsActive)
{
  // [2 1; 1 2] z = (5, 6): z = (4/3, 7/3), w = 0.
  Eigen::MatrixXd M(2, 2);
  M << 2, 1, 1, 2;
  const Eigen::Vector2d q(-5, -6);
  for (const auto algorithm : all_algorithms)
    {
      const auto s = LcpSolver(algorithm, 1e-12).solve(M, q);
      ASSERT_FALSE(s.failed) << to_string(algorithm) << ": " << s.message;
      EXPECT_EQ(s.algorithm, algorithm);
      EXPECT_EQ(s.attempts, 1u);
      EXPECT_NEAR(s.z[0], 4.0 / 3.0, 1e-10) << to_string(algorithm);
      EXPECT_NEAR(s.z[1], 7.0 / 3.0, 1e-10) << to_string(algorithm);
      EXPECT_NEAR(s.w.norm(), 0.0, 1e-10);
      EXPECT_LE(s.error, 1e-12);
    }
}

TEST(IntegratorsLcp, OneContactSeparates)
{
  // q = (1, -2): z = (0, 1), w = (2, 0).
  Eigen::MatrixXd M(2, 2);
  M << 2, 1, 1, 2;
  const Eigen::Vector2d q(1, -2);
  for (const auto algorithm : all_algorithms)
    {
      const auto s = LcpSolver(algorithm).solve(M, q);
      ASSERT_FALSE(s.failed) << s.message;
      EXPECT_NEAR(s.z[0], 0.0, 1e-12);
      EXPECT_NEAR(s.z[1], 1.0, 1e-10);
      EXPECT_NEAR(s.w[0], 2.0, 1e-10);
      EXPECT_NEAR(s.w[1], 0.0, 1e-10);
    }
}

TEST(IntegratorsLcp, NonNegativeQHasZeroImpulse)
{
  Eigen::MatrixXd M(1, 1);
  M << 3;
  const auto s = LcpSolver().solve(M, Eigen::VectorXd::Constant(1, 0.5));
  ASSERT_FALSE(s.failed);
  EXPECT_EQ(s.z[0], 0.0);
  EXPECT_NEAR(s.w[0], 0.5, 1e-15);
}

TEST(IntegratorsLcp, UnsolvableProblemIsReportedNotHidden)
{
  // w = −z − 1 < 0 for every z >= 0: no solution; every solver is tried and the failure shows.
  Eigen::MatrixXd M(1, 1);
  M << -1;
  const auto s = LcpSolver(LcpAlgorithm::lemke).solve(M, Eigen::VectorXd::Constant(1, -1.0));
  EXPECT_TRUE(s.failed);
  EXPECT_EQ(s.attempts, 3u);
  EXPECT_FALSE(s.message.empty());
}

TEST(IntegratorsLcp, AlgorithmNames)
{
  using vibroimpact::contact::lcp_algorithm_from_string;
  EXPECT_EQ(lcp_algorithm_from_string("lemke"), LcpAlgorithm::lemke);
  EXPECT_EQ(lcp_algorithm_from_string("enum"), LcpAlgorithm::enumerative);
  EXPECT_EQ(lcp_algorithm_from_string("pgs"), LcpAlgorithm::pgs);
  EXPECT_THROW(lcp_algorithm_from_string("path"), std::invalid_argument);
}
