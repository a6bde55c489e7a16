// The mesh convergence of a nonsmooth mode (`converge` with Convergence/Study = branch,
// studies/branch_convergence.h): the FE beam's one-impact backbone converges at the order of its
// modes, h⁴, at fixed energies; the interpolation at fixed energies reproduces a closed-form
// backbone and never reads a tongue.
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/studies/branch_convergence.h>
#include <vibroimpact/studies/convergence_study.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <cmath>
#include <filesystem>

using namespace vibroimpact;

// examples/pinned_beam_backbone (4 FE modes, e = 1, 1.01 – 1.52 E_g) at 20, 40 and 80 elements:
// the frequency at each of the five default energies converges with the order of the Hermite
// beam's frequencies (doc/validation.md §8: p = 3.98 from the branch points), so the Richardson
// order of the three meshes is 4 and the rate 20 → 40 against the finest is log2(2⁴ + 1) = 4.09.
// The orbits impact instantaneously: no contact time.
TEST(BranchConvergence, PinnedBeamBackboneConvergesAtTheOrderOfItsModes)
{
  const auto c      = test_cases::load_case(test_cases::example("pinned_beam_backbone"),
                                            {"Convergence/Study=branch", "Convergence/Refinement cycles=3"});
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
