// The Timoshenko beam body (source/structure/timoshenko_body.cc) against the closed form of the
// pinned–pinned beam, both branches of (κGA k² − ρA ω²)(EI k² + κGA − ρI ω²) = (κGA k)²
// (tests/timoshenko_beam.prm: L/r = 20): the finite-element frequencies converge to it at the
// elements' rate, the slender limit does not lock, and the Euler–Bernoulli limit is today's beam.
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/structure/timoshenko_description.h>

#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace vibroimpact;

namespace
{
  const std::string timoshenko_case = std::string(VIBROIMPACT_SOURCE_DIR) + "/tests/timoshenko_beam.prm";

  // The first n frequencies of the case's beam with the overrides, and the closed form's.
  struct Frequencies
  {
    Eigen::VectorXd     computed;
    std::vector<double> exact;
  };

  Frequencies frequencies(const std::vector<std::string> &overrides, const unsigned int n)
  {
    const auto  c     = test_cases::load_case(timoshenko_case, overrides);
    const auto  model = structure::build_model(c.description);
    const auto &body  = c.description.bodies.front();
    const auto &t     = body.kind_entries<structure::TimoshenkoDescription>();
    return {model::compute_modes(model, n).omegas,
            structure::pinned_pinned_timoshenko_frequencies(body.stiffness, t.shear_stiffness, body.mass_per_length,
                                                            t.rotary_inertia, body.length, n)};
  }

  // log2 of the error ratio of mode j between a mesh and its bisection.
  double observed_rate(const Frequencies &coarse, const Frequencies &fine, const unsigned int j)
  {
    return std::log2(std::abs(coarse.computed[j] / coarse.exact[j] - 1) / std::abs(fine.computed[j] / fine.exact[j] - 1));
  }
} // namespace

// Ten modes on a mesh and its bisection (32/64 linear, 16/32 quadratic elements): the closed
// form's ten lowest hold the shear branch's k = 0 root (w = 0, θ uniform: exact on any mesh) and
// its first k = π/L root; every other mode converges at the elements' rate, 2 for linear and 4
// for quadratic fields (h^{2p}).
TEST(TimoshenkoBeam, ModesConvergeToBothBranchesOfTheClosedForm)
{
  const unsigned int n            = 10;
  const double       shear_cutoff = std::sqrt(128.2 / 0.0025); // κGA/ρI: the shear branch starts there
  for (const unsigned int degree : {1u, 2u})
    {
      const std::string p = "Body beam/Element degree=" + std::to_string(degree);
      const unsigned int elements = degree == 1 ? 32 : 16;
      const auto coarse = frequencies({p, "Body beam/Number of elements=" + std::to_string(elements)}, n);
      const auto fine   = frequencies({p, "Body beam/Number of elements=" + std::to_string(2 * elements)}, n);
      ASSERT_EQ(fine.computed.size(), Eigen::Index(n));
      unsigned int shear_modes = 0;
      for (unsigned int j = 0; j < n; ++j)
        {
          const double error = std::abs(fine.computed[j] / fine.exact[j] - 1);
          shear_modes += fine.exact[j] >= shear_cutoff * (1 - 1e-12) ? 1 : 0;
          if (std::abs(fine.exact[j] / shear_cutoff - 1) < 1e-12)
            {
              EXPECT_LT(error, 1e-10) << "the uniform rotation is exact on any mesh";
              continue;
            }
          const double rate = observed_rate(coarse, fine, j);
          std::printf("[ measured ] degree %u, mode %u: omega %.6f (closed form %.6f), rate %.3f\n", degree, j + 1,
                      fine.computed[j], fine.exact[j], rate);
          EXPECT_NEAR(rate, 2.0 * degree, 0.15) << "mode " << j + 1 << ", degree " << degree;
          EXPECT_LT(error, degree == 1 ? 0.05 : 1e-3);
        }
      EXPECT_GE(shear_modes, 2u) << "shear-branch modes among the first " << n;
    }
}

// Locking: on 16 linear elements the first two frequencies of a slender beam (L/r = 1000: κGA =
// 3.2e5, ρI = 1e-6) are as far from their closed form as those of the stocky one (L/r = 20),
// within a factor 1.5. Full integration of the shear term would stiffen the slender beam's
// elements by κGA h²/EI ~ 1e3 (seen: the test fails with it).
TEST(TimoshenkoBeam, SlenderBeamDoesNotLock)
{
  const auto slender =
    frequencies({"Body beam/Shear stiffness=3.2e5", "Body beam/Rotary inertia per unit length=1e-6"}, 2);
  const auto stocky = frequencies({}, 2);
  for (unsigned int j = 0; j < 2; ++j)
    {
      const double e_slender = std::abs(slender.computed[j] / slender.exact[j] - 1),
                   e_stocky  = std::abs(stocky.computed[j] / stocky.exact[j] - 1);
      std::printf("[ measured ] mode %u on 16 elements: error %.3e at L/r = 1000, %.3e at L/r = 20\n", j + 1,
                  e_slender, e_stocky);
      EXPECT_LT(e_slender, 1.5 * e_stocky) << "mode " << j + 1;
    }
}

// κGA → ∞, ρI → 0: the Euler–Bernoulli beam's (jπ)² to the linear elements' error at 128 elements.
TEST(TimoshenkoBeam, StiffInShearItIsTheEulerBernoulliBeam)
{
  const auto f = frequencies({"Body beam/Shear stiffness=1e9", "Body beam/Rotary inertia per unit length=1e-12",
                              "Body beam/Number of elements=128"},
                             3);
  for (unsigned int j = 0; j < 3; ++j)
    EXPECT_NEAR(f.computed[j] / std::pow((j + 1) * M_PI, 2), 1.0, 2e-4 * (j + 1) * (j + 1)) << "mode " << j + 1;
}

// Every solver on a Timoshenko beam thrown at the obstacle (examples/pinned_beam_obstacle with its
// beam a Timoshenko beam of L/r = 20, e = 1, 1 s): each impacts and closes its energy ledger to its
// own accuracy (measured on 10 s: Moreau–Jean 1.9e-11, modal CoR 1.7e-8, penalty 8.7e-10,
// Udwadia–Kalaba 1.4e-4, as on the Euler–Bernoulli beam: 1.3e-3); the wave modes refuse it.
class TimoshenkoSolvers : public ::testing::TestWithParam<std::pair<const char *, double>>
{};

TEST_P(TimoshenkoSolvers, CloseTheirEnergyBalance)
{
  const auto [solver, tolerance] = GetParam();
  const auto c = test_cases::load_case(
    test_cases::example("pinned_beam_obstacle"),
    {"Body beam/Type=timoshenko beam", "Body beam/Shear stiffness=128.2", "Body beam/Rotary inertia per unit length=0.0025",
     std::string("Simulation/Solver=") + solver, "Simulation/Final time=1", "Simulation/Frame interval=0"});
  const auto model   = structure::build_model(c.description);
  const auto history = integrators::run_to_history(c.solver(), model, c.run);
  std::printf("[ measured ] %s: %lu impacts, relative balance error %.3e\n", solver, history.summary.impacts,
              history.summary.relative_balance_error);
  EXPECT_GT(history.summary.impacts, 0u);
  EXPECT_LT(std::abs(history.summary.relative_balance_error), tolerance);
}

INSTANTIATE_TEST_SUITE_P(TimoshenkoBeam, TimoshenkoSolvers,
                         ::testing::Values(std::make_pair("moreau-jean", 1e-9), std::make_pair("modal-cor", 1e-6),
                                           std::make_pair("modal-penalty", 1e-7), std::make_pair("modal-uk", 1e-3)));

// Its periodic orbits by the two period maps: the first nonsmooth mode on the elastic obstacle
// (examples/pinned_beam_backbone/elastic.prm with the beam of L/r = 20, k = 100, 20 elements, every
// FE mode, 2 E_g) by the event-driven map is an orbit of Moreau–Jean's steps to O(h²): one period
// of n steps from it returns to it on its first four modes within errors falling 4× a halving
// once the step resolves the shear branch's modes (4.6e-5, 1.2e-5, 2.9e-6 at 4000, 8000, 16000
// steps; 1000 and 2000 steps: 2.6e-4, 1.5e-4).
TEST(TimoshenkoBeam, MoreauJeanReturnsToTheEventDrivenOrbitAtSecondOrder)
{
  const auto c = test_cases::load_case(
    std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/pinned_beam_backbone/elastic.prm",
    {"Body beam/Type=timoshenko beam", "Body beam/Shear stiffness=128.2", "Body beam/Rotary inertia per unit length=0.0025"});
  const auto                           model = structure::build_model(c.description);
  const periodic::LinearImpactFlow     flow(model, periodic::LinearImpactFlowSettings{});
  periodic::ContinuationSettings settings;
  settings.start_energy_factor = 2;
  settings.max_points          = 1;
  const auto branch            = periodic::continue_free_family(flow, settings);
  ASSERT_FALSE(branch.points.empty()) << branch.stop_reason;
  const auto &orbit = branch.points.front();
  ASSERT_LT(orbit.residual, 1e-8);
  const auto   samples = flow.sample(orbit.state, orbit.period, 1);
  const auto   low     = [](const Eigen::VectorXd &x) {
    const Eigen::Index m = x.size() / 2;
    Eigen::VectorXd    y(8);
    y << x.head(4), x.segment(m, 4);
    return y;
  };
  std::vector<double> errors;
  for (const unsigned int n : {4000u, 8000u, 16000u})
    {
      integrators::MoreauJeanSettings mj;
      mj.time_step = orbit.period / n;
      const integrators::MoreauJean osi(model, mj);
      integrators::State            state{samples.displacement.front(), samples.velocity.front(), 0.0};
      osi.advance(state, n);
      errors.push_back((low(flow.modal_state(state.u, state.v)) - low(orbit.state)).norm() / low(orbit.state).norm());
    }
  std::printf("[ measured ] return errors %.3e %.3e %.3e\n", errors[0], errors[1], errors[2]);
  EXPECT_LT(errors[0], 1e-4);
  EXPECT_NEAR(errors[0] / errors[1], 4.0, 0.8);
  EXPECT_NEAR(errors[1] / errors[2], 4.0, 0.8);
}

TEST(TimoshenkoBeam, TheWaveModesRefuseIt)
{
  try
    {
      const auto c = test_cases::load_case(test_cases::example("cantilever_on_rod"),
                                           {"Body beam/Type=timoshenko beam", "Body beam/Shear stiffness=100",
                                            "Body beam/Rotary inertia per unit length=0.001",
                                            "Simulation/Solver=wave-modes"});
      c.solver().check(structure::build_model(c.description), c.run, c.filename);
      ADD_FAILURE() << "the wave modes took a timoshenko beam";
    }
  catch (const io::InputError &e)
    {
      EXPECT_NE(std::string(e.what()).find("a timoshenko beam"), std::string::npos) << e.what();
    }
}

// examples/timoshenko_beam_obstacle (e = 0, released onto the obstacle at zero gap): the energy a
// perfectly inelastic impact takes out of the Timoshenko beam over 1 s falls with the mesh at
// about h^1 (h ∝ dx: 8.3 %, 3.8 %, 2.0 % on 20, 40, 80 elements): its contact is a regular
// problem, the limit conserves energy. The Euler–Bernoulli beam's loss on the same meshes stays
// above 17 % (23.1 %, 18.4 %, 17.6 %): its contact has no mesh limit (doc/timoshenko.md).
TEST(TimoshenkoBeam, InelasticImpactLossVanishesWithTheMesh)
{
  const auto loss = [](const std::string &type, const unsigned int elements) {
    const auto c = test_cases::load_case(
      test_cases::example("timoshenko_beam_obstacle"),
      {"Body beam/Type=" + type, "Body beam/Number of elements=" + std::to_string(elements),
       "Moreau-Jean/Time step=" + std::to_string(1e-4 * 20 / elements), "Simulation/Frame interval=0"});
    const auto model   = structure::build_model(c.description);
    const auto summary = integrators::run_to_history(c.solver(), model, c.run).summary;
    return 1 - summary.final_energy / summary.initial_energy;
  };
  double previous = 0;
  for (const unsigned int n : {20u, 40u, 80u})
    {
      const double timoshenko = loss("timoshenko beam", n), euler_bernoulli = loss("beam", n);
      std::printf("[ measured ] %u elements: energy lost %.4f (Timoshenko), %.4f (Euler-Bernoulli)\n", n, timoshenko,
                  euler_bernoulli);
      if (previous > 0)
        {
          EXPECT_GT(previous / timoshenko, 1.6) << "the loss halves with the mesh, about";
        }
      EXPECT_GT(euler_bernoulli, 0.15);
      previous = timoshenko;
    }
  EXPECT_LT(previous, 0.025);
}

// Its rotation is drawn: the output geometry maps the DoFs to θ at every drawn point (the
// writers put it beside each DoF field as `<name>_rotation`). With w = x(1 − x) the initial
// state's θ = w' = 1 − 2x, linear, which the linear elements hold exactly at every point (to the
// 1e-12 of the expression's numerical derivative).
TEST(TimoshenkoBeam, ItsRotationIsDrawn)
{
  const auto c     = test_cases::load_case(timoshenko_case, {"Body beam/Initial displacement=x*(1-x)"});
  const auto model = structure::build_model(c.description);
  const auto &g    = model.geometry;
  ASSERT_EQ(g.rotation_map.rows(), Eigen::Index(g.points.size()));
  const Eigen::VectorXd theta = g.rotation_map * model.initial_displacement;
  unsigned int          on_beam = 0;
  for (std::size_t p = 0; p < g.points.size(); ++p)
    if (std::find(g.contact_points.begin(), g.contact_points.end(), p) == g.contact_points.end())
      {
        EXPECT_NEAR(theta[Eigen::Index(p)], 1 - 2 * g.point_coordinate[p], 1e-10) << "at x = " << g.point_coordinate[p];
        ++on_beam;
      }
  EXPECT_GT(on_beam, 16u);
  // A beam has no rotation field of its own: nothing more is drawn for it.
  const auto beam = structure::build_model(test_cases::load_case(timoshenko_case, {"Body beam/Type=beam"}).description);
  EXPECT_EQ(beam.geometry.rotation_map.rows(), 0);
}
