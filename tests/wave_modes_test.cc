// The wave-mode reference (Yin et al. 2007; doc/wave_modes.md): its modes (roots counted,
// mass-orthonormal), and the solver's physics on examples/cantilever_on_rod: the first impact
// against the exact cantilever series, energy between and at switches, convergence in N.
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/reference/beam_rod_modes.h>
#include <vibroimpact/reference/wave_mode_solver.h>
#include <vibroimpact/io/input_error.h>

#include <boost/math/tools/roots.hpp>
#include <gtest/gtest.h>

#include "program_runner.h"

#include <vibroimpact/structure/model_builder.h>

#include "test_support.h"

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <iomanip>
#include <iostream>

using namespace vibroimpact;
using reference::BeamRodData;
using reference::WaveMode;

namespace
{
  // examples/cantilever_on_rod: the paper's beam (L = 1.0617 m) and rod (l = 0.1 m).
  BeamRodData paper_data() { return {40727.232, 9.7155, 1.0617, 1.0816e8, 4.056, 0.1}; }

  // max |⟨φ_i, φ_j⟩ − δ_ij| over all pairs, by the closed-form products.
  double orthonormality_error(const BeamRodData &d, const std::vector<WaveMode> &modes)
  {
    const Eigen::MatrixXd G = reference::mass_products(d, modes, modes);
    return (G - Eigen::MatrixXd::Identity(G.rows(), G.cols())).cwiseAbs().maxCoeff();
  }

  // The same over a spread subset (every 199th mode and the last five) by quadrature: independent
  // of the closed forms.
  double orthonormality_error_by_quadrature(const BeamRodData &d, const std::vector<WaveMode> &modes)
  {
    std::vector<std::size_t> subset;
    for (std::size_t i = 0; i < modes.size(); i += 199)
      subset.push_back(i);
    for (std::size_t i = modes.size() - 5; i < modes.size(); ++i)
      subset.push_back(i);
    double worst = 0.0;
    for (const auto i : subset)
      for (const auto j : subset)
        if (j >= i)
          worst = std::max(worst, std::abs(reference::mass_product_by_quadrature(d, modes[i], modes[j]) -
                                           (i == j ? 1.0 : 0.0)));
    return worst;
  }
} // namespace

TEST(WaveModes, CoupledModesAreCountedAndOrthonormalForTwoThousandModes)
{
  const auto d       = paper_data();
  const auto coupled = reference::coupled_modes(d, 2000);
  const auto free    = reference::free_modes(d, 2001);
  ASSERT_EQ(coupled.size(), 2000u);
  // Interlacing: the m-th coupled frequency between the m-th and (m+1)-th free ones, strictly
  // increasing (none skipped, none found twice).
  for (std::size_t m = 0; m < coupled.size(); ++m)
    {
      EXPECT_GE(coupled[m].omega, free[m].omega) << m;
      EXPECT_LE(coupled[m].omega, free[m + 1].omega) << m;
      if (m > 0)
        {
          EXPECT_GT(coupled[m].omega, coupled[m - 1].omega) << m;
        }
    }
  const double closed = orthonormality_error(d, coupled);
  const double quad   = orthonormality_error_by_quadrature(d, coupled);
  std::cout << "coupled modes, N = 2000: max |<phi_i, phi_j> - delta_ij| = " << closed
            << " (closed form, all pairs), " << quad << " (quadrature, subset); omega_2000 = " << coupled.back().omega
            << " rad/s\n";
  std::cout << std::setprecision(10) << "in-contact modes 18, 48, 65, 97: " << coupled[17].omega << ", "
            << coupled[47].omega << ", " << coupled[64].omega << ", " << coupled[96].omega
            << " rad/s (Yin et al.: 168510.0, 994042.2, 1699208.0, 3302153)\n";
  EXPECT_LT(closed, 1e-10);
  EXPECT_LT(quad, 1e-10);
}

TEST(WaveModes, FreeModesAreTheCantileverAndTheRodAndOrthonormal)
{
  const auto d    = paper_data();
  const auto free = reference::free_modes(d, 2000);
  // The cantilever's first roots (Blevins): 1.87510407, 4.69409113, 7.85475744.
  const auto z = reference::cantilever_roots(3);
  EXPECT_NEAR(z[0], 1.8751040687, 1e-9);
  EXPECT_NEAR(z[1], 4.6940911330, 1e-9);
  EXPECT_NEAR(z[2], 7.8547574382, 1e-9);
  EXPECT_NEAR(free[0].omega, 1.8751040687 * 1.8751040687 / (d.L * d.L) * d.flexural_coefficient(), 1e-6);
  EXPECT_LT(orthonormality_error(d, free), 1e-10);
  EXPECT_LT(orthonormality_error_by_quadrature(d, free), 1e-10);
}

namespace
{
  // The wave-mode solver on an example (or a case file by its path), with overrides; every
  // sample a row.
  integrators::ResponseHistory wave_run(const std::string &example, const std::vector<std::string> &overrides)
  {
    std::vector<std::string> all{"Simulation/Solver=wave-modes", "Simulation/Output interval=0",
                                 "Simulation/Frame interval=0"};
    all.insert(all.end(), overrides.begin(), overrides.end());
    const auto loaded = test_cases::load_case(
      example.find('/') == std::string::npos ? test_cases::example(example) : example, all);
    const auto model  = structure::build_model(loaded.description);
    loaded.solver().check(model, loaded.run, loaded.filename);
    return integrators::run_to_history(loaded.solver(), model, loaded.run);
  }

  // The first contact phase: impact and separation times, peak force and impulse.
  struct ContactPhase
  {
    double start = 0, end = 0, peak = 0, impulse = 0;
  };
  ContactPhase first_contact(const integrators::ResponseHistory &h)
  {
    const auto &events = h.events();
    EXPECT_GE(events.size(), 3u);
    EXPECT_EQ(events[0].kind, integrators::ContactEvent::Kind::impact);
    EXPECT_EQ(events[1].kind, integrators::ContactEvent::Kind::sticking_start);
    EXPECT_EQ(events[2].kind, integrators::ContactEvent::Kind::separation);
    EXPECT_EQ(events[0].impulse, events[2].impulse); // the episode's, on both
    ContactPhase c{events[0].time, events[2].time, 0.0, events[2].impulse};
    const auto   t = h.times(), f = h.column("force_tip");
    for (std::size_t k = 0; k < t.size(); ++k)
      if (t[k] >= c.start && t[k] <= c.end)
        c.peak = std::max(c.peak, f[k]);
    return c;
  }
} // namespace

// The rod is at rest before the first impact, so the beam alone decides it: the exact
// clamped–free series of the released tip-load shape, y(L, t) ∝ Σ_n cos(ω_n t)/β_n⁴
// (doc/validation.md §2), here with its own roots by bisection and 5000 terms.
TEST(WaveModes, FirstImpactMatchesTheExactCantileverSeries)
{
  const double a = std::sqrt(40727.232 / 9.7155), L = 1.0617;
  std::vector<double> omega;
  for (int n = 1; n <= 5000; ++n)
    {
      double lo = (n - 1) * M_PI, hi = n * M_PI; // cos z + sech z changes sign once in between
      const auto f = [](double z) { return std::cos(z) + 1 / std::cosh(z); };
      for (int i = 0; i < 200 && hi - lo > 4e-16 * hi; ++i)
        {
          const double mid = 0.5 * (lo + hi);
          ((f(mid) > 0) == (f(lo) > 0) ? lo : hi) = mid;
        }
      const double beta = 0.5 * (lo + hi) / L;
      omega.push_back(a * beta * beta);
    }
  const auto tip = [&](double t) {
    double sum = 0.0;
    for (auto it = omega.rbegin(); it != omega.rend(); ++it) // smallest terms first
      sum += std::cos(*it * t) / (*it * *it);                // 1/β⁴ ∝ 1/ω²
    return sum;
  };
  std::uintmax_t iterations = 200;
  const auto [lo, hi] = boost::math::tools::toms748_solve(tip, 7.5e-3, 7.8e-3,
                                                          boost::math::tools::eps_tolerance<double>(50), iterations);
  const double series = 0.5 * (lo + hi);

  const auto h = wave_run("cantilever_on_rod", {"Simulation/Final time=0.00766", "Wave modes/Number of modes=2000"});
  ASSERT_FALSE(h.impacts().empty());
  const double t = h.impacts().front().time;
  std::cout << std::setprecision(12) << "first impact: wave modes (N = 2000) " << t * 1e3 << " ms, exact series "
            << series * 1e3 << " ms, difference " << (t - series) << " s\n";
  EXPECT_NEAR(t, series, 1e-9);
  EXPECT_LT(h.impacts().front().pre_velocity, -1.9); // the tip falls onto the rod at ~1.98 m/s
}

// Between switches each phase is a set of undriven oscillators plus, in contact, the quasi-static
// part: nothing may drift. At each switch the projection on the other truncated basis changes
// the energy; the history carries it (impact_dissipation) and it shrinks as N grows. Run free,
// and with a constant tip force of −200 N (a copy of the example with a Load), whose quasi-static
// parts differ between the phases: then E − F (y_tip − y_tip(0)) is what stays constant.
class WaveModesEnergy : public ::testing::TestWithParam<double>
{};

TEST_P(WaveModesEnergy, IsConservedBetweenSwitchesAndItsChangeAtSwitchesIsReported)
{
  const double force = GetParam();
  std::string  example = "cantilever_on_rod";
  if (force != 0.0)
    {
      const auto file = std::filesystem::temp_directory_path() / "vibroimpact-wave-modes-constant-force.prm";
      std::ifstream     in(test_cases::example(example));
      std::stringstream text;
      text << in.rdbuf() << "\nsubsection Load push\n  set Distribution = point\n  set Body = beam\n"
           << "  set Position = 1.0617\n  set Time dependence = constant\n  set Amplitude = " << force << "\nend\n";
      std::ofstream(file) << text.str();
      example = file.string();
    }
  std::vector<double> first_switch_loss;
  for (const unsigned int N : {50u, 200u, 800u})
    {
      const auto h = wave_run(example, {"Simulation/Final time=0.0078",
                                        "Wave modes/Number of modes=" + std::to_string(N)});
      const auto t = h.times(), E = h.column("total_energy"), lost = h.column("impact_dissipation");
      const auto y = h.column("u_beam_tip"), W = h.column("external_work");
      // A constant force's work between two rows of one phase: F Δy, y from the series (across a
      // switch the projection moves the truncated tip a little).
      std::size_t next_event = 0;
      for (std::size_t r = 1; r < t.size(); ++r)
        {
          bool switched = false;
          for (; next_event < h.events().size() && h.events()[next_event].time <= t[r]; ++next_event)
            switched = true;
          if (!switched)
            {
              ASSERT_NEAR(W[r] - W[r - 1], force * (y[r] - y[r - 1]), 1e-12 * (std::abs(force) * 0.01 + 1)) << t[r];
            }
        }
      const double E0 = E.front();
      ASSERT_GT(h.events().size(), 2u);
      // Rows between two consecutive switches: the energy stays that of the phase's start.
      std::size_t k = 0;
      for (std::size_t e = 0; e <= h.events().size(); ++e)
        {
          const double end = e < h.events().size() ? h.events()[e].time : 1e300;
          double       lo = 1e300, hi = -1e300;
          for (; k < t.size() && t[k] < end; ++k)
            lo = std::min(lo, E[k] - W[k]), hi = std::max(hi, E[k] - W[k]);
          if (hi >= lo)
            {
              EXPECT_LT((hi - lo) / E0, 1e-10) << "N = " << N << ", phase " << e;
            }
        }
      // E + (energy lost at switches) = E0: the switches are where the energy goes.
      for (std::size_t r = 0; r < t.size(); ++r)
        ASSERT_NEAR((E[r] - W[r] + lost[r]) / E0, 1.0, 1e-10) << "N = " << N << ", t = " << t[r];
      EXPECT_FALSE(std::isnan(h.summary.counter("largest energy change at a switch [J]")));
      // The loss at the first impact (the projection of the falling beam and the resting rod
      // on the coupled modes).
      for (std::size_t r = 0; r < t.size(); ++r)
        if (t[r] > h.events()[0].time)
          {
            first_switch_loss.push_back(lost[r] / E0);
            break;
          }
      std::cout << "F = " << force << " N, N = " << N << ": energy lost at the first impact " << first_switch_loss.back()
                << " of E0; at all " << h.events().size() << " switches by 7.8 ms " << lost.back() / E0 << "\n";
    }
  EXPECT_GT(first_switch_loss[0], first_switch_loss[1]);
  EXPECT_GT(first_switch_loss[1], first_switch_loss[2]);
  EXPECT_LT(first_switch_loss[2], 1e-4);
}

INSTANTIATE_TEST_SUITE_P(WaveModes, WaveModesEnergy, ::testing::Values(0.0, -200.0));

// The first contact phase converges with the number of modes: its separation time and impulse
// (the integral of the force) settle; the peak force is sampled at discontinuities of the rod's
// stress waves and carries their Gibbs overshoot, so it is printed, not asserted.
TEST(WaveModes, FirstContactConvergesWithTheNumberOfModes)
{
  std::vector<ContactPhase> phases;
  for (const unsigned int N : {50u, 100u, 200u, 400u})
    {
      const auto h = wave_run("cantilever_on_rod", {"Simulation/Final time=0.0078",
                                                    "Wave modes/Number of modes=" + std::to_string(N)});
      phases.push_back(first_contact(h));
      const auto &c = phases.back();
      std::cout << std::setprecision(8) << "N = " << N << ": first contact " << c.start * 1e3 << " - " << c.end * 1e3
                << " ms, peak force " << c.peak << " N, impulse " << c.impulse << " N s\n";
    }
  for (std::size_t i = 2; i < phases.size(); ++i)
    {
      const double d_end  = std::abs(phases[i].end - phases[i - 1].end);
      const double d_prev = std::abs(phases[i - 1].end - phases[i - 2].end);
      EXPECT_LT(d_end, d_prev) << i;
      EXPECT_LT(std::abs(phases[i].impulse - phases[i - 1].impulse),
                std::abs(phases[i - 1].impulse - phases[i - 2].impulse))
        << i;
    }
  EXPECT_LT(std::abs(phases.back().end - phases[phases.size() - 2].end), 1e-7); // 0.1 µs
}

// A model the wave modes cannot represent is refused before anything runs: exit 2 and one line
// naming the file and the offending entry.
TEST(WaveModes, RejectsWhatItCannotRepresent)
{
  const std::string out = (std::filesystem::temp_directory_path() / "vibroimpact-wave-modes-reject").string();
  const std::vector<std::pair<std::string, std::string>> cases{
    {"cantilever_on_rod", "-s 'Body beam/Left end=pinned'|Body beam/Left end"},
    {"cantilever_on_rod", "-s 'Damping/Rayleigh mass coefficient=1'|Damping"},
    {"cantilever_on_rod", "-s 'Contact tip/Position=0.5'|Contact tip/Position"},
    {"cantilever_on_rod_forced", "-s 'Load tip_force/Position=0.5'|Load tip_force/Distribution"},
    {"pinned_beam_obstacle", "|Body beam/Left end"}};
  for (const auto &[example, spec] : cases)
    {
      const auto        bar       = spec.find('|');
      const std::string overrides = spec.substr(0, bar), parameter = spec.substr(bar + 1);
      test_support::ProgramOptions options;
      options.stderr_file = out + ".err";
      const auto run = test_support::run_program("simulate " + test_cases::example(example) +
                                                   " -s 'Simulation/Solver=wave-modes' " + overrides + " -q -o " + out,
                                                 options);
      const std::string &message = run.error;
      EXPECT_EQ(run.exit_code, 2) << example << " " << overrides;
      EXPECT_NE(message.find("case.prm: " + parameter + ":"), std::string::npos) << message;
      EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
      EXPECT_FALSE(std::filesystem::exists(out));
    }
}

// examples/cantilever_on_rod_forced, F = −0.01 sin 50t N at the tip, starting at rest in contact:
// the first contact phase carries the quasi-static force F k_r/(k_r + k_b) (the load acts at the
// prop) and ends as F changes sign at π/50 s; the external work the solver reports (from the
// exact energy of each phase) equals ∫F v_tip dt of its own tip velocity.
TEST(WaveModes, ForcedBeamOnRodCarriesTheStaticForceAndBalancesTheExternalWork)
{
  const auto h = wave_run("cantilever_on_rod_forced", {"Simulation/Final time=0.09", "Wave modes/Number of modes=100"});
  const auto t = h.times(), force = h.column("force_tip"), v = h.column("v_beam_tip"), W = h.column("external_work");
  const double k_r = 1.0816e8 / 0.1, k_b = 3 * 40727.232 / std::pow(1.0617, 3);
  const double quasi_static = 0.01 * k_r / (k_r + k_b);
  ASSERT_GE(h.events().size(), 2u);
  EXPECT_EQ(h.events()[0].kind, integrators::ContactEvent::Kind::sticking_start);
  EXPECT_EQ(h.events()[0].time, 0.0);
  EXPECT_EQ(h.events()[1].kind, integrators::ContactEvent::Kind::separation);
  EXPECT_NEAR(h.events()[1].time, M_PI / 50, 2e-5);
  const double peak = *std::max_element(force.begin(), force.end());
  std::cout << std::setprecision(8) << "forced: first contact force peak " << peak << " N (quasi-static "
            << quasi_static << " N, paper 0.01004 N), separation at " << h.events()[1].time << " s\n";
  EXPECT_NEAR(peak / quasi_static, 1.0, 1e-3);
  double work = 0.0, largest = 0.0, worst = 0.0;
  for (std::size_t k = 1; k < t.size(); ++k)
    {
      const auto F = [&](double s) { return -0.01 * std::sin(50 * s); };
      work += 0.5 * (F(t[k]) * v[k] + F(t[k - 1]) * v[k - 1]) * (t[k] - t[k - 1]);
      largest = std::max(largest, std::abs(W[k]));
      worst   = std::max(worst, std::abs(work - W[k]));
    }
  EXPECT_GT(largest, 0.0);
  EXPECT_LT(worst, 1e-6 * largest);
}

// Complementarity through the chatter of the forced case (thousands of switches by 0.2 s): apart
// the gap is not negative, in contact the force does not pull. The truncated series can be
// inconsistent at a switch (the new phase's gap or force negative from its start); such a phase
// must end within one sampling step, not run on with the tip inside the rod.
TEST(WaveModes, ForcedChatterNeverPenetratesNorPulls)
{
  const auto h = wave_run("cantilever_on_rod_forced", {"Simulation/Final time=0.2", "Simulation/Output interval=1e-5",
                                                       "Wave modes/Number of modes=100"});
  const auto t = h.times(), gap = h.column("gap_tip"), force = h.column("force_tip");
  EXPECT_GT(h.impacts().size(), 500u);
  const double step = 3e-7; // the example's Wave modes/Time step
  std::size_t  e    = 0, violations = 0;
  for (std::size_t k = 0; k < t.size(); ++k)
    {
      for (; e < h.events().size() && h.events()[e].time <= t[k]; ++e)
        ;
      const double since_switch = e > 0 ? t[k] - h.events()[e - 1].time : t[k];
      if (gap[k] < -1e-15 || force[k] < -1e-12)
        {
          ++violations;
          ASSERT_LE(since_switch, step * (1 + 1e-9)) << "t = " << t[k] << ": gap " << gap[k] << ", force " << force[k];
        }
    }
  std::cout << violations << " of " << t.size() << " rows within a step of an inconsistent switch\n";
}
