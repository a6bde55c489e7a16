// Harmonic balance (Continuation/Method = harmonic balance) against independent solutions: the
// bilinear oscillator's free orbits against their closed form, and a forced 2-DOF chain on a
// unilateral spring against exact event-driven shooting on the same model, both converging as
// the harmonics grow; the stability of the reconstructed orbit against shooting's multipliers;
// branch switching on both methods' branches of that chain.
#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/periodic/periodic_problem.h>

#include "test_support.h"

#include <algorithm>
#include <utility>
#include <cmath>
#include <vector>

namespace vibroimpact
{
  namespace
  {
    using Vector = Eigen::VectorXd;

    // A linear chain of unit masses, springs of unit stiffness from the ground to the last mass,
    // an elastic stop of stiffness k at gap g above the last mass, and (load > 0) a harmonic force
    // of that amplitude on the first.
    model::StructuralModel chain_on_a_spring(const int n, const double k, const double g, const double load,
                                             const double omega)
    {
      model::StructuralModel mdl;
      Eigen::MatrixXd        K = Eigen::MatrixXd::Zero(n, n);
      for (int i = 0; i < n; ++i)
        {
          K(i, i) += 1.0;
          if (i + 1 < n)
            K(i, i) += 1.0, K(i, i + 1) = K(i + 1, i) = -1.0;
        }
      mdl.mass      = test_cases::diagonal_matrix(Vector::Ones(n));
      mdl.stiffness = K.sparseView();
      mdl.damping   = model::SparseMatrix(n, n);
      mdl.dof_kinds.assign(n, model::DofKind::lumped);
      model::Contact stop;
      stop.name      = "stop";
      stop.row       = test_cases::unit_row(n, n - 1) * -1.0;
      stop.gap0      = g;
      stop.stiffness = k;
      stop.side      = -1.0;
      mdl.contacts.push_back(stop);
      if (load > 0)
        {
          model::LoadTerm force;
          force.name       = "F";
          force.spatial    = Vector::Unit(n, 0);
          force.time.kind  = model::TimeFunction::Kind::harmonic;
          force.time.amplitude = load;
          force.time.omega     = omega;
          mdl.loads.push_back(force);
        }
      mdl.initial_displacement = Vector::Zero(n);
      mdl.initial_velocity     = Vector::Zero(n);
      return mdl;
    }

    // The bilinear oscillator's period through u = 0 at speed v0 (unit mass; spring k1, stop k at g).
    double bilinear_period(const double k1, const double k, const double g, const double v0)
    {
      const double w1 = std::sqrt(k1), w2 = std::sqrt(k1 + k), A = v0 / w1;
      const double v1 = w1 * std::sqrt(A * A - g * g), y0 = g - k * g / (k1 + k);
      return (2 * M_PI - 2 * std::acos(g / A)) / w1 + 2 * std::atan2(v1, w2 * y0) / w2;
    }

    // The examples' forced chain (examples/harmonic_balance/chain.prm): k = 10 at g = 0.1, F = 0.05
    // on the first mass, 2 % modal damping, on the event-driven map.
    struct ForcedChain
    {
      model::StructuralModel     model = chain_on_a_spring(2, 10.0, 0.1, 0.05, 0.6);
      periodic::LinearImpactFlow flow{model, damped(0.02)};

      static periodic::LinearImpactFlowSettings damped(const double zeta)
      {
        periodic::LinearImpactFlowSettings s;
        s.damping_ratios = {zeta};
        return s;
      }
    };

    periodic::ContinuationSettings harmonic_balance(const unsigned int harmonics)
    {
      periodic::ContinuationSettings s;
      s.method    = periodic::PeriodicMethod::harmonic_balance;
      s.harmonics = harmonics;
      return s;
    }

    // The largest |u_dof| of an orbit, from 4000 samples.
    double amplitude(periodic::PeriodicFlowMap &flow, const periodic::ContinuationSettings &s,
                     const periodic::BranchPoint &orbit, const Eigen::Index dof)
    {
      const auto samples = periodic::sample_orbit(flow, s, orbit, 4000);
      double     largest = 0.0;
      for (const auto &u : samples.displacement)
        largest = std::max(largest, std::abs(u[dof]));
      return largest;
    }
  } // namespace

  // The free orbits of the bilinear oscillator (k1 = 1, stop k = 3 at g = 0.1): each HB orbit's
  // frequency against the closed form at its own energy (E = v0²/2 at u = 0). The error falls
  // with H (the force's kink makes the harmonics decay algebraically), and the unfolding
  // damping κ of the extended periodic motion concept vanishes on a conservative family.
  TEST(HarmonicBalance, BilinearOscillatorFrequencyConvergesToItsClosedForm)
  {
    const double k1 = 1.0, k = 3.0, g = 0.1;
    const auto   mdl = chain_on_a_spring(1, k, g, 0.0, 0.0);
    const periodic::LinearImpactFlow flow(mdl, periodic::LinearImpactFlowSettings{});
    std::vector<double>              worst;
    for (const unsigned int H : {5u, 15u, 45u})
      {
        auto s                = harmonic_balance(H);
        s.start_energy_factor = 1.5;
        s.max_energy          = 20 * flow.grazing_energy(1);
        s.max_points          = 12;
        const auto branch     = periodic::continue_free_family(flow, s);
        ASSERT_GE(branch.points.size(), 8u) << "H = " << H << ": " << branch.stop_reason;
        double error = 0.0;
        for (const auto &p : branch.points)
          {
            const double exact = 2 * M_PI / bilinear_period(k1, k, g, std::sqrt(2 * p.energy));
            error              = std::max(error, std::abs(p.frequency / exact - 1));
            EXPECT_LT(std::abs(p.unfolding), 1e-8 * p.frequency) << "H = " << H;
            EXPECT_EQ(p.sticking_phases, 1u) << "one closing of the spring per period";
          }
        worst.push_back(error);
      }
    EXPECT_LT(worst[0], 1e-3); // measured: 2.6e-4, 2.7e-5, 1.3e-6 at H = 5, 15, 45 (order ≈ 2)
    EXPECT_LT(worst[1], worst[0] / 5);
    EXPECT_LT(worst[2], worst[1] / 5);
    EXPECT_LT(worst[2], 5e-6);
  }

  // The extended periodic motion concept on the damped bilinear oscillator (5 % modal damping):
  // the unfolding κ cancels the mode's damping, κ = 2ζω1 = 0.1 exactly on one DOF, and the family
  // is the undamped one, against the same closed form as above.
  TEST(HarmonicBalance, DampedBilinearOscillatorFamilyByTheExtendedPeriodicMotionConcept)
  {
    const double                       k1 = 1.0, k = 3.0, g = 0.1;
    const auto                         mdl = chain_on_a_spring(1, k, g, 0.0, 0.0);
    periodic::LinearImpactFlowSettings damped;
    damped.damping_ratios = {0.05};
    const periodic::LinearImpactFlow flow(mdl, damped);
    auto                             s = harmonic_balance(15);
    s.start_energy_factor              = 1.5;
    s.max_energy                       = 20 * flow.grazing_energy(1);
    s.max_points                       = 12;
    const auto branch                  = periodic::continue_free_family(flow, s);
    ASSERT_GE(branch.points.size(), 8u) << branch.stop_reason;
    for (const auto &p : branch.points)
      {
        EXPECT_NEAR(p.unfolding, 0.1, 1e-9);
        const double exact = 2 * M_PI / bilinear_period(k1, k, g, std::sqrt(2 * p.energy));
        EXPECT_LT(std::abs(p.frequency / exact - 1), 5e-5); // the undamped family's error at H = 15: 2.7e-5
      }
  }

  // A forced 2-DOF chain on a unilateral spring (k = 10 at g = 0.1, 2 % modal damping, F = 0.05 on
  // the first mass) at 0.6 rad/s, where the spring closes once a period: the HB orbit's amplitude
  // converges to exact event-driven shooting's as H grows, and the multipliers of the reconstructed
  // orbit's monodromy to shooting's (measured: amplitude 2.4e-2, 1.8e-4, 6.0e-6 at H = 5, 15, 41).
  TEST(HarmonicBalance, ForcedChainConvergesToShootingAsHarmonicsGrow)
  {
    ForcedChain                  chain;
    periodic::LinearImpactFlow &flow   = chain.flow;
    const auto at_0_6 = [&](periodic::ContinuationSettings s) {
      s.min_frequency      = 0.58;
      s.max_frequency      = 0.62;
      s.report_frequencies = {0.6};
      const auto branch    = periodic::continue_forced_response(flow, s);
      EXPECT_EQ(branch.at_frequencies.size(), 1u) << branch.stop_reason;
      return branch.at_frequencies.at(0).orbit;
    };
    const periodic::ContinuationSettings shooting;
    const auto                           exact = at_0_6(shooting);
    const double                         A     = amplitude(flow, shooting, exact, 1);
    ASSERT_EQ(exact.sticking_phases, 1u);
    std::vector<double> error, multiplier_error;
    for (const unsigned int H : {5u, 15u, 41u})
      {
        const auto s     = harmonic_balance(H);
        const auto orbit = at_0_6(s);
        EXPECT_EQ(orbit.sticking_phases, 1u);
        error.push_back(std::abs(amplitude(flow, s, orbit, 1) / A - 1));
        ASSERT_EQ(orbit.multipliers.size(), exact.multipliers.size());
        // Each of shooting's multipliers against the nearest of HB's (a conjugate pair's order is arbitrary).
        double largest = 0.0;
        for (const auto &mu : exact.multipliers)
          {
            double nearest = 1e300;
            for (const auto &nu : orbit.multipliers)
              nearest = std::min(nearest, std::abs(mu - nu));
            largest = std::max(largest, nearest);
          }
        multiplier_error.push_back(largest);

      }
    EXPECT_LT(error[1], error[0] / 5);
    EXPECT_LT(error[2], error[1] / 5);
    EXPECT_LT(error[2], 2e-5);
    // The multipliers' arguments follow the contact's duration, which converges more slowly than
    // the amplitude (measured: 0.28, 5.2e-3, 3.4e-4 at H = 5, 15, 41).
    EXPECT_LT(multiplier_error[1], multiplier_error[0] / 10);
    EXPECT_LT(multiplier_error[2], multiplier_error[1] / 5);
    EXPECT_LT(multiplier_error[2], 1e-3);
  }

  // Branch switching on a harmonic-balance branch: the chain's period doubling near 0.6686 rad/s
  // (H = 41 on the forcing's half frequency, so ~20 harmonics of Ω) starts a period-2 family whose
  // orbit at 0.7 rad/s is shooting's period-2 orbit there (measured: amplitude 6.9e-5, largest
  // multiplier 1.9e-4 apart), with odd harmonics of Ω/2 that are not small (a true period-2 orbit).
  TEST(HarmonicBalance, PeriodDoublingSwitchesOntoShootingsPeriodTwoFamily)
  {
    ForcedChain                  chain;
    periodic::LinearImpactFlow &flow = chain.flow;
    const auto period_two_at_0_7 = [&](periodic::ContinuationSettings s) {
      s.min_frequency      = 0.64;
      s.max_frequency      = 0.72;
      s.report_frequencies = {0.7};
      s.switch_at          = {periodic::SpecialPoint::period_doubling};
      const auto branch    = periodic::continue_forced_response(flow, s);
      EXPECT_EQ(branch.children.size(), 1u);
      const periodic::Branch &family = branch.children.at(0);
      EXPECT_EQ(family.born_at, periodic::SpecialPoint::period_doubling);
      EXPECT_EQ(family.at_frequencies.size(), 1u);
      return std::make_pair(family.born_at_parameter, family.at_frequencies.at(0).orbit);
    };
    const auto [doubling, exact] = period_two_at_0_7(periodic::ContinuationSettings{});
    auto        hb_settings      = harmonic_balance(41);
    const auto [hb_doubling, orbit] = period_two_at_0_7(hb_settings);
    hb_settings.forcing_periods = 2;
    EXPECT_NEAR(hb_doubling, doubling, 1e-5); // measured 4.0e-6 at H = 41 on the parent (doc/harmonic-balance.md)
    EXPECT_NEAR(orbit.period, 4 * M_PI / 0.7, 1e-12);
    EXPECT_LT(std::abs(amplitude(flow, hb_settings, orbit, 1) / amplitude(flow, periodic::ContinuationSettings{}, exact, 1) - 1),
              2e-4);
    EXPECT_NEAR(orbit.max_multiplier, exact.max_multiplier, 1e-3);
    // The odd harmonics of Ω/2 carry a share of the orbit: not the period-1 orbit over two periods.
    double odd = 0.0;
    for (Eigen::Index j = 1; j <= 41; j += 2)
      odd += std::pow(orbit.coefficients[2 * j - 1], 2) + std::pow(orbit.coefficients[2 * j], 2);
    EXPECT_GT(std::sqrt(odd), 1e-2 * orbit.coefficients.norm());
  }

  // A switched family's orbits at the report frequencies are its own: on the chain's period-2
  // family born at 0.458 rad/s, whose continuation steps from 0.4581 to 0.4915, Newton at 0.47 from
  // the secant slid onto the period-1 parent (amplitude equal to the parent's to 1e-15, |μ| the
  // square of its), and was reported as the family's orbit there. Each reported orbit of the
  // family must not return after one forcing period.
  TEST(HarmonicBalance, ShootingReportsNoParentOrbitOnAPeriodTwoFamily)
  {
    ForcedChain                    chain;
    periodic::ContinuationSettings s;
    s.min_frequency      = 0.44;
    s.max_frequency      = 0.5;
    s.report_frequencies = {0.47, 0.495};
    s.switch_at          = {periodic::SpecialPoint::period_doubling};
    const auto branch    = periodic::continue_forced_response(chain.flow, s);
    ASSERT_EQ(branch.children.size(), 1u);
    const auto &family = branch.children[0];
    ASSERT_FALSE(family.at_frequencies.empty()) << "0.495 lies on the family's own stretch";
    for (const auto &at : family.at_frequencies)
      {
        chain.flow.set_forcing_frequency(at.orbit.frequency);
        const Vector once = chain.flow.flow(at.orbit.state, at.orbit.period / 2, 0.0, false).x;
        EXPECT_GT((once - at.orbit.state).norm(), 1e-4 * at.orbit.state.norm()) << "at " << at.orbit.frequency;
      }
  }
} // namespace vibroimpact
