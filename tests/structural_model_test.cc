// The algebraic model a case produces: element matrices, rows of contacts and probes anywhere
// along a body, lumped elements, loads, damping and initial states.
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/structure/hermite_cubic.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <cmath>

using namespace vibroimpact;
using structure::EndCondition;

namespace
{
  structure::CaseDescription single(const structure::BodyDescription &body)
  {
    structure::CaseDescription c;
    c.bodies = {body};
    return c;
  }
} // namespace

TEST(BeamElement, MatricesEqualClosedFormWithSlopeScaling)
{
  // One free–free element of length h: DoFs (w0, w0', w1, w1').
  const double h  = 0.7, EI = 2.5, rhoA = 1.3;
  auto         b  = test_cases::beam("beam", 1, EndCondition::free, EndCondition::free, h);
  b.stiffness     = EI;
  b.mass_per_length = rhoA;
  const auto model = structure::build_model(single(b));
  const Eigen::MatrixXd K(model.stiffness), M(model.mass);
  const double k[4][4] = {{12, 6 * h, -12, 6 * h},
                          {6 * h, 4 * h * h, -6 * h, 2 * h * h},
                          {-12, -6 * h, 12, -6 * h},
                          {6 * h, 2 * h * h, -6 * h, 4 * h * h}};
  const double m[4][4] = {{156, 22 * h, 54, -13 * h},
                          {22 * h, 4 * h * h, 13 * h, -3 * h * h},
                          {54, 13 * h, 156, -22 * h},
                          {-13 * h, -3 * h * h, -22 * h, 4 * h * h}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      {
        EXPECT_NEAR(K(i, j), EI / (h * h * h) * k[i][j], 1e-12 * EI / (h * h * h) * 12);
        EXPECT_NEAR(M(i, j), rhoA * h / 420 * m[i][j], 1e-14);
      }
}

TEST(BeamElement, HermiteShapeFunctionsInterpolateValuesAndPhysicalSlopes)
{
  const double h = 0.3;
  const auto   N0 = structure::HermiteCubic::values(0.0, h), N1 = structure::HermiteCubic::values(1.0, h);
  const auto   D0 = structure::HermiteCubic::first_derivatives(0.0, h);
  const auto   D1 = structure::HermiteCubic::first_derivatives(1.0, h);
  const double expected_values[2][4] = {{1, 0, 0, 0}, {0, 0, 1, 0}};
  const double expected_slopes[2][4] = {{0, 1, 0, 0}, {0, 0, 0, 1}};
  for (int i = 0; i < 4; ++i)
    {
      EXPECT_NEAR(N0[i], expected_values[0][i], 1e-15);
      EXPECT_NEAR(N1[i], expected_values[1][i], 1e-15);
      EXPECT_NEAR(D0[i], expected_slopes[0][i], 1e-14);
      EXPECT_NEAR(D1[i], expected_slopes[1][i], 1e-14);
    }
}

TEST(BeamElement, LumpedMassIsHrzDiagonal)
{
  auto b        = test_cases::beam("beam", 1, EndCondition::free, EndCondition::free, 0.5);
  b.lumped_fraction = 1.0;
  const Eigen::MatrixXd M(structure::build_model(single(b)).mass);
  EXPECT_NEAR(M(0, 0), 0.25, 1e-15);
  EXPECT_NEAR(M(1, 1), std::pow(0.5, 3) / 78, 1e-15);
  EXPECT_NEAR(M(0, 1), 0.0, 0.0);
}

TEST(StaticDeflection, CantileverTipLoadIsExactOnAnyMesh)
{
  // The exact shape under a tip load is cubic: Hermite elements reproduce it exactly.
  structure::CaseDescription c;
  auto b               = test_cases::beam("beam", 3, EndCondition::clamped, EndCondition::free, 1.0617);
  b.stiffness          = 145.04e9 * 2.808e-7;
  b.mass_per_length    = 7500 * 0.0254 * 0.051;
  c.bodies             = {b};
  c.initial_state.type = structure::InitialStateType::static_load;
  c.initial_state.load_point = {"beam", 1.0617};
  c.initial_state.force      = 100.0;
  c.probes = {{"quarter", {"beam", 0.3}}, {"tip", {"beam", 1.0617}}};
  const auto   model = structure::build_model(c);
  const double P = 100.0, L = 1.0617, EI = b.stiffness;
  const auto   exact = [&](double x) { return P * x * x * (3 * L - x) / (6 * EI); };
  EXPECT_NEAR(model.probes[1].row.dot(model.initial_displacement) / exact(L), 1.0, 1e-12);
  EXPECT_NEAR(model.probes[0].row.dot(model.initial_displacement) / exact(0.3), 1.0, 1e-12);

  // Rescaled to a 0.01 m tip uplift (the Yin et al. initial state).
  c.initial_state.target_displacement = 0.01;
  const auto scaled = structure::build_model(c);
  EXPECT_NEAR(scaled.probes[1].row.dot(scaled.initial_displacement), 0.01, 1e-15);
}

TEST(Contacts, RowsEvaluateTheDeflectionBetweenNodesWithSides)
{
  structure::CaseDescription c;
  c.bodies = {test_cases::beam("beam", 5, EndCondition::pinned, EndCondition::pinned)};
  c.bodies[0].initial_displacement = "3*sin(pi*x)";
  structure::ContactDescription below, above;
  below.name  = "below";
  below.point = {"beam", 0.43}; // inside an element
  below.gap   = 5.0; // open on both sides of the initial shape
  above       = below;
  above.name  = "above";
  above.side  = structure::ContactSide::above;
  c.contacts  = {below, above};
  const auto model = structure::build_model(c);
  const double w   = model.contacts[0].row.dot(model.initial_displacement);
  // Hermite interpolation of 3 sin(pi x) on 5 elements is accurate to ~1e-3 between nodes.
  EXPECT_NEAR(w, 3 * std::sin(M_PI * 0.43), 2e-3);
  EXPECT_NEAR(model.contacts[1].row.dot(model.initial_displacement), -w, 1e-15);
  EXPECT_DOUBLE_EQ(model.contacts[0].gap0, 5.0);
}

TEST(Contacts, TwoBodyContactRowHasEntriesOnBothBodies)
{
  // A cantilever tip above the top of a vertical rod: g = g0 + w_tip - u_rod_top.
  structure::CaseDescription c;
  c.bodies = {test_cases::beam("beam", 4, EndCondition::clamped, EndCondition::free), test_cases::rod("rod", 3, 2)};
  structure::ContactDescription tip;
  tip.name  = "tip";
  tip.point = {"beam", 1.0};
  tip.other = {"rod", 1.0};
  c.contacts = {tip};
  const auto model = structure::build_model(c);
  const auto &row  = model.contacts[0].row;
  const auto n_beam = 8; // clamped end removes 2 of 10 DoFs
  double beam_part = 0, rod_part = 0;
  for (model::SparseRow::InnerIterator it(row); it; ++it)
    (it.index() < n_beam ? beam_part : rod_part) += it.value();
  EXPECT_DOUBLE_EQ(beam_part, 1.0); // the tip value DoF
  EXPECT_DOUBLE_EQ(rod_part, -1.0); // the rod's top DoF
}

TEST(LumpedElements, SpringMassSupportAddsToMatrices)
{
  // A beam on a flexible support: mass m_c on a spring k_c to ground, linked to the beam by a
  // stiff spring: K and M gain exactly those entries.
  structure::CaseDescription c;
  c.bodies = {test_cases::beam("beam", 2, EndCondition::pinned, EndCondition::pinned),
              test_cases::point_mass("support", 0.2)};
  c.elements = {test_cases::spring("ground spring", "support", "", 50.0)};
  structure::ElementDescription link = test_cases::spring("link", "beam", "support", 7.0);
  link.point.x = 0.5;
  c.elements.push_back(link);
  const auto model = structure::build_model(c);
  const int  s     = model.n_dofs() - 1; // the support's DoF comes last
  EXPECT_DOUBLE_EQ(model.mass.coeff(s, s), 0.2);
  EXPECT_DOUBLE_EQ(model.stiffness.coeff(s, s), 57.0);
  // The midspan node of the two-element beam is DoF 1 (after the pinned left value).
  EXPECT_DOUBLE_EQ(model.stiffness.coeff(1, s), -7.0);
}

TEST(Loads, UniformAndGravityLoadsCarryTheTotalForce)
{
  structure::CaseDescription c;
  c.bodies = {test_cases::beam("beam", 7, EndCondition::free, EndCondition::free, 2.0), test_cases::point_mass("m", 3.0)};
  c.bodies[0].mass_per_length = 1.5;
  structure::LoadDescription gravity;
  gravity.name         = "gravity";
  gravity.distribution = structure::LoadDistribution::gravity;
  gravity.time         = structure::TimeDependence::constant;
  gravity.amplitude    = -9.81;
  c.loads              = {gravity};
  const auto model     = structure::build_model(c);
  // Sum of the forces on the translational DoFs = total weight (the slope DoFs carry moments).
  double total = 0;
  for (Eigen::Index i = 0; i < model.n_dofs(); ++i)
    if (model.dof_kinds[i] != model::DofKind::slope)
      total += model.load(0.0)[i];
  EXPECT_NEAR(total, -9.81 * (1.5 * 2.0 + 3.0), 1e-12);
}

TEST(Loads, RandomLoadHasRequestedRmsAndIsReproducible)
{
  structure::CaseDescription c;
  c.bodies = {test_cases::beam("beam", 2, EndCondition::pinned, EndCondition::pinned)};
  structure::LoadDescription noise;
  noise.name         = "noise";
  noise.distribution = structure::LoadDistribution::point;
  noise.point        = {"beam", 0.5};
  noise.time         = structure::TimeDependence::random;
  noise.amplitude    = 2.0;
  noise.band_low     = 10;
  noise.band_high    = 50;
  noise.n_harmonics  = 32;
  noise.seed         = 7;
  c.loads            = {noise};
  const auto   a     = structure::build_model(c);
  const auto   b     = structure::build_model(c);
  double       sum2  = 0;
  const int    n     = 200000;
  const double dt    = 0.01;
  for (int i = 0; i < n; ++i)
    {
      const double v = a.loads[0].time.value(i * dt);
      EXPECT_EQ(v, b.loads[0].time.value(i * dt));
      sum2 += v * v;
    }
  EXPECT_NEAR(std::sqrt(sum2 / n), 2.0, 0.03);
  c.loads[0].seed = 8;
  EXPECT_NE(structure::build_model(c).loads[0].time.value(1.0), a.loads[0].time.value(1.0));
}

TEST(Damping, ModalDampingGivesTheRatiosOnTheDampedModesOnly)
{
  structure::CaseDescription c;
  c.bodies                      = {test_cases::beam("beam", 16, EndCondition::pinned, EndCondition::pinned)};
  c.damping.modal_ratios        = {0.01, 0.02};
  c.damping.n_damped_modes      = 3;
  const auto model              = structure::build_model(c);
  const auto modes              = model::compute_modes(model.mass, model.stiffness, 4);
  const double expected_zeta[4] = {0.01, 0.02, 0.02, 0.0};
  for (int j = 0; j < 4; ++j)
    {
      const model::Vector phi = modes.shapes.col(j);
      const double modal_c    = phi.dot(model.damping_force(phi));
      EXPECT_NEAR(modal_c, 2 * expected_zeta[j] * modes.omegas[j], 1e-9 * modes.omegas[j]) << "mode " << j + 1;
    }
}

TEST(InitialState, ModeShapeScaledToPeakAmplitude)
{
  structure::CaseDescription c;
  c.bodies                  = {test_cases::beam("beam", 16, EndCondition::pinned, EndCondition::pinned)};
  c.initial_state.type      = structure::InitialStateType::mode;
  c.initial_state.mode      = 1;
  c.initial_state.amplitude = 3.0;
  c.probes                  = {{"mid", {"beam", 0.5}}};
  const auto model          = structure::build_model(c);
  EXPECT_NEAR(std::abs(model.probes[0].row.dot(model.initial_displacement)), 3.0, 1e-12);
}
