// Clearance supports (rigid, flexible, preloaded), the random point forces of Antunes et
// al. (2017) and the support statistics. What is asserted is physics: the PSD level and RMS of the
// generated force, Parseval for the Welch estimate, the static reaction of a preloaded support
// against the beam's closed-form flexibility, the stops' damping on their modes, and the energy
// the statistics say a support took against the energy ledger of the solver.
#include <gtest/gtest.h>

#include <vibroimpact/integrators/modal_projection.h>
#include <vibroimpact/integrators/penalty.h>
#include <vibroimpact/integrators/udwadia_kalaba.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/support_ensemble.h>
#include <vibroimpact/studies/support_statistics.h>

#include "test_support.h"

#include <cmath>
#include <numeric>
#include <random>

using namespace vibroimpact;

namespace
{
  structure::LoadDescription random_force(const std::string &name, double x, std::uint64_t seed)
  {
    structure::LoadDescription load;
    load.name         = name;
    load.distribution = structure::LoadDistribution::point;
    load.point        = {"beam", x};
    load.time         = structure::TimeDependence::random;
    load.amplitude    = 5.0;         // N RMS
    load.band_low     = 0.0;
    load.band_high    = 2 * M_PI * 1000; // 0–1000 Hz
    load.n_harmonics  = 4096;
    load.seed         = seed;
    return load;
  }

  structure::SupportDescription support(const std::string &name, double x, bool flexible, double gap = 1e-2)
  {
    structure::SupportDescription s;
    s.name      = name;
    s.point     = {"beam", x};
    s.lower_gap = -gap;
    s.upper_gap = gap;
    s.flexible  = flexible;
    return s;
  }

  structure::CaseDescription unit_beam(unsigned int elements = 16)
  {
    structure::CaseDescription c;
    c.bodies = {test_cases::beam("beam", elements, structure::EndCondition::pinned, structure::EndCondition::pinned)};
    return c;
  }

  template <typename Method, typename Settings>
  integrators::ResponseHistory run(const model::StructuralModel &model, const Settings &settings, double final_time,
                                   double output_interval)
  {
    integrators::ResponseHistory history(model);
    integrators::RunControl      control;
    control.final_time      = final_time;
    control.output_interval = output_interval;
    history.summary         = Method(model, settings).run(control, history);
    return history;
  }
} // namespace

// The paper's excitation: flat one-sided PSD RMS²/band = 25/1000 N²/Hz over 0–1000 Hz, 5 N RMS,
// nothing above the band; the same seed gives the same force, two seeds uncorrelated forces; the
// tabulated force is the sum of its lines.
TEST(RandomForce, SpectrumRmsIndependenceAndReproducibility)
{
  auto c  = unit_beam();
  c.loads = {random_force("a", 0.3, 1), random_force("b", 0.6, 2)};
  const auto   model = structure::build_model(c);
  const auto  &a = model.loads[0].time, &b = model.loads[1].time;
  const double dt = 1e-4, period = 4.096; // fs = 10 kHz, one period of the 0.244 Hz line spacing
  const auto   n  = static_cast<std::size_t>(std::llround(period / dt));
  std::vector<double> fa(n), fb(n);
  double              worst = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    {
      fa[i] = a.value(i * dt);
      fb[i] = b.value(i * dt);
      if (i % 97 == 0)
        {
          double sum = 0.0;
          for (std::size_t k = 0; k < a.omegas.size(); ++k)
            sum += std::cos(a.omegas[k] * i * dt + a.phases[k]);
          worst = std::max(worst, std::abs(fa[i] - 5.0 * std::sqrt(2.0 / a.omegas.size()) * sum));
        }
    }
  EXPECT_LT(worst, 1e-3) << "the table is not the sum of the lines";
  const double rms = std::sqrt(std::inner_product(fa.begin(), fa.end(), fa.begin(), 0.0) / n);
  EXPECT_NEAR(rms, 5.0, 0.01);
  double correlation = std::inner_product(fa.begin(), fa.end(), fb.begin(), 0.0) / n / 25.0;
  EXPECT_LT(std::abs(correlation), 0.03);

  const auto psd   = studies::welch_psd(fa, dt, 4096);
  double     in = 0, out = 0;
  unsigned   n_in = 0, n_out = 0;
  for (std::size_t k = 0; k < psd.frequency.size(); ++k)
    {
      const double f = psd.frequency[k];
      if (f > 20 && f < 980)
        in += psd.density[k], ++n_in;
      else if (f > 1050)
        out += psd.density[k], ++n_out;
    }
  EXPECT_NEAR(in / n_in, 25.0 / 1000.0, 0.02 * 25.0 / 1000.0);
  EXPECT_LT(out / n_out, 1e-4 * 25.0 / 1000.0);

  const auto again = structure::build_model(c);
  EXPECT_EQ(again.loads[0].time.value(0.123456), a.value(0.123456));
  EXPECT_NE(a.value(0.123456), b.value(0.123456));
}

// Welch's estimate integrates to the variance (Parseval) and puts a sine's power at its frequency.
TEST(RandomForce, WelchPsdIntegratesToTheVarianceAndFindsASine)
{
  std::mt19937_64                  generator(5);
  std::normal_distribution<double> noise(0.0, 2.0);
  const double                     dt = 1e-3;
  std::vector<double>              x(1 << 16);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = noise(generator) + 3 * std::sin(2 * M_PI * 125 * i * dt);
  const auto psd = studies::welch_psd(x, dt, 1024);
  double     integral = 0.0;
  for (const double d : psd.density)
    integral += d * (psd.frequency[1] - psd.frequency[0]);
  EXPECT_NEAR(integral, 4.0 + 4.5, 0.2);                // σ² + A²/2
  EXPECT_NEAR(psd.density[200], 2 * 4.0 * dt, 0.15 * 8e-3); // white level 2σ²/fs away from the sine
  const auto peak = std::max_element(psd.density.begin(), psd.density.end()) - psd.density.begin();
  EXPECT_NEAR(psd.frequency[peak], 125.0, 1.0);
}

// A support expands into two contacts (gaps −δ⁻ and δ⁺, sides below and above), a probe, and for
// flexible stops two point masses on springs and dashpots: the stops' modes are at √(k_c/m_c) and
// the modal solvers damp them by c_c/m_c (+ 2ζω from the ratios).
TEST(Supports, FlexibleStopsAreOscillatorsOfTheModel)
{
  auto c     = unit_beam();
  c.supports = {support("s1", 0.5, true)};
  c.supports[0].stop_mass = 0.01, c.supports[0].stop_stiffness = 1e5, c.supports[0].stop_damping = 1.0;
  const auto model = structure::build_model(c);
  ASSERT_EQ(model.contacts.size(), 2u);
  ASSERT_EQ(model.supports.size(), 1u);
  EXPECT_EQ(model.n_dofs(), 34); // 32 beam DoFs + two stops
  EXPECT_DOUBLE_EQ(model.contacts[model.supports[0].lower].gap0, 1e-2);
  EXPECT_DOUBLE_EQ(model.contacts[model.supports[0].upper].gap0, 1e-2);
  const integrators::ModalProjection P(model, 34, {0.01});
  const double                       stop = std::sqrt(1e5 / 0.01);
  unsigned                           found = 0;
  for (Eigen::Index j = 0; j < P.size(); ++j)
    if (std::abs(P.omegas()[j] - stop) < 1e-6 * stop)
      {
        ++found;
        EXPECT_NEAR(P.damping()[j], 1.0 / 0.01 + 2 * 0.01 * stop, 1e-9 * stop);
      }
  EXPECT_EQ(found, 2u);
}

// A preload P pushes mid-span onto the upper stop (δ⁺): at rest the stop holds
// R = P − (48 EI / L³) δ⁺ (the pinned beam's mid-span stiffness), by U–K and by the penalty
// (whose penetration P / k_p changes R by 48 P / k_p). The statistics read it as the mean force
// with the contact closed all the time and one impact.
TEST(Supports, PreloadedSupportHoldsTheStaticReaction)
{
  auto c                 = unit_beam();
  c.supports             = {support("s1", 0.5, false, 0.01)};
  c.supports[0].preload  = 1.0;
  const auto   model     = structure::build_model(c);
  const double reaction  = 1.0 - 48.0 * 0.01;
  integrators::ModalUdwadiaKalabaSettings uk;
  uk.n_modes        = 16;
  uk.damping_ratios = {0.3};
  uk.time_step      = 1e-4;
  integrators::ModalPenaltySettings penalty;
  static_cast<integrators::ModalSteppingSettings &>(penalty) = uk;
  penalty.stiffness                                          = 1e6;
  for (const auto &history : {run<integrators::ModalUdwadiaKalaba>(model, uk, 4.0, 1e-3),
                              run<integrators::ModalPenalty>(model, penalty, 4.0, 1e-3)})
    {
      const auto s = studies::support_statistics(model, history, 3.0).at(0);
      EXPECT_NEAR(s.mean_force, reaction, 2e-3 * reaction);
      EXPECT_NEAR(s.rms_force, reaction, 2e-3 * reaction);
      EXPECT_DOUBLE_EQ(s.contact_fraction, 1.0);
      const auto whole = studies::support_statistics(model, history).at(0);
      EXPECT_LE(whole.impacts, 2u); // lands on the stop (a penalty contact may bounce once)
      const auto upper = history.column("impulse_s1_upper"), lower = history.column("impulse_s1_lower");
      EXPECT_GT(std::accumulate(upper.begin(), upper.end(), 0.0), 0.0); // on the upper stop, pushed up
      EXPECT_EQ(std::accumulate(lower.begin(), lower.end(), 0.0), 0.0);
    }
}

// The energy a support takes, by the statistics' rule (impulse × gap change per row), against the
// solver's own ledger: a flexible support under random forces, modal penalty (resolved contacts,
// every row fine against the contact time). Then the U–K run of the same case: the impulsive
// impacts are measured to within the row quantisation, and the projection keeps the stops' gaps
// closed to round-off.
TEST(Supports, ImpactWorkMatchesTheSolversLedger)
{
  auto c     = unit_beam(16);
  c.bodies[0].length = 2.0, c.bodies[0].stiffness = 3.23103, c.bodies[0].mass_per_length = 0.5;
  c.supports = {support("s1", 1.0, true, 1e-3)};
  for (unsigned i = 1; i <= 3; ++i)
    c.loads.push_back(random_force("f" + std::to_string(i), 0.5 * i, i));
  const auto                        model = structure::build_model(c);
  integrators::ModalPenaltySettings penalty;
  penalty.n_modes        = 20;
  penalty.damping_ratios = {0.01};
  penalty.time_step      = 1e-6;
  const auto history = run<integrators::ModalPenalty>(model, penalty, 0.1, 1e-5);
  const auto s       = studies::support_statistics(model, history).at(0);
  ASSERT_GT(s.impacts, 3u);
  const double ledger = history.summary.counter("impact dissipation");
  EXPECT_GT(ledger, 0.0);
  EXPECT_NEAR(s.impact_work, ledger, 0.02 * ledger);
  EXPECT_GE(s.work_rate * s.duration, s.impact_work);

  integrators::ModalUdwadiaKalabaSettings uk;
  static_cast<integrators::ModalSteppingSettings &>(uk) = penalty;
  const auto uk_history = run<integrators::ModalUdwadiaKalaba>(model, uk, 0.1, 1e-5);
  EXPECT_LE(std::abs(uk_history.summary.counter("largest |gap| of a closed contact")), 1e-12);
  const auto   us   = studies::support_statistics(model, uk_history).at(0);
  const double lost = uk_history.summary.counter("impact dissipation");
  ASSERT_GT(us.impacts, 3u);
  EXPECT_NEAR(us.impact_work, lost, 0.3 * lost);
}

// Realization r of an ensemble shifts every random load's seed by r × (number of random loads):
// records never share a seed, and their forces are uncorrelated.
TEST(SupportEnsemble, RealizationsDrawDisjointSeedsAndUncorrelatedForces)
{
  auto c  = unit_beam();
  c.loads = {random_force("f1", 0.3, 1), random_force("f2", 0.7, 2)};
  EXPECT_EQ(studies::random_load_count(c), 2u);
  std::vector<std::uint64_t> seeds;
  for (unsigned int r = 0; r < 4; ++r)
    for (const auto &load : studies::realization_description(c, r).loads)
      seeds.push_back(load.seed);
  std::vector<std::uint64_t> expected(8);
  std::iota(expected.begin(), expected.end(), 1u);
  EXPECT_EQ(seeds, expected);

  const auto   first = structure::build_model(studies::realization_description(c, 0)).loads[0].time;
  const auto   third = structure::build_model(studies::realization_description(c, 2)).loads[0].time;
  const double dt    = 1e-4;
  double       ab = 0, aa = 0, bb = 0;
  for (int k = 0; k < 20000; ++k)
    {
      const double a = first.value(k * dt), b = third.value(k * dt);
      ab += a * b, aa += a * a, bb += b * b;
    }
  EXPECT_LT(std::abs(ab) / std::sqrt(aa * bb), 0.05);
}

// The 95 % interval of an ensemble mean uses Student's t with R − 1 degrees of freedom: over many
// ensembles of R = 5 normal samples it covers the true mean 95 % of the time (a normal quantile,
// 1.96, would cover only 88 %), and its half width is t·s/√R with t(0.975, 4) = 2.776445.
TEST(SupportEnsemble, ConfidenceIntervalOfTheMeanCoversTheTrueMeanAtItsLevel)
{
  const auto e = studies::ensemble_estimate("s", "x", {1.0, 2.0, 3.0, 4.0, 5.0});
  EXPECT_DOUBLE_EQ(e.mean, 3.0);
  EXPECT_NEAR(e.deviation, std::sqrt(2.5), 1e-15);
  EXPECT_NEAR(e.half_width, 2.7764451051977987 * std::sqrt(2.5) / std::sqrt(5.0), 1e-12);

  std::mt19937_64                  generator(7);
  std::normal_distribution<double> normal(10.0, 3.0);
  const int                        trials  = 20000;
  int                              covered = 0;
  for (int t = 0; t < trials; ++t)
    {
      std::vector<double> samples(5);
      for (auto &x : samples)
        x = normal(generator);
      const auto estimate = studies::ensemble_estimate("s", "x", samples);
      covered += std::abs(estimate.mean - 10.0) <= estimate.half_width;
    }
  EXPECT_NEAR(double(covered) / trials, 0.95, 0.006); // 4 binomial standard deviations
}
