// The mesh convergence of a nonsmooth mode (`converge` with Convergence/Study = branch,
// studies/branch_convergence.h): the FE beam's one-impact backbone converges at the order of its
// modes, h⁴, at fixed energies; the interpolation at fixed energies reproduces a closed-form
// backbone and never reads a tongue.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/studies/branch_convergence.h>
#include <vibroimpact/studies/continuation_study.h>
#include <vibroimpact/studies/convergence_study.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <tuple>
#include <vector>

using namespace vibroimpact;

// examples/pinned_beam_backbone (4 FE modes, e = 1, 1.01 – 1.52 E_g) at 20, 40 and 80 elements:
// the frequency at each of the five default energies converges with the order of the Hermite
// beam's frequencies (doc/validation-periodic.md §8.6: p = 3.98 from the branch points), so the
// Richardson order of the three meshes is 4 and the rate 20 → 40 against the finest is
// log2(2⁴ + 1) = 4.09. The orbits impact instantaneously: no contact time.
TEST(BranchConvergence, PinnedBeamBackboneConvergesAtTheOrderOfItsModes)
{
  const auto c      = test_cases::load_case(test_cases::example("pinned_beam_backbone")); // its Convergence section
  const auto setup  = studies::prepare_convergence(c);
  const auto result = studies::run_convergence(setup);
  ASSERT_TRUE(result.branch);
  const auto &b = *result.branch;
  ASSERT_EQ(b.meshes.size(), 3u);
  EXPECT_EQ(b.meshes.back().n_elements, 80u);
  ASSERT_EQ(b.energies.size(), 5u);
  EXPECT_TRUE(b.finest_is_reference);
  for (unsigned int e = 0; e < b.energies.size(); ++e)
    {
      for (const auto &v : b.values[e])
        {
          EXPECT_EQ(v.cover, studies::EnergyCover::backbone);
          EXPECT_EQ(v.contact_fraction, 0.0);
        }
      EXPECT_NEAR(b.richardson_order(e, false), 4.0, 0.15) << "E = " << b.energies[e];
      EXPECT_NEAR(b.observed_rate(e, 1, false), std::log2(17.0), 0.15) << "E = " << b.energies[e];
      EXPECT_LT(b.values[e][0].frequency_error, 2e-4); // the coarse mesh is already close
    }

  // The files the verb writes: a row per energy and mesh, every branch point.
  const auto dir = std::filesystem::temp_directory_path() / "vibroimpact_branch_convergence_beam";
  std::filesystem::remove_all(dir);
  {
    io::OutputFolder out(dir, "converge");
    studies::write_convergence(result, out);
    out.commit();
  }
  EXPECT_EQ(test_cases::csv_column(dir / "convergence.csv", "frequency").size(), 15u);
  EXPECT_EQ(test_cases::csv_column(dir / "branches.csv", "energy").size(),
            b.meshes[0].energy.size() + b.meshes[1].energy.size() + b.meshes[2].energy.size());
}

// Branch points = at energies on the elastic obstacle (k = 100, every FE mode, 10/20/40
// elements): each mesh's orbit at each energy is solved alone; at E = 0.012 the frequencies are
// the single orbits' of doc/continuation-beam.md §2 (10.9724127, 10.9722665, 10.9722565: order
// 3.9), the contact fraction converges with them; below grazing (E_g = 0.00269) the orbit is the
// linear mode (ω = π², no contact).
TEST(BranchConvergence, ElasticBeamOrbitsSolvedAtTheEnergiesConvergeAtTheOrderOfTheModes)
{
  const auto c = test_cases::load_case(std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/pinned_beam_backbone/elastic.prm",
                                       {"Body beam/Number of elements=10", "Convergence/Refinement cycles=3",
                                        "Convergence/Energies=0.002,0.012", "Convergence/Branch points=at energies"});
  const auto result = studies::run_convergence(studies::prepare_convergence(c));
  ASSERT_TRUE(result.branch);
  const auto &b = *result.branch;
  ASSERT_EQ(b.meshes.size(), 3u);
  ASSERT_EQ(b.energies.size(), 2u);
  for (unsigned int m = 0; m < 3; ++m)
    {
      EXPECT_NEAR(b.values[0][m].frequency, M_PI * M_PI, 1e-4) << m;
      EXPECT_EQ(b.values[0][m].contact_fraction, 0.0) << m;
      EXPECT_EQ(b.values[1][m].cover, studies::EnergyCover::backbone);
      EXPECT_EQ(b.meshes[m].energy.size(), 2u);
    }
  EXPECT_NEAR(b.values[1][0].frequency, 10.9724127, 2e-7);
  EXPECT_NEAR(b.values[1][1].frequency, 10.9722665, 2e-7);
  EXPECT_NEAR(b.values[1][2].frequency, 10.9722565, 2e-7);
  EXPECT_NEAR(b.richardson_order(1, false), 3.9, 0.3);
  EXPECT_GT(b.richardson_order(1, true), 3.0) << "the contact fraction converges with the frequency";
  EXPECT_NEAR(b.values[1][2].contact_fraction, 0.2677, 1e-3);
}

// A branch made of the rod's closed-form backbone at scattered energies, with a stretch of
// tongue points (locked frequency) in the middle: at fixed energies the cubic in ln E gives the
// closed form to 1e-6 (a linear one is 5e-6 – 1.3e-5 off at these spacings), the contact
// fraction too; an energy only the tongue covers is reported as such, one beyond the branch as
// outside, and neither gets a value.
TEST(BranchConvergence, InterpolationReproducesTheRodClosedFormAndSkipsTongues)
{
  const periodic::Rod rod; // L = c = EA = 1, gap 0.1: E_g = 0.005
  const double        Eg = periodic::rod_backbone_grazing_energy(rod);
  studies::MeshBranch branch;
  std::vector<double> fraction;
  for (int k = 0; k < 60; ++k)
    {
      const double E = 1.5 * Eg * std::pow(1.08, k) * (1 + 0.02 * std::sin(3.0 * k));
      const auto   p = periodic::rod_first_nonsmooth_mode(rod, E);
      const bool   tongue = k >= 30 && k <= 34;
      branch.energy.push_back(E);
      branch.frequency.push_back(tongue ? branch.frequency[29] : p.frequency);
      branch.tongue.push_back(tongue ? "mode 7 at 1:13" : "");
      fraction.push_back(p.contact_duration / p.period);
    }
  const auto contact = [&](const std::size_t k) { return fraction[k]; };
  for (const double factor : {2.0, 5.0, 10.0, 100.0})
    {
      const auto exact = periodic::rod_first_nonsmooth_mode(rod, factor * Eg);
      const auto v     = studies::interpolate_branch(branch, factor * Eg, contact);
      ASSERT_EQ(v.cover, studies::EnergyCover::backbone) << factor << " E_g";
      EXPECT_NEAR(v.frequency / exact.frequency - 1, 0.0, 1e-6) << factor << " E_g";
      EXPECT_NEAR(v.contact_fraction, exact.contact_duration / exact.period, 1e-6) << factor << " E_g";
    }
  const double in_tongue = 0.5 * (branch.energy[31] + branch.energy[33]);
  const auto   tongue    = studies::interpolate_branch(branch, in_tongue, contact);
  EXPECT_EQ(tongue.cover, studies::EnergyCover::tongue);
  EXPECT_TRUE(std::isnan(tongue.frequency));
  const auto outside = studies::interpolate_branch(branch, 2 * branch.energy.back(), contact);
  EXPECT_EQ(outside.cover, studies::EnergyCover::outside);
  EXPECT_TRUE(std::isnan(outside.frequency));
}

// Why the beam's family is traced on 4 modes and not on all FE modes (doc/continuation-beam.md
// §1): the start of an e = 1 one-impact family is the reversible orbit of period T (turning point
// p, impact at T/2), whose modal amplitudes are p_k ∝ b_k / (ω_k sin(ω_k T/2)), b_k the mode at
// the contact: every mode gets energy ∝ b_k² / sin²(ω_k T/2), O(1) for each FE mode of a point
// contact, and without bound where ω_k ≈ n ω (internal resonances). With all 40 modes of the
// 20-element beam, at 1.5 E_g the modes above the fourth carry a third of the energy, the period
// stays within 1 % of the linear one (the 4-mode family is at T/T1 = 0.943 there), and the orbit
// is not admissible: the beam reaches the stop before T/2, so the flow does not return (Newton's
// start is off by O(1)). On 4 modes the same construction is an orbit.
TEST(BranchConvergence, PinnedBeamStartWithAllModesSpreadsTheEnergyAndIsNotAnOrbit)
{
  const auto orbit_of = [](const std::string &modes) {
    const auto c     = test_cases::load_case(test_cases::example("pinned_beam_backbone"),
                                             {"Continuation/Number of modes=" + modes});
    auto       setup = studies::prepare_continuation(c);
    const auto &flow = *setup.flow;
    const auto start = flow.one_impact_orbit(1, 1.5 * flow.grazing_energy(1));
    EXPECT_TRUE(start);
    const auto &[x, T] = *start;
    double high = 0;
    for (Eigen::Index k = 4; k < flow.dimension() / 2; ++k)
      high += 0.5 * std::pow(2 * M_PI / flow.linear_period(unsigned(k + 1)) * x[k], 2) / flow.energy(x);
    const double residual = (flow.flow(x, T, 0.0, false).x - x).norm() / x.norm();
    return std::array<double, 3>{{high, T / flow.linear_period(1), residual}};
  };
  const auto all = orbit_of("0"), four = orbit_of("4");
  EXPECT_GT(all[0], 0.3);
  EXPECT_NEAR(all[1], 1.0, 0.01);
  EXPECT_GT(all[2], 0.1);
  EXPECT_EQ(four[0], 0.0);
  EXPECT_LT(four[1], 0.95);
  EXPECT_LT(four[2], 1e-6);
}

namespace
{
  // `value` to `n` significant digits, as the documentation writes them: 0.60, 4.5e-8.
  std::string digits(const double value, const int n)
  {
    char text[32];
    std::snprintf(text, sizeof text, "%#.*g", n, value);
    std::string s = text;
    for (const std::string exponent : {"e-0", "e+0"})
      if (const auto at = s.find(exponent); at != std::string::npos)
        s.erase(at + 2, 1);
    if (s.back() == '.')
      s.pop_back();
    return s;
  }
} // namespace

// doc/continuation-beam.md §1's table of the reversible starts, printed (opt-in, 20 – 80 elements
// with every mode take a while): with all FE modes the energy above grazing goes into the modes
// above the fourth and the period stays within 1 % of T1 at every mesh; with 4 modes the start
// is an orbit. Run by build/tests/vibroimpact_tests --gtest_also_run_disabled_tests
// --gtest_filter='*ReversibleStartsTable'.
TEST(BranchConvergence, DISABLED_ReversibleStartsTable)
{
  std::printf("| elements (modes) | E/E_g | T/T1 | energy in modes > 4 | smallest sin(ω_k T/2), k > 4 | flow residual "
              "from it |\n|---:|---:|---:|---:|---:|---:|\n");
  for (const auto &[elements, modes, factors] : {std::tuple{20, "0", std::vector{1.01, 1.2, 1.5}},
                                                 std::tuple{40, "0", std::vector{1.01, 1.2, 1.5}},
                                                 std::tuple{80, "0", std::vector{1.01, 1.2, 1.5}},
                                                 std::tuple{20, "4", std::vector{1.5}}})
    {
      const auto c     = test_cases::load_case(test_cases::example("pinned_beam_backbone"),
                                               {"Continuation/Number of modes=" + std::string(modes),
                                                "Body beam/Number of elements=" + std::to_string(elements)});
      const auto setup = studies::prepare_continuation(c);
      const auto &flow = *setup.flow;
      const auto  n    = flow.dimension() / 2;
      std::string columns[4];
      for (const double factor : factors)
        {
          const auto start = flow.one_impact_orbit(1, factor * flow.grazing_energy(1));
          ASSERT_TRUE(start) << elements << " elements, " << factor << " E_g";
          const auto &[x, T] = *start;
          double high = 0, smallest_sine = 1;
          for (Eigen::Index k = 4; k < n; ++k)
            {
              const double omega = 2 * M_PI / flow.linear_period(unsigned(k + 1));
              high += 0.5 * std::pow(omega * x[k], 2) / flow.energy(x); // at the turning point: all potential
              smallest_sine = std::min(smallest_sine, std::abs(std::sin(omega * T / 2)));
            }
          const double residual = (flow.flow(x, T, 0.0, false).x - x).norm() / x.norm();
          const std::string cell[4] = {digits(T / flow.linear_period(1), 4), digits(100 * high, 2),
                                       digits(smallest_sine, 2), digits(residual, 2)};
          for (int k = 0; k < 4; ++k)
            columns[k] += (columns[k].empty() ? "" : " / ") + cell[k];
          if (n > 4)
            {
              EXPECT_GT(high, 0.03) << elements << " elements, " << factor << " E_g";
              EXPECT_NEAR(T / flow.linear_period(1), 1.0, 0.01) << elements << " elements, " << factor << " E_g";
            }
          else
            EXPECT_LT(residual, 1e-6);
        }
      std::string energies;
      for (const double factor : factors)
        energies += (energies.empty() ? "" : " / ") + (std::ostringstream() << factor).str();
      if (n > 4)
        std::printf("| %d (%ld) | %s | %s | %s %% | %s | %s |\n", elements, long(n), energies.c_str(),
                    columns[0].c_str(), columns[1].c_str(), columns[2].c_str(), columns[3].c_str());
      else
        std::printf("| %d (%ld) | %s | %s | 0 | | < 1e-6 |\n", elements, long(n), energies.c_str(), columns[0].c_str());
    }
}

// A branch study needs what it traces: a Continuation section of free families; a closed form
// only where the case is that structure.
TEST(BranchConvergence, RefusesACaseWithoutAFamilyOrWithAnotherStructuresClosedForm)
{
  EXPECT_THROW(studies::prepare_convergence(test_cases::load_case(test_cases::example("bar_on_rigid_wall"),
                                                                  {"Convergence/Study=branch"})),
               io::InputError);
  EXPECT_THROW(studies::prepare_convergence(test_cases::load_case(test_cases::example("pinned_beam_backbone"),
                                                                  {"Convergence/Exact solution=fixed-free rod"})),
               io::InputError);
}
