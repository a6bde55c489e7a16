// The wave-based period map of the fixed–free rod against a stop (Continuation/Flow map =
// characteristics, periodic/rod_characteristics.h, doc/periodic.md §10): its orbits against the
// staircase derived for the grid and against the continuum's closed form, first-order convergence
// of the first nonsmooth mode under refinement, the exact Jacobian, and the models it refuses.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/periodic/rod_characteristics.h>
#include <vibroimpact/studies/branch_convergence.h>
#include <vibroimpact/studies/continuation_study.h>
#include <vibroimpact/studies/convergence_study.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <cmath>
#include <filesystem>
#include <random>

using namespace vibroimpact;

namespace
{
  std::string example_case()
  {
    return std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/rod_nonsmooth_mode/characteristics.prm";
  }

  studies::ContinuationSetup setup_with(const std::vector<std::string> &overrides = {})
  {
    return studies::prepare_continuation(test_cases::load_case(example_case(), overrides));
  }

  // The contact fraction of an orbit from its events (closed from sticking_start to separation).
  double contact_fraction(const periodic::PeriodicFlowMap &flow, const Eigen::VectorXd &x, const double T)
  {
    double closed = 0, since = 0;
    for (const auto &e : flow.flow(x, T, 0.0, false).events)
      if (e.kind == periodic::ContactEvent::Kind::sticking_start)
        since = e.time;
      else
        closed += e.time - since;
    return closed / T;
  }
} // namespace

// From uniform strain −2B at rest the end moves toward the stop at 2cB; the grid's Signorini
// condition closes the contact at the last step before the end would pass the stop, after
// k = ⌊a/Δx⌋ steps with a = L(1 + √(E_g/E)) the continuum's (doc/periodic.md §10). The compressive
// wave then holds it until the tensile one created by that free phase returns from the clamp
// (2L/c after it began), so T = (2L + kΔx)/c and the contact lasts (2L − kΔx)/c: the continuum's
// orbit with a rounded down to the grid. At every energy the map returns to its state exactly (the
// values are only moved and negated), its energy unchanged, and the frequency lies above the
// closed form's by less than one step in the period.
TEST(RodCharacteristics, OrbitsAreTheContinuumsWithTheContactsClosingRoundedToAStep)
{
  auto        setup = setup_with();
  const auto &flow  = dynamic_cast<const periodic::RodCharacteristicsFlow &>(*setup.flow);
  ASSERT_EQ(flow.cells(), 80u);
  periodic::Rod rod; // the example: L = c = EA = 1, gap 0.1
  const double  Eg = periodic::rod_backbone_grazing_energy(rod), h = 1.0 / 80, dt = flow.time_step();
  EXPECT_DOUBLE_EQ(flow.grazing_energy(1), Eg);
  double largest = 0;
  for (int i = 0; i < 300; ++i)
    {
      const double E     = Eg * std::pow(1000.0, (i + 0.5) / 300);
      const auto   orbit = flow.one_impact_orbit(1, E);
      ASSERT_TRUE(orbit) << E;
      const auto &[x, T] = *orbit;
      const double a     = 1.0 + std::sqrt(Eg / E);
      const double k     = std::floor(a / h + 1e-9);
      EXPECT_NEAR(T, 2.0 + k * h, 1e-12) << E;
      const auto result = flow.flow(x, T, 0.0, false);
      EXPECT_EQ(result.x, x) << E;
      EXPECT_NEAR(flow.energy(result.x), E, 1e-12 * E);
      EXPECT_GE(result.min_gap, -1e-12);
      EXPECT_NEAR(contact_fraction(flow, x, T), (2.0 - k * h) / (2.0 + k * h), 1e-12) << E;
      const auto exact = periodic::rod_first_nonsmooth_mode(rod, E);
      EXPECT_LE(T, exact.period + 1e-12);
      EXPECT_LT(exact.period - T, dt + 1e-12);
      largest = std::max(largest, 2 * M_PI / T / exact.frequency - 1);
    }
  EXPECT_LT(largest, dt / (3 * 1.0 / 1.0)); // T > 3L/c
  // Below grazing: the free square-wave motion, period 4L/c, no contact.
  const auto below = flow.one_impact_orbit(1, 0.9 * Eg);
  ASSERT_TRUE(below);
  EXPECT_NEAR(below->second, 4.0, 1e-12);
  EXPECT_EQ(contact_fraction(flow, below->first, below->second), 0.0);
}

// A stop below the end (Side = below, u(L) ≥ −g) is the mirror image: the same periods.
TEST(RodCharacteristics, AStopBelowTheEndIsTheMirrorImage)
{
  auto above = setup_with(), below = setup_with({"Contact stop/Side=below"});
  for (const double factor : {1.7, 13.0, 77.0})
    {
      const double E = factor * above.flow->grazing_energy(1);
      const auto   a = above.flow->one_impact_orbit(1, E), b = below.flow->one_impact_orbit(1, E);
      ASSERT_TRUE(a && b);
      EXPECT_EQ(a->second, b->second);
      EXPECT_EQ(a->first, -b->first);
    }
}

// The orbit in the model's coordinates (sample: what orbit files and probes read), against the
// closed form's fields: at rest mid free phase u = −2Bx, v = 0 (the end farthest from a stop above
// it); the end never passes the stop and rests on or short of it (by less than 2BΔx) while held,
// with zero velocity; the clamp never moves.
TEST(RodCharacteristics, SampledOrbitHasTheClosedFormsFieldsAndRestsOnTheStop)
{
  auto         setup = setup_with();
  const auto  &flow  = *setup.flow;
  const auto  &model = *setup.model;
  const double E = 10 * flow.grazing_energy(1), B = std::sqrt(E / 2.0), h = 1.0 / 80, gap = 0.1;
  const auto   orbit = flow.one_impact_orbit(1, E);
  ASSERT_TRUE(orbit);
  const auto samples = flow.sample(orbit->first, orbit->second, 400);
  const auto &end    = model.probes.front().row;
  const auto &rod    = model.continuum.bodies.front();
  for (unsigned int d = 0; d < rod.n_dofs; ++d)
    {
      const double x = rod.dof_coordinates[d];
      EXPECT_NEAR(samples.displacement[0](rod.first_dof + d), -2 * B * x, 1e-12);
      // The end turns there (its displacement is a triangle in time): it reads the step after.
      EXPECT_EQ(samples.velocity[0](rod.first_dof + d), x < 1 ? 0.0 : 2 * B) << x;
    }
  unsigned int held = 0;
  for (std::size_t k = 0; k < samples.time.size(); ++k)
    {
      const double u = end.dot(samples.displacement[k]), v = end.dot(samples.velocity[k]);
      EXPECT_LE(u, gap + 1e-12);
      if (v == 0.0) // held: on the stop or short of it by less than one step's motion
        {
          ++held;
          EXPECT_GT(u, gap - 2 * B * h) << samples.time[k];
        }
      else
        EXPECT_NEAR(std::abs(v), 2 * B, 1e-12) << samples.time[k]; // the end moves at 2cB when free
      EXPECT_NEAR(samples.energy[k], E, 1e-12 * E);
    }
  // The contact lasts (2L − kΔx)/c of T = (2L + kΔx)/c: about a fifth of the samples.
  const auto exact = periodic::rod_first_nonsmooth_mode(periodic::Rod{}, E);
  EXPECT_NEAR(double(held) / samples.time.size(), exact.contact_duration / exact.period, 0.01);
}

// Along fixed contact decisions a step is a signed permutation of the waves: the Jacobian of a
// period is that permutation (orthogonal, so every Floquet multiplier has modulus 1), and it maps
// the start to the end exactly (the map is linear between decisions).
TEST(RodCharacteristics, JacobianIsTheSignedPermutationOfTheSteps)
{
  auto                             setup = setup_with({"Body rod/Number of elements=20"});
  const auto                      &flow  = *setup.flow;
  std::mt19937                     random(7);
  std::normal_distribution<double> normal;
  Eigen::VectorXd                  x = flow.linear_mode_state(1, 20 * flow.grazing_energy(1));
  for (Eigen::Index i = 0; i < x.size(); ++i)
    x(i) += 0.05 * x(i) * normal(random);
  const auto result = flow.flow(x, 2.9, 0.0, true);
  EXPECT_FALSE(result.events.empty()); // the contact closed along the way
  EXPECT_LT((result.jacobian * x - result.x).norm(), 1e-14 * x.norm());
  EXPECT_LT((result.jacobian.transpose() * result.jacobian -
             Eigen::MatrixXd::Identity(x.size(), x.size())).norm(), 1e-14);
  EXPECT_NEAR(flow.energy(result.x), flow.energy(x), 1e-14 * flow.energy(x));
}

// The first nonsmooth mode converges with the mesh: at 80, 160, 320 and 640 elements the largest
// frequency error against the closed form over 1.5 – 100 E_g is below Δt/T < 1/(3N) (0.42 % at
// 80 elements, within the 1 % asserted) and halves with each bisection (first order); the contact
// fraction at each tabulated energy is within 2Δt/T of the closed form's. An energy below the
// scanned range is reported outside, with no value.
TEST(RodCharacteristics, FirstNonsmoothModeConvergesAtFirstOrderWithTheMesh)
{
  const auto c      = test_cases::load_case(example_case());
  const auto setup  = studies::prepare_convergence(c);
  const auto result = studies::run_convergence(setup);
  ASSERT_TRUE(result.branch);
  const auto &b = *result.branch;
  ASSERT_EQ(b.meshes.size(), 4u);
  EXPECT_FALSE(b.finest_is_reference);
  std::vector<double> band;
  for (std::size_t m = 0; m < b.meshes.size(); ++m)
    {
      const auto  [error, points] = b.largest_frequency_error(m);
      const auto &mesh            = b.meshes[m];
      EXPECT_EQ(mesh.n_elements, 80u << m);
      EXPECT_GT(points, 150u);
      EXPECT_LT(error, 1.0 / (3 * mesh.n_elements));
      band.push_back(error);
      for (std::size_t e = 0; e < b.energies.size(); ++e)
        {
          EXPECT_EQ(b.values[e][m].cover, studies::EnergyCover::backbone);
          EXPECT_LT(b.values[e][m].frequency_error, 1.0 / (3 * mesh.n_elements));
          EXPECT_LT(b.values[e][m].contact_error, 2.0 / (3 * mesh.n_elements));
        }
    }
  EXPECT_LT(band[0], 0.01);
  for (std::size_t m = 1; m < band.size(); ++m)
    EXPECT_NEAR(std::log2(band[m - 1] / band[m]), 1.0, 0.2) << b.meshes[m].n_elements;

  const auto below = studies::run_convergence(studies::prepare_convergence(
    test_cases::load_case(example_case(), {"Convergence/Energies=0.004, 0.05", "Convergence/Refinement cycles=1"})));
  EXPECT_EQ(below.branch->values[0][0].cover, studies::EnergyCover::outside);
  EXPECT_TRUE(std::isnan(below.branch->values[0][0].frequency));
  EXPECT_EQ(below.branch->values[1][0].cover, studies::EnergyCover::backbone);

  const auto dir = std::filesystem::temp_directory_path() / "vibroimpact_rod_characteristics";
  std::filesystem::remove_all(dir);
  {
    io::OutputFolder out(dir, "converge");
    studies::write_convergence(result, out);
    out.commit();
  }
  EXPECT_EQ(test_cases::csv_column(dir / "convergence.csv", "frequency").size(), 4 * b.energies.size());
}

// The map takes one uniform fixed–free rod with its stop at the end, nothing else: other models
// get one line naming Continuation/Flow map.
TEST(RodCharacteristics, RefusesAModelThatIsNotAFixedFreeRodAgainstAStop)
{
  const auto refused = [](const std::string &example, const std::vector<std::string> &overrides) {
    try
      {
        studies::prepare_continuation(test_cases::load_case(example, overrides));
      }
    catch (const io::InputError &e)
      {
        return std::string(e.what());
      }
    return std::string();
  };
  const std::string beam = refused(test_cases::example("pinned_beam_backbone"),
                                   {"Continuation/Flow map=characteristics"});
  EXPECT_NE(beam.find("Continuation/Flow map"), std::string::npos) << beam;
  EXPECT_NE(beam.find("not one rod"), std::string::npos) << beam;
  const std::string free_free = refused(example_case(), {"Body rod/Left end=free"});
  EXPECT_NE(free_free.find("not fixed at x = 0"), std::string::npos) << free_free;
  const std::string middle = refused(example_case(), {"Contact stop/Position=0.5"});
  EXPECT_NE(middle.find("is not at x = L"), std::string::npos) << middle;
  const std::string second = refused(example_case(), {"Continuation/Families=1, 2"});
  EXPECT_NE(second.find("mode 1 only"), std::string::npos) << second;
  const std::string graded =
    refused(example_case(), {"Body rod/Mesh file=" + std::string(VIBROIMPACT_SOURCE_DIR) +
                             "/meshes/unit_beam_graded_x0.4.msh"});
  EXPECT_NE(graded.find("not all of one length"), std::string::npos) << graded;
  const std::string simulated = refused(example_case(), {"Continuation/Start=simulation"});
  EXPECT_NE(simulated.find("not by simulation"), std::string::npos) << simulated;
  // A start of zero energy (no initial state given) is refused when the family is traced.
  auto still = setup_with({"Continuation/Start=initial state", "Continuation/Start period=3"});
  EXPECT_THROW(studies::trace_families(still.continuation, *still.flow, true), io::InputError);
}
