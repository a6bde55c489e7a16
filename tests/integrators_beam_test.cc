// The pinned–pinned unit beam (w0 = 3 sin πx) on an obstacle at x = 0.4 with zero gap
// (Vyasarayani Section 3): with e = 1 and θ = 1/2 the Moreau–Jean scheme conserves energy to
// round-off; with damping, forcing, e < 1 and θ = 0.6 the energy ledger closes to round-off.
#include <vibroimpact/contact/lcp_solver.h>
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <algorithm>
#include <cmath>

using namespace vibroimpact;

namespace
{
  structure::CaseDescription pinned_beam(const double restitution, const unsigned int n_elements)
  {
    return test_cases::pinned_beam_on_obstacle(n_elements, restitution);
  }

  struct Checks
  {
    unsigned int impacts = 0;
    double       worst_complementarity = 0.0, worst_product = 0.0, min_impulse = 0.0;
  };

  // Complementarity at every active contact: U+ + eU− >= −1e-12 scale, p >= 0, w p ≈ 0. The
  // scale is that of the round-off in U = H v: the contact velocities and |H_i|_1 |v|_inf.
  void check(const model::StructuralModel &m, const integrators::State &state,
             const integrators::StepReport &report, Checks &c)
  {
    for (const auto i : report.active)
      {
        const double scale = std::max({std::abs(report.velocity_before[i]),
                                       std::abs(report.velocity_after[i]),
                                       std::abs(report.velocity_free[i]),
                                       m.contacts[i].row.cwiseAbs().sum() * state.v.lpNorm<Eigen::Infinity>(),
                                       1e-300});
        const double w = report.complementarity[i], p = report.impulse[i];
        c.min_impulse           = std::min(c.min_impulse, p);
        c.worst_complementarity = std::min(c.worst_complementarity, w / scale);
        if (p > 0)
          {
            ++c.impacts;
            c.worst_product = std::max(c.worst_product, std::abs(w) / scale);
          }
      }
  }
} // namespace

TEST(IntegratorsBeam, ElasticImpactsConserveEnergy)
{
  const auto                      m = structure::build_model(pinned_beam(1.0, 16));
  integrators::MoreauJeanSettings s;
  s.theta     = 0.5;
  s.time_step = 1e-4;
  const integrators::MoreauJean osi(m, s);
  auto                          state = osi.initial_state();
  const double E0 = osi.kinetic_energy(state.v) + osi.potential_energy(state.u);
  ASSERT_GT(E0, 0.0);
  double drift = 0.0;
  Checks checks;
  for (unsigned int k = 0; k < 100000; ++k) // t = 10: about 16 periods of the first mode
    {
      const auto report = osi.step(state);
      ASSERT_FALSE(report.lcp_failed) << report.lcp_message;
      check(m, state, report, checks);
      drift = std::max(drift, std::abs(osi.kinetic_energy(state.v) + osi.potential_energy(state.u) - E0) / E0);
    }
  std::cout << "e = 1 beam: relative energy drift " << drift << " over 100000 steps, steps with p > 0 "
            << checks.impacts << ", worst w/scale " << checks.worst_complementarity
            << ", worst |w|/scale at p > 0 " << checks.worst_product << "\n";
  EXPECT_GT(checks.impacts, 8u);
  EXPECT_LT(drift, 1e-10);
  EXPECT_GE(checks.min_impulse, 0.0);
  EXPECT_GE(checks.worst_complementarity, -1e-12);
  EXPECT_LE(checks.worst_product, 1e-12);
}

namespace
{
  // A forced, Rayleigh-damped, inelastic run with θ = 0.6: the ledger must close.
  double ledger_error(const bool correction, const bool modal, double &damping, double &impact,
                      double &numerical, double &work, unsigned int &corrections)
  {
    auto c = pinned_beam(0.5, 12);
    c.damping.rayleigh_mass      = 0.2;
    c.damping.rayleigh_stiffness = 1e-3;
    if (modal)
      {
        c.damping.modal_ratios   = {0.05, 0.02};
        c.damping.n_damped_modes = 3;
      }
    c.loads = {test_cases::harmonic_load("shaker", structure::LoadDistribution::point, {"beam", 0.7}, 40.0, 12.0)};
    const auto m = structure::build_model(c);
    if (modal)
      {
        EXPECT_FALSE(m.modal_damping.empty());
      }

    integrators::MoreauJeanSettings s;
    s.theta                = 0.6;
    s.time_step            = 2e-4;
    s.energy_correction    = correction;
    s.correction_direction = integrators::CorrectionDirection::values;
    const integrators::MoreauJean osi(m, s);
    auto                          state = osi.initial_state();
    integrators::EnergyLedger ledger(osi.kinetic_energy(state.v), osi.potential_energy(state.u));
    Checks checks;
    double worst = 0.0;
    corrections  = 0;
    for (unsigned int k = 0; k < 20000; ++k)
      {
        const auto report = osi.step(state);
        EXPECT_FALSE(report.lcp_failed) << report.lcp_message;
        check(m, state, report, checks);
        corrections += report.corrected;
        ledger.record(report.energy, osi.kinetic_energy(state.v), osi.potential_energy(state.u));
        worst = std::max(worst, std::abs(ledger.relative_balance_error()));
      }
    EXPECT_GT(checks.impacts, 5u);
    EXPECT_GE(checks.min_impulse, 0.0);
    EXPECT_GE(checks.worst_complementarity, -1e-12);
    EXPECT_LE(checks.worst_product, 1e-12);
    damping   = ledger.damping_dissipation();
    impact    = ledger.impact_dissipation();
    numerical = ledger.numerical_dissipation();
    work      = ledger.external_work();
    return worst;
  }
} // namespace

TEST(IntegratorsBeam, LedgerClosesInForcedDampedImpactingRun)
{
  double       damping, impact, numerical, work;
  unsigned int corrections;
  const double error = ledger_error(false, false, damping, impact, numerical, work, corrections);
  std::cout << "ledger (θ = 0.6, Rayleigh, forced, e = 0.5): worst relative balance error " << error
            << "; W_ext " << work << ", D_damping " << damping << ", D_impact " << impact
            << ", D_numerical " << numerical << "\n";
  // Every term is really there, so the closure is not a sum of zeros.
  EXPECT_GT(damping, 0.0);
  EXPECT_GT(impact, 0.0);
  EXPECT_GT(numerical, 0.0);
  EXPECT_GT(std::abs(work), 0.0);
  EXPECT_LT(error, 1e-12);
}

TEST(IntegratorsBeam, LedgerClosesWithModalDampingAndCorrection)
{
  double       damping, impact, numerical, work;
  unsigned int corrections;
  const double error = ledger_error(true, true, damping, impact, numerical, work, corrections);
  std::cout << "ledger (modal damping by Woodbury, correction on): worst relative balance error "
            << error << ", corrections " << corrections << ", D_impact " << impact << "\n";
  EXPECT_GT(corrections, 0u);
  EXPECT_GT(damping, 0.0);
  EXPECT_LT(error, 1e-12);
}

TEST(IntegratorsBeam, ManySupportsAndClearanceWithEverySolver)
{
  // Three one-sided supports and a two-sided clearance (two contacts at one point), e = 1:
  // the same code path must conserve energy and satisfy complementarity, whichever LCP solver.
  auto c = pinned_beam(1.0, 16);
  c.contacts.clear();
  for (const double x : {0.25, 0.5, 0.75})
    {
      structure::ContactDescription support;
      support.name        = "support_" + std::to_string(x);
      support.point       = {"beam", x};
      support.gap         = 0.5;
      support.side        = structure::ContactSide::below;
      support.restitution = 1.0;
      c.contacts.push_back(support);
    }
  structure::ContactDescription upper = c.contacts[1];
  upper.name = "clearance_top";
  upper.side = structure::ContactSide::above;
  upper.gap  = 3.5; // starts open: w(0.5) = 3, moving up
  c.contacts.push_back(upper);
  c.bodies[0].initial_velocity = "2*pi*pi*sin(pi*x)";
  const auto m = structure::build_model(c);
  for (const auto algorithm : {contact::LcpAlgorithm::lemke, contact::LcpAlgorithm::enumerative,
                               contact::LcpAlgorithm::pgs})
    {
      integrators::MoreauJeanSettings s;
      s.time_step     = 2e-4;
      s.lcp_solver    = algorithm;
      s.lcp_tolerance = 1e-13;
      const integrators::MoreauJean osi(m, s);
      auto                          state = osi.initial_state();
      const double E0 = osi.kinetic_energy(state.v) + osi.potential_energy(state.u);
      double       drift = 0.0;
      unsigned int largest_active = 0, both_sides = 0;
      std::vector<bool> hit(m.contacts.size(), false);
      Checks checks;
      for (unsigned int k = 0; k < 20000; ++k)
        {
          const auto report = osi.step(state);
          ASSERT_FALSE(report.lcp_failed) << report.lcp_message;
          EXPECT_EQ(report.lcp_attempts, report.lcp_solved ? 1u : 0u) << "fallback needed";
          check(m, state, report, checks);
          largest_active = std::max<unsigned int>(largest_active, report.active.size());
          for (std::size_t i = 0; i < hit.size(); ++i)
            hit[i] = hit[i] || report.impulse[i] > 0;
          drift = std::max(drift, std::abs(osi.kinetic_energy(state.v) + osi.potential_energy(state.u) - E0) / E0);
        }
      for (const bool h : hit)
        both_sides += h;
      std::cout << to_string(algorithm) << ": 4 contacts, largest active set " << largest_active
                << ", contacts hit " << both_sides << ", energy drift " << drift << "\n";
      EXPECT_GE(largest_active, 2u);
      EXPECT_EQ(both_sides, 4u); // every support and the top of the clearance
      EXPECT_LT(drift, 1e-10);
      EXPECT_GE(checks.min_impulse, 0.0);
      EXPECT_GE(checks.worst_complementarity, -1e-12);
      EXPECT_LE(checks.worst_product, 1e-12);
    }
}
