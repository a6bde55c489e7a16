// Shooting on the event-driven period map: its Jacobian against finite differences of the map,
// and converged orbits that are periodic when simulated again for ten periods.
#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/periodic/moreau_jean_flow.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include "test_support.h"

using namespace vibroimpact;
using periodic::Matrix;
using periodic::Vector;

namespace
{
  periodic::LinearImpactFlow chain_flow(const double restitution)
  {
    auto description                    = test_cases::two_dof_chain();
    description.contacts[0].restitution = restitution;
    static std::vector<std::unique_ptr<model::StructuralModel>> models; // outlive the flows
    models.push_back(std::make_unique<model::StructuralModel>(structure::build_model(description)));
    return periodic::LinearImpactFlow(*models.back(), {});
  }
} // namespace

// The exact Jacobian (saltation matrices at the impacts, block exponential for α) against central
// differences of the map itself, on an orbit segment with two impacts.
TEST(PeriodicShooting, EventDrivenJacobianMatchesFiniteDifferencesThroughImpacts)
{
  const auto   flow = chain_flow(1.0);
  const Vector x0   = flow.linear_mode_state(1, 3.0 * flow.grazing_energy(1));
  const double T = 1.3 * flow.linear_period(1), alpha = 0.01;
  const auto   result = flow.flow(x0, T, alpha, true);
  ASSERT_GE(result.events.size(), 2u);

  const double h     = 1e-6;
  Matrix       fd(4, 4);
  for (int k = 0; k < 4; ++k)
    {
      Vector xp = x0, xm = x0;
      xp[k] += h;
      xm[k] -= h;
      fd.col(k) = (flow.flow(xp, T, alpha, false).x - flow.flow(xm, T, alpha, false).x) / (2 * h);
    }
  EXPECT_LT((result.jacobian - fd).norm(), 1e-6 * fd.norm()) << result.jacobian << "\n\n" << fd;
  const Vector fd_T = (flow.flow(x0, T + h, alpha, false).x - flow.flow(x0, T - h, alpha, false).x) / (2 * h);
  EXPECT_LT((result.d_period - fd_T).norm(), 1e-6 * fd_T.norm());
  const Vector fd_a = (flow.flow(x0, T, alpha + h, false).x - flow.flow(x0, T, alpha - h, false).x) / (2 * h);
  EXPECT_LT((result.d_unfolding - fd_a).norm(), 1e-6 * fd_a.norm());
}

// The e = 1 family leaving the first linear mode: every point converged below the tolerance,
// α = 0, energy conserved, the trivial multiplier 1 twice, and periodic over ten periods.
TEST(PeriodicShooting, ElasticFamilyOfTheTwoDofChainIsPeriodicOverTenPeriods)
{
  const auto                     flow = chain_flow(1.0);
  periodic::ContinuationSettings settings;
  settings.mode       = 1;
  settings.max_points = 20;
  settings.max_energy = 20 * flow.grazing_energy(1);
  const auto branch   = periodic::continue_free_family(flow, settings);
  ASSERT_GE(branch.points.size(), 10u) << branch.stop_reason;
  for (const auto &p : branch.points)
    {
      EXPECT_LT(p.residual, settings.tolerance);
      EXPECT_LT(std::abs(p.unfolding), 1e-8);
      EXPECT_GE(p.impacts, 1u);
      // Ten periods of the map: a stable orbit stays within the tolerance; an unstable one may
      // drift from its residual as fast as its largest multiplier allows, and no faster.
      Vector x = p.state;
      for (int k = 0; k < 10; ++k)
        x = flow.flow(x, p.period, 0.0, false).x;
      const double growth = std::pow(std::max(1.0, p.max_multiplier), 10);
      EXPECT_LT((x - p.state).norm(), settings.tolerance * growth * p.state.norm())
        << "E = " << p.energy << ", max |mu| = " << p.max_multiplier;
      // The trivial multiplier: the flow direction is an eigenvector of the monodromy, eigenvalue 1.
      const Matrix monodromy = flow.flow(p.state, p.period, 0.0, true).jacobian;
      const Vector f         = flow.vector_field(p.state);
      EXPECT_LT((monodromy * f - f).norm(), 1e-8 * f.norm());
      EXPECT_LT(std::abs((monodromy - Matrix::Identity(4, 4)).determinant()), 1e-8 * monodromy.norm());
    }
  std::cerr << branch.stop_reason << ", " << branch.points.size() << " points, " << branch.flow_evaluations
            << " flow evaluations\n";
  for (const auto &p : branch.points)
    std::cerr << p.energy << " " << p.frequency << " impacts " << p.impacts << " newton " << p.newton_iterations
              << " |mu|max " << p.max_multiplier << "\n";
}

// The Moreau–Jean map's Jacobian along its active sets against central differences of the map
// (the active sets do not change under the small perturbation: the map is locally affine).
TEST(PeriodicShooting, MoreauJeanJacobianMatchesFiniteDifferencesAwayFromActiveSetChanges)
{
  auto description                    = test_cases::two_dof_chain();
  description.contacts[0].restitution = 1.0;
  const auto                      model = structure::build_model(description);
  integrators::MoreauJeanSettings mj;
  const periodic::MoreauJeanFlow  flow(model, mj, 400);
  const auto                      start = flow.one_impact_orbit(1, 2.0 * flow.grazing_energy(1));
  ASSERT_TRUE(start.has_value());
  const Vector x0 = start->first;
  const double T  = start->second, alpha = 0.0;
  const auto   result = flow.flow(x0, T, alpha, true);
  ASSERT_GE(result.events.size(), 1u);
  const double h = 1e-7;
  Matrix       fd(4, 4);
  for (int k = 0; k < 4; ++k)
    {
      Vector xp = x0, xm = x0;
      xp[k] += h;
      xm[k] -= h;
      fd.col(k) = (flow.flow(xp, T, alpha, false).x - flow.flow(xm, T, alpha, false).x) / (2 * h);
    }
  EXPECT_LT((result.jacobian - fd).norm(), 1e-6 * fd.norm()) << result.jacobian << "\n\n" << fd;
  std::cerr << "residual of the event-driven start on the MJ map: " << (result.x - x0).norm() / x0.norm() << "\n";
}
