// Tubes in space (the structure's side): the tube's bending modes are the planar beam's
// in each plane, its torsion and axial modes converge to their closed forms, a load at an angle
// deflects it along that angle and the rows of a support in space read it, a flexible support's
// ring is a mass on springs in both directions, and the example's modes come in pairs.
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/model/spatial_support.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/structure/timoshenko_description.h>
#include <vibroimpact/structure/tube_description.h>

#include "test_support.h"

#include <Eigen/SparseCholesky>

#include <cmath>

using namespace vibroimpact;
using structure::EndCondition;

namespace
{
  structure::BodyDescription tube(const unsigned int n, const EndCondition left, const EndCondition right)
  {
    auto body              = test_cases::beam("tube", n, left, right);
    body.type              = structure::BodyType("tube");
    body.kind_entries<structure::TubeDescription>().outer_radius = 0.01;
    return body;
  }

  model::StructuralModel build(const std::vector<structure::BodyDescription> &bodies,
                               const std::vector<structure::SupportDescription> &supports = {},
                               const std::vector<structure::LoadDescription>    &loads    = {})
  {
    structure::CaseDescription c;
    c.name     = "tube";
    c.bodies   = bodies;
    c.supports = supports;
    c.loads    = loads;
    return structure::build_model(c);
  }

  // The share of a mode's kinetic energy φᵀ M φ held by DoFs of one kind (M is block diagonal
  // between a tube's fields).
  double share(const model::StructuralModel &m, const Eigen::VectorXd &phi, const model::DofKind kind)
  {
    Eigen::VectorXd part = Eigen::VectorXd::Zero(phi.size());
    for (Eigen::Index i = 0; i < phi.size(); ++i)
      if (m.dof_kinds[i] == kind)
        part[i] = phi[i];
    return part.dot(m.mass * part) / phi.dot(m.mass * phi);
  }

  // The first `count` frequencies of modes whose energy lies in DoFs of `kind`.
  std::vector<double> frequencies_of(const model::StructuralModel &m, const model::DofKind kind, const unsigned count)
  {
    const auto          modes = model::compute_modes(m, 24);
    std::vector<double> omegas;
    for (Eigen::Index j = 0; j < modes.omegas.size() && omegas.size() < count; ++j)
      if (share(m, modes.shapes.col(j), kind) > 0.999)
        omegas.push_back(modes.omegas[j]);
    EXPECT_EQ(omegas.size(), count);
    return omegas;
  }

  structure::SupportDescription annular(const std::string &name, const double x, const double clearance)
  {
    structure::SupportDescription s;
    s.name      = name;
    s.point     = {"tube", x};
    s.shape     = structure::SupportShape::annular;
    s.clearance = clearance;
    return s;
  }
} // namespace

// Each bending frequency of the tube is the planar beam's, twice (the same elements in each
// plane), and both converge to the pinned–pinned closed form (jπ)² at rate 4.
TEST(Tube, BendingFrequenciesAreThePlanarBeamsInEachPlane)
{
  double previous_error[3] = {};
  for (const unsigned int n : {8u, 16u})
    {
      const auto beam  = build({test_cases::beam("tube", n, EndCondition::pinned, EndCondition::pinned)});
      const auto tube_ = build({tube(n, EndCondition::pinned, EndCondition::pinned)});
      ASSERT_EQ(tube_.n_dofs(), 2 * beam.n_dofs());
      const auto planar = model::compute_modes(beam, 6);
      const auto spatial = model::compute_modes(tube_, 12);
      for (unsigned int j = 0; j < 6; ++j)
        for (const unsigned int copy : {0u, 1u})
          EXPECT_NEAR(spatial.omegas[2 * j + copy] / planar.omegas[j], 1.0, 1e-10) << "mode " << j + 1 << ", n " << n;
      for (unsigned int j = 0; j < 3; ++j)
        {
          const double exact = std::pow((j + 1) * M_PI, 2);
          const double error = spatial.omegas[2 * j + 1] / exact - 1;
          if (n == 16)
            {
              const double rate = std::log2(previous_error[j] / error);
              EXPECT_NEAR(rate, 4.0, 0.15) << "mode " << j + 1;
            }
          previous_error[j] = error;
        }
    }
}

// Torsion fixed–free, ω_k = (2k − 1)π/(2L) √(GJ/ρJ), and axial motion fixed–fixed,
// ω_k = kπ/L √(EA/ρA): linear FE_Q with a consistent mass converge at rate 2.
TEST(Tube, TorsionAndAxialFrequenciesConvergeToTheirClosedFormsAtRateTwo)
{
  const double GJ = 2, rhoJ = 0.5, EA = 7, rhoA = 1;
  double       previous[4] = {};
  for (const unsigned int n : {8u, 16u})
    {
      auto  body                 = tube(n, EndCondition::pinned, EndCondition::pinned);
      auto &fields               = body.kind_entries<structure::TubeDescription>();
      fields.torsion             = true;
      fields.torsional_stiffness = GJ;
      fields.polar_inertia       = rhoJ;
      fields.torsion_left        = EndCondition::clamped;
      fields.axial               = true;
      body.axial_stiffness       = EA;
      fields.axial_left = fields.axial_right = EndCondition::clamped;
      const auto m       = build({body});
      const auto torsion = frequencies_of(m, model::DofKind::twist, 2);
      const auto axial   = frequencies_of(m, model::DofKind::axial, 2);
      const double errors[4] = {torsion[0] / (M_PI / 2 * std::sqrt(GJ / rhoJ)) - 1,
                                torsion[1] / (3 * M_PI / 2 * std::sqrt(GJ / rhoJ)) - 1,
                                axial[0] / (M_PI * std::sqrt(EA / rhoA)) - 1,
                                axial[1] / (2 * M_PI * std::sqrt(EA / rhoA)) - 1};
      for (unsigned int k = 0; k < 4; ++k)
        {
          EXPECT_GT(errors[k], 0) << "a consistent mass overestimates";
          if (n == 16)
            {
              EXPECT_NEAR(std::log2(previous[k] / errors[k]), 2.0, 0.1) << "frequency " << k;
            }
          previous[k] = errors[k];
        }
    }
}

// A static point force at φ = 30° at midspan deflects a pinned–pinned tube along φ by the
// closed form F L³/(48 EI) (exact at a node of Hermite elements); the support's rows r1, r2, its
// probes and the drawn 3-D displacement all read that deflection, and its frame points along φ.
TEST(Tube, StaticLoadAtAnAngleDeflectsAlongItAndTheSupportReadsIt)
{
  const double               phi = 30 * M_PI / 180, F = 2, EI = 3;
  auto                       body = tube(8, EndCondition::pinned, EndCondition::pinned);
  body.stiffness                 = EI;
  structure::LoadDescription load;
  load.name         = "push";
  load.distribution = structure::LoadDistribution::point;
  load.point        = {"tube", 0.5};
  load.time         = structure::TimeDependence::constant;
  load.amplitude    = F;
  load.angle        = 30;
  const auto m      = build({body}, {annular("s", 0.5, 0.1)}, {load});

  Eigen::SimplicialLDLT<model::SparseMatrix> factor(m.stiffness);
  const Eigen::VectorXd                      u = factor.solve(m.load(0.0));
  const double                               w = F / (48 * EI);

  ASSERT_EQ(m.spatial_supports.size(), 1u);
  const auto &s = m.spatial_supports.front();
  EXPECT_NEAR(s.transverse[0].dot(u), w * std::cos(phi), 1e-14);
  EXPECT_NEAR(s.transverse[1].dot(u), w * std::sin(phi), 1e-14);
  EXPECT_EQ(s.axial.nonZeros(), 0);
  EXPECT_EQ(s.twist.nonZeros(), 0);
  EXPECT_DOUBLE_EQ(s.outer_radius, 0.01);
  const auto frames = model::contact_frames(s, u);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_NEAR(frames[0].gap, 0.1 - w, 1e-14);
  EXPECT_NEAR(frames[0].angle, phi, 1e-12);

  ASSERT_EQ(m.probes.size(), 2u); // s_e1, s_e2
  EXPECT_EQ(m.probes[0].name, "s_e1");
  EXPECT_NEAR(m.probes[0].row.dot(u), w * std::cos(phi), 1e-14);
  EXPECT_NEAR(m.probes[1].row.dot(u), w * std::sin(phi), 1e-14);

  // Drawn: axis (1, 0, 0), e1 = (0, 1, 0), e2 = (0, 0, 1); the midspan is a sampled point.
  const Eigen::VectorXd drawn = m.geometry.displacement_map * u;
  bool                  found = false;
  for (std::size_t p = 0; p < m.geometry.points.size(); ++p)
    if (std::abs(m.geometry.points[p][0] - 0.5) < 1e-12 && m.geometry.point_body[p] == 0)
      {
        found = true;
        EXPECT_NEAR(drawn[3 * p], 0.0, 1e-15);
        EXPECT_NEAR(drawn[3 * p + 1], w * std::cos(phi), 1e-14);
        EXPECT_NEAR(drawn[3 * p + 2], w * std::sin(phi), 1e-14);
      }
  EXPECT_TRUE(found);
}

// Flat bars and polygons: each listed normal turned by the orientation, at its distance.
TEST(Tube, FlatBarAndPolygonSidesAreTurnedByTheirOrientation)
{
  auto bar        = annular("bar", 0.5, 2e-3);
  bar.shape       = structure::SupportShape::flat_bar;
  bar.orientation = 30;
  auto trefoil         = annular("trefoil", 0.25, 1e-3);
  trefoil.shape        = structure::SupportShape::polygonal;
  trefoil.side_angles  = {0, 120, 240};
  trefoil.orientation  = 90;
  trefoil.centre       = {{1e-4, -2e-4}};
  const auto m = build({tube(8, EndCondition::pinned, EndCondition::pinned)}, {bar, trefoil});
  ASSERT_EQ(m.spatial_supports.size(), 2u);
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(m.n_dofs());

  const auto bars = model::contact_frames(m.spatial_supports[0], u);
  ASSERT_EQ(bars.size(), 2u);
  for (unsigned int k = 0; k < 2; ++k)
    {
      EXPECT_NEAR(bars[k].angle, (30 + 180.0 * k) * M_PI / 180 - (k == 1 ? 2 * M_PI : 0), 1e-12);
      EXPECT_NEAR(bars[k].gap, 2e-3, 1e-15);
    }
  const auto sides = model::contact_frames(m.spatial_supports[1], u);
  ASSERT_EQ(sides.size(), 3u);
  const double expected_angles[3] = {90, 210 - 360, 330 - 360};
  for (unsigned int k = 0; k < 3; ++k)
    {
      EXPECT_NEAR(sides[k].angle, expected_angles[k] * M_PI / 180, 1e-12);
      // At u = 0 the tube sits at −c relative to the centre: g = d + ν · c.
      const double nu_c = std::cos(sides[k].angle) * 1e-4 - std::sin(sides[k].angle) * 2e-4;
      EXPECT_NEAR(sides[k].gap, 1e-3 + nu_c, 1e-15);
    }
}

// A flexible support's ring: a point mass along e1 and one along e2, each on a spring k_c and a
// dashpot to the ground, so that two modes at √(k_c/m_c) join the tube's, and r = tube − ring.
TEST(Tube, FlexibleSupportRingMovesInBothDirections)
{
  auto support           = annular("s", 0.5, 1e-3);
  support.flexible       = true;
  support.stop_mass      = 0.01;
  support.stop_stiffness = 1e4;
  const auto m           = build({tube(4, EndCondition::pinned, EndCondition::pinned)}, {support});
  const auto modes       = model::compute_modes(m, static_cast<unsigned int>(m.n_dofs()));
  unsigned int at_ring   = 0;
  for (Eigen::Index j = 0; j < modes.omegas.size(); ++j)
    if (std::abs(modes.omegas[j] / 1000.0 - 1) < 1e-10)
      ++at_ring;
  EXPECT_EQ(at_ring, 2u);

  // The ring bodies are the model's last two DoFs (mass bodies after the tube): r = tube − ring.
  const auto &s = m.spatial_supports.front();
  EXPECT_TRUE(s.flexible);
  const Eigen::Index n = m.n_dofs();
  EXPECT_EQ(s.transverse[0].coeff(n - 2), -1.0);
  EXPECT_EQ(s.transverse[1].coeff(n - 1), -1.0);
  EXPECT_EQ(s.transverse[0].coeff(n - 1), 0.0);
  EXPECT_GT(m.damping.coeff(n - 1, n - 1), 0.0); // the dashpot, c_c = 1
}

// The example's tube: 12 modes are the planar antunes_six_supports tube's first 6, each twice.
TEST(Tube, ExampleModesArePairsOfThePlanarCases)
{
  const auto tube_case   = test_cases::load_case(test_cases::example("tube_six_supports"));
  const auto planar_case = test_cases::load_case(test_cases::example("antunes_six_supports"));
  const auto spatial     = model::compute_modes(structure::build_model(tube_case.description), 12);
  const auto planar      = model::compute_modes(structure::build_model(planar_case.description), 6);
  for (unsigned int j = 0; j < 6; ++j)
    for (const unsigned int copy : {0u, 1u})
      EXPECT_NEAR(spatial.omegas[2 * j + copy] / planar.omegas[j], 1.0, 1e-9) << "mode " << j + 1;
}

namespace
{
  // The body as a shear-deformable one of the slenderness of tests/timoshenko_beam.prm (L/r = 20).
  structure::BodyDescription shear_deformable(structure::BodyDescription body, const std::string &type)
  {
    body.type = structure::BodyType(type);
    auto &t           = body.kind_entries<structure::TimoshenkoDescription>();
    t.shear_stiffness = 128.2;
    t.rotary_inertia  = 0.0025;
    return body;
  }
} // namespace

// A timoshenko tube is a Timoshenko beam in each transverse plane: each of its frequencies is the
// planar Timoshenko beam's, twice, and they converge to the pinned–pinned closed form (both
// branches) at the linear elements' rate 2.
TEST(Tube, TimoshenkoTubeIsTheTimoshenkoBeamInEachPlane)
{
  std::vector<double> previous;
  for (const unsigned int n : {16u, 32u})
    {
      const auto beam  = build({shear_deformable(test_cases::beam("tube", n, EndCondition::pinned, EndCondition::pinned),
                                                 "timoshenko beam")});
      const auto tube_ = build({shear_deformable(tube(n, EndCondition::pinned, EndCondition::pinned), "timoshenko tube")});
      ASSERT_EQ(tube_.n_dofs(), 2 * beam.n_dofs());
      const auto planar  = model::compute_modes(beam, 6);
      const auto spatial = model::compute_modes(tube_, 12);
      const auto exact   = structure::pinned_pinned_timoshenko_frequencies(1, 128.2, 1, 0.0025, 1, 6);
      std::vector<double> errors;
      for (unsigned int j = 0; j < 6; ++j)
        {
          for (const unsigned int copy : {0u, 1u})
            EXPECT_NEAR(spatial.omegas[2 * j + copy] / planar.omegas[j], 1.0, 1e-10) << "mode " << j + 1 << ", n " << n;
          errors.push_back(std::abs(spatial.omegas[2 * j] / exact[j] - 1));
        }
      for (unsigned int j = 0; j < 6 && !previous.empty(); ++j)
        {
          if (previous[j] > 1e-10) // the shear branch's k = 0 root is exact on any mesh
            EXPECT_NEAR(std::log2(previous[j] / errors[j]), 2.0, 0.15) << "mode " << j + 1;
        }
      previous = errors;
    }
}

// examples/tube_six_supports with its tube a timoshenko tube (40 elements, 0.02 s; κGA = 1e4 and
// ρI = 1e-5, about ½GA and ρA R²/2 of a thin wall of that radius): Moreau–Jean with the friction
// supports runs on it, the tube hits its supports, and the energy ledger (the load's work,
// friction and impacts booked) closes to round-off, as on the Euler–Bernoulli tube.
TEST(Tube, TimoshenkoTubeRunsOnFrictionSupportsAndClosesItsLedger)
{
  for (const std::string type : {"tube", "timoshenko tube"})
    {
      const auto c = test_cases::load_case(
        test_cases::example("tube_six_supports"),
        {"Body tube/Type=" + type, "Body tube/Shear stiffness=1e4", "Body tube/Rotary inertia per unit length=1e-5",
         "Body tube/Number of elements=40", "Simulation/Final time=0.02", "Simulation/Frame interval=0"});
      const auto model   = structure::build_model(c.description);
      const auto history = integrators::run_to_history(c.solver(), model, c.run);
      std::printf("[ measured ] %s: %lu impacts, relative balance error %.3e\n", type.c_str(), history.summary.impacts,
                  history.summary.relative_balance_error);
      EXPECT_GT(history.summary.impacts, 0u) << type;
      EXPECT_LT(std::abs(history.summary.relative_balance_error), 1e-8) << type;
    }
}
