// The closed-form periodic orbits of doc/closed-forms.md, each checked by physics
// computed here independently of the formula: the 2-DOF orbits by the exact linear flow (modal
// superposition from Eigen's generalised eigensolver), the sticking phase by Runge–Kutta, the
// rod's nonsmooth mode by an exact characteristics simulation (strain waves moved one cell per
// step, Signorini at the end).
#include <vibroimpact/periodic/closed_forms.h>

#include <Eigen/Dense>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace vibroimpact::periodic;

namespace
{
  constexpr double pi = 3.14159265358979323846;

  // The exact free flow of M q̈ + K q = 0, by the generalised eigensolver (not the closed-form
  // 2×2 modes of the code under test).
  struct ExactFlow
  {
    Eigen::Vector2d omega;
    Eigen::Matrix2d phi; // mass-normalised columns
    Eigen::Matrix2d M;

    explicit ExactFlow(const TwoDofChain &c)
    {
      Eigen::Matrix2d K;
      M << c.m1, 0.0, 0.0, c.m2;
      K << c.k1 + c.k2, -c.k2, -c.k2, c.k2;
      // Dynamic sizes: the library compiles this solver once (model/eigen_decompositions.h);
      // a 2×2 one would be compiled here again, with its blocked kernels.
      const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> solver{Eigen::MatrixXd(K), Eigen::MatrixXd(M)};
      omega = solver.eigenvalues().cwiseSqrt();
      phi   = solver.eigenvectors();
    }

    // State at time t from (q0, v0) at 0.
    void advance(const Eigen::Vector2d &q0, const Eigen::Vector2d &v0, double t, Eigen::Vector2d &q,
                 Eigen::Vector2d &v) const
    {
      const Eigen::Vector2d eta0 = phi.transpose() * M * q0, deta0 = phi.transpose() * M * v0;
      Eigen::Vector2d       eta, deta;
      for (int j = 0; j < 2; ++j)
        {
          const double w = omega(j), cs = std::cos(w * t), sn = std::sin(w * t);
          eta(j)  = eta0(j) * cs + deta0(j) / w * sn;
          deta(j) = -eta0(j) * w * sn + deta0(j) * cs;
        }
      q = phi * eta;
      v = phi * deta;
    }
  };

  // Largest q2 strictly inside (0, T) along the exact flow, sampled finely.
  double largest_q2_inside(const ExactFlow &flow, const Eigen::Vector2d &q0, const Eigen::Vector2d &v0,
                           double T, int samples = 20000)
  {
    double          largest = -1e300;
    Eigen::Vector2d q, v;
    for (int k = 1; k < samples; ++k)
      {
        flow.advance(q0, v0, T * k / samples, q, v);
        largest = std::max(largest, q(1));
      }
    return largest;
  }

  TwoDofChain unit_chain()
  {
    return TwoDofChain{};
  }

  TwoDofChain uneven_chain()
  {
    TwoDofChain c;
    c.m1  = 2.0;
    c.m2  = 0.5;
    c.k1  = 3.0;
    c.k2  = 1.5;
    c.gap = 0.04;
    return c;
  }
} // namespace

TEST(PeriodicClosedForms, ChainModesSolveTheGeneralisedEigenproblem)
{
  for (const TwoDofChain &chain : {unit_chain(), uneven_chain()})
    {
      const ChainModes modes = chain_modes(chain);
      const ExactFlow  flow(chain);
      for (int j = 0; j < 2; ++j)
        {
          EXPECT_NEAR(modes.omega(j), flow.omega(j), 1e-14 * flow.omega(1));
          const double sign = flow.phi(1, j) > 0 ? 1.0 : -1.0;
          EXPECT_NEAR((modes.shapes.col(j) - sign * flow.phi.col(j)).norm(), 0.0, 1e-13);
        }
    }
  // The seed's numbers (its periods 10.1670, 3.8833 are 2π over the rounded frequencies).
  const ChainModes unit = chain_modes(unit_chain());
  EXPECT_NEAR(unit.omega(0), 0.6180, 5e-5);
  EXPECT_NEAR(unit.omega(1), 1.6180, 5e-5);
  EXPECT_NEAR(2 * pi / unit.omega(0), 10.1664, 5e-5);
  EXPECT_NEAR(2 * pi / unit.omega(1), 3.8832, 5e-5);
}

TEST(PeriodicClosedForms, LinearModeGrazingEnergyIsTheModeTouchingTheStop)
{
  for (const TwoDofChain &chain : {unit_chain(), uneven_chain()})
    {
      const ExactFlow flow(chain);
      for (unsigned int j = 0; j < 2; ++j)
        {
          // Release the mode from rest with q2 = g: its largest q2 over two periods (sampled at T
          // among others) is g, its energy
          // the potential energy at release.
          const Eigen::Vector2d q0 = flow.phi.col(j) * chain.gap / flow.phi(1, j);
          const Eigen::Vector2d v0 = Eigen::Vector2d::Zero();
          const double          T  = 2 * pi / flow.omega(j);
          EXPECT_NEAR(largest_q2_inside(flow, q0, v0, 2 * T, 4000), chain.gap, 1e-12);
          EXPECT_NEAR(linear_mode_grazing_energy(chain, j), chain_energy(chain, q0, v0), 1e-15);
        }
    }
  EXPECT_NEAR(linear_mode_grazing_energy(unit_chain(), 0), 0.00263932, 1e-8);
  EXPECT_NEAR(linear_mode_grazing_energy(unit_chain(), 1), 0.04736068, 1e-8);
}

TEST(PeriodicClosedForms, OneImpactOrbitsReturnUnderTheExactFlowWithTheVelocityReversed)
{
  struct Case
  {
    TwoDofChain chain;
    double      period;
  };
  // Points on the fundamental families of both modes and on a subharmonic one (unit chain), and
  // on the uneven chain's first family.
  const ExactFlow uneven(uneven_chain());
  const double    T0_uneven = 2 * pi / uneven.omega(0);
  for (const Case &c : {Case{unit_chain(), 10.1}, Case{unit_chain(), 9.5}, Case{unit_chain(), 8.5},
                        Case{unit_chain(), 8.05}, Case{unit_chain(), 3.8}, Case{unit_chain(), 3.6},
                        Case{unit_chain(), 7.0}, Case{uneven_chain(), 0.95 * T0_uneven}})
    {
      const OneImpactOrbit orbit = one_impact_orbit(c.chain, c.period);
      ASSERT_TRUE(orbit.regular) << c.period;
      ASSERT_TRUE(orbit.admissible) << c.period;
      const ExactFlow flow(c.chain);
      Eigen::Vector2d q, v;
      flow.advance(orbit.q, orbit.v, c.period, q, v);
      const double size = orbit.q.norm() + orbit.v.norm();
      // At T⁻: the impact position, v1 unchanged, v2 = +impact velocity (approaching); the
      // elastic impact then restores the initial state.
      EXPECT_NEAR(q(1), c.chain.gap, 1e-10 * size) << c.period;
      EXPECT_NEAR(q(0), orbit.q(0), 1e-10 * size) << c.period;
      EXPECT_NEAR(v(0), orbit.v(0), 1e-10 * size) << c.period;
      EXPECT_NEAR(v(1), -orbit.v(1), 1e-10 * size) << c.period;
      EXPECT_GT(v(1), 0.0) << c.period;
      EXPECT_NEAR(orbit.impact_velocity, v(1), 1e-10 * size);
      EXPECT_LT(largest_q2_inside(flow, orbit.q, orbit.v, c.period), c.chain.gap) << c.period;
      EXPECT_NEAR(orbit.energy, chain_energy(c.chain, orbit.q, orbit.v), 1e-12 * orbit.energy);
      // The orbit's own time functions are the flow.
      flow.advance(orbit.q, orbit.v, 0.3 * c.period, q, v);
      EXPECT_NEAR((orbit.position(c.chain, 0.3 * c.period) - q).norm(), 0.0, 1e-12 * size);
      EXPECT_NEAR((orbit.velocity(c.chain, 0.3 * c.period) - v).norm(), 0.0, 1e-12 * size);
    }
}

TEST(PeriodicClosedForms, OneImpactOrbitIsTheOnlyOneOfItsPeriod)
{
  // Without assuming symmetry: the impact state s0 = (q1, g, v1, v2⁺) of any one-impact orbit of
  // period T solves Φ(T) s0 = S s0, S = diag(1, 1, 1, −1) (the flow brings it back with v2
  // reversed): four linear equations in (q1, v1, v2⁺). Their least-squares solution must be the
  // closed form, with zero residual.
  for (const TwoDofChain &chain : {unit_chain(), uneven_chain()})
    {
      const ExactFlow flow(chain);
      const double    T0 = 2 * pi / flow.omega(0);
      for (const double T : {0.97 * T0, 0.9 * T0, 0.37 * T0})
        {
          Eigen::Matrix4d Phi;
          for (int k = 0; k < 4; ++k)
            {
              Eigen::Vector2d q0 = Eigen::Vector2d::Zero(), v0 = Eigen::Vector2d::Zero(), q, v;
              (k < 2 ? q0(k) : v0(k - 2)) = 1.0;
              flow.advance(q0, v0, T, q, v);
              Phi.col(k) << q, v;
            }
          const Eigen::Matrix4d A = Phi - Eigen::Vector4d(1, 1, 1, -1).asDiagonal().toDenseMatrix();
          Eigen::MatrixXd B(4, 3); // dynamic: the library's QR (see ExactFlow)
          B << A.col(0), A.col(2), A.col(3);
          const Eigen::VectorXd rhs = -chain.gap * A.col(1);
          const Eigen::VectorXd x   = B.colPivHouseholderQr().solve(rhs);
          EXPECT_LT((B * x - rhs).norm(), 1e-12) << T;
          const OneImpactOrbit orbit = one_impact_orbit(chain, T);
          EXPECT_NEAR(x(0), orbit.q(0), 1e-10) << T;
          EXPECT_NEAR(x(1), 0.0, 1e-10) << T; // the symmetry: m1 at rest at the impact
          EXPECT_NEAR(x(2), orbit.v(1), 1e-10) << T;
        }
    }
}

TEST(PeriodicClosedForms, OneImpactOrbitThatReachesTheStopInsideIsFlagged)
{
  const TwoDofChain chain = unit_chain();
  const ExactFlow   flow(chain);
  // T = 3.0 (below the second family) and T = 7.99 (past the first family's grazing end):
  // the periodicity equations still have a solution, but q2 exceeds g inside the period.
  for (const double T : {3.0, 7.99})
    {
      const OneImpactOrbit orbit = one_impact_orbit(chain, T);
      ASSERT_TRUE(orbit.regular);
      EXPECT_FALSE(orbit.admissible) << T;
      EXPECT_GT(largest_q2_inside(flow, orbit.q, orbit.v, T), chain.gap) << T;
      if (orbit.impact_velocity > 0.0)
        {
          // The reported first contact is where the flow first reaches the stop.
          const double    t = orbit.first_contact_time;
          Eigen::Vector2d q, v;
          flow.advance(orbit.q, orbit.v, t, q, v);
          EXPECT_NEAR(q(1), chain.gap, 1e-10) << T;
          EXPECT_GT(v(1), -1e-9) << T;
          EXPECT_LT(largest_q2_inside(flow, orbit.q, orbit.v, t, 4000), chain.gap) << T;
        }
    }
}

TEST(PeriodicClosedForms, OneImpactFamiliesLeaveTheLinearModesAtTheirGrazingEnergy)
{
  const TwoDofChain chain = unit_chain();
  const ExactFlow   flow(chain);
  for (unsigned int j = 0; j < 2; ++j)
    {
      const OneImpactFamily family = one_impact_family(chain, j);
      const double          T0     = 2 * pi / flow.omega(j);
      EXPECT_NEAR(family.start_period, T0, 1e-12);
      EXPECT_LT(family.end_period, T0); // the stop stiffens: the period falls
      // Close to the linear mode the orbit is the mode at its grazing amplitude.
      const OneImpactOrbit near = one_impact_orbit(chain, T0 * (1 - 1e-7));
      ASSERT_TRUE(near.admissible);
      EXPECT_NEAR(near.energy / family.start_energy, 1.0, 1e-5);
      EXPECT_NEAR(near.modal_amplitude(1 - j) / near.modal_amplitude(j), 0.0, 1e-5);
    }
  // Mode 1's family grazes inside the period at T ≈ 7.99: just before, admissible with its
  // largest interior q2 touching g; mode 2's runs to infinite energy at T ≈ 3.5425.
  const OneImpactFamily first = one_impact_family(chain, 0);
  EXPECT_TRUE(first.ends_by_grazing);
  EXPECT_NEAR(first.end_period, 7.99, 0.01);
  const OneImpactOrbit end = one_impact_orbit(chain, first.end_period);
  EXPECT_NEAR(largest_q2_inside(flow, end.q, end.v, end.period, 200000), chain.gap, 1e-7);
  const OneImpactFamily second = one_impact_family(chain, 1);
  EXPECT_FALSE(second.ends_by_grazing);
  EXPECT_NEAR(second.end_period, 3.5425, 1e-3);
  EXPECT_GT(one_impact_orbit(chain, second.end_period + 1e-4).energy, 1e3);
  // Energies scale with g²: the family is the same curve E/g² (T).
  TwoDofChain wider = chain;
  wider.gap         = 0.3;
  // Subharmonic families: mode 2 with two cycles between impacts runs from 2T2 down to infinite
  // energy; mode 1 with two cycles has none (its linear orbit touches the stop again at T1).
  const OneImpactFamily sub = one_impact_family(chain, 1, 2);
  EXPECT_TRUE(sub.exists);
  EXPECT_FALSE(sub.ends_by_grazing);
  EXPECT_NEAR(sub.end_period, 5.2975, 1e-3);
  EXPECT_FALSE(one_impact_family(chain, 0, 2).exists);
  EXPECT_TRUE(first.exists && second.exists);
  EXPECT_NEAR(one_impact_orbit(wider, 9.0).energy / one_impact_orbit(chain, 9.0).energy, 9.0, 1e-10);
}

// Every one-impact family with periods up to 3 T1 (doc/closed-forms.md, "The complete set of
// one-impact families"): an orbit of any period on a grid three times finer than the enumeration's
// scan is admissible exactly when it lies on a listed family; the impact velocity is
// g ω1 ω2 sin(ω1T/2) sin(ω2T/2) det Φ / D (so it vanishes only at the grazing linear modes,
// T = n T_j, where each family starts at the mode's grazing energy); the complete list is the two
// fundamental families and three subharmonic ones (mode 2 every 2 and 5 periods, mode 1 every 3),
// none at a superharmonic resonance and none that leaves no linear mode.
TEST(PeriodicClosedForms, EveryOneImpactFamilyUpToThreeFirstPeriodsIsFound)
{
  const TwoDofChain chain = unit_chain();
  const ExactFlow   flow(chain);
  const double      T1 = 2 * pi / flow.omega(0), T_max = 3 * T1;
  const auto        families = one_impact_families(chain, T_max);
  const auto        on_family = [&](const double T, bool &near_end) {
    near_end = false;
    for (const auto &f : families)
      {
        const double lo = std::min(f.start_period, f.end_period), hi = std::max(f.start_period, f.end_period);
        near_end = near_end || std::abs(T - lo) < 1e-6 * T || std::abs(T - hi) < 1e-6 * T;
        if (T > lo && T < hi)
          return true;
      }
    return false;
  };
  const int n = 24000;
  for (int k = 1; k <= n; ++k)
    {
      const double T = T_max * k / n;
      bool         near_end;
      const bool   listed = on_family(T, near_end);
      if (!near_end)
        {
          ASSERT_EQ(one_impact_orbit(chain, T).admissible, listed) << "T = " << T;
        }
    }
  // The impact velocity's closed form, with the modes of the generalised eigensolver.
  for (const double T : {2.0, 3.7, 6.1, 9.3, 18.9, 30.0})
    {
      const OneImpactOrbit orbit = one_impact_orbit(chain, T);
      const Eigen::Matrix2d &p = flow.phi;
      const double s1 = std::sin(flow.omega(0) * T / 2), s2 = std::sin(flow.omega(1) * T / 2);
      const double c1 = std::cos(flow.omega(0) * T / 2), c2 = std::cos(flow.omega(1) * T / 2);
      const double D  = p(1, 0) * c1 * p(0, 1) * flow.omega(1) * s2 - p(1, 1) * c2 * p(0, 0) * flow.omega(0) * s1;
      const double v  = chain.gap * flow.omega(0) * flow.omega(1) * s1 * s2 * p.determinant() / D;
      EXPECT_NEAR(orbit.impact_velocity, v, 1e-10 * (1 + std::abs(v))) << "T = " << T;
    }
  std::vector<std::pair<unsigned int, unsigned int>> kinds;
  for (const auto &f : families)
    {
      ASSERT_TRUE(f.leaves_linear_mode);
      kinds.emplace_back(f.mode, f.cycles);
      EXPECT_NEAR(f.start_period, f.cycles * 2 * pi / flow.omega(f.mode), 1e-12 * f.start_period);
      EXPECT_NEAR(f.start_energy, linear_mode_grazing_energy(chain, f.mode), 1e-12);
      std::cerr << "mode " << f.mode + 1 << ", " << f.cycles << " cycles: T " << f.start_period << " .. "
                << f.end_period << ", E " << f.start_energy << " .. " << f.end_energy
                << (f.ends_by_grazing ? " (grazes)" : " (pole)") << "\n";
    }
  const std::vector<std::pair<unsigned int, unsigned int>> expected{{1, 1}, {1, 2}, {0, 1}, {1, 5}, {0, 3}};
  EXPECT_EQ(kinds, expected);
}

TEST(PeriodicClosedForms, StickingPhaseAgainstDirectIntegration)
{
  for (const TwoDofChain &chain : {unit_chain(), uneven_chain()})
    {
      const double q1 = 1.5 * chain.gap, v1 = 0.2;
      const StickingPhase phase = sticking_phase(chain, q1, v1);
      ASSERT_TRUE(phase.sticks);
      // m1 with m2 held at the stop, RK4: m1 ẍ = −k1 x − k2 (x − g); release when the stop force
      // k2 (x − g) turns negative.
      const auto accel = [&](double x) { return (-chain.k1 * x - chain.k2 * (x - chain.gap)) / chain.m1; };
      double     x = q1, v = v1, t = 0.0;
      const double h = 1e-4;
      double       release = -1.0, v_release = 0.0;
      std::vector<double> centre_crossings;
      const double        centre = chain.k2 * chain.gap / (chain.k1 + chain.k2);
      for (int n = 0; n < 200000 && release < 0.0; ++n)
        {
          const double k1x = v, k1v = accel(x);
          const double k2x = v + 0.5 * h * k1v, k2v = accel(x + 0.5 * h * k1x);
          const double k3x = v + 0.5 * h * k2v, k3v = accel(x + 0.5 * h * k2x);
          const double k4x = v + h * k3v, k4v = accel(x + h * k3x);
          const double xn = x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
          const double vn = v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
          if (xn < chain.gap && x >= chain.gap)
            {
              const double f = (x - chain.gap) / (x - xn); // linear in the step: O(h²)
              release        = t + f * h;
              v_release      = v + f * (vn - v);
            }
          x = xn;
          v = vn;
          t += h;
        }
      EXPECT_NEAR(phase.release_time, release, 1e-6);
      EXPECT_NEAR(phase.v1_release, v_release, 1e-5);
      EXPECT_NEAR(phase.position_m1(phase.release_time), chain.gap, 1e-13);
      EXPECT_NEAR(phase.stop_force(chain, phase.release_time), 0.0, 1e-13);
      // The oscillation continued without release: its frequency and centre from the RK4 zero
      // crossings of x − centre, a half period apart.
      x = q1, v = v1, t = 0.0;
      double previous = x - centre;
      for (int n = 0; n < 200000 && centre_crossings.size() < 3; ++n)
        {
          const double k1x = v, k1v = accel(x);
          const double k2x = v + 0.5 * h * k1v, k2v = accel(x + 0.5 * h * k1x);
          const double k3x = v + 0.5 * h * k2v, k3v = accel(x + 0.5 * h * k2x);
          const double k4x = v + h * k3v, k4v = accel(x + h * k3x);
          x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
          v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
          t += h;
          if ((x - centre) * previous < 0.0)
            centre_crossings.push_back(t - h * (x - centre) / ((x - centre) - previous));
          previous = x - centre;
        }
      ASSERT_EQ(centre_crossings.size(), 3u);
      EXPECT_NEAR(pi / (centre_crossings[2] - centre_crossings[1]), phase.frequency, 1e-6);
      EXPECT_NEAR(phase.centre, centre, 1e-15);
    }
  // The unit chain: √2 about g/2.
  const StickingPhase unit = sticking_phase(unit_chain(), 0.1, 0.05);
  EXPECT_NEAR(unit.frequency, std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(unit.centre, 0.05, 1e-15);
  // Starting at the release position and rising: one full excursion above g.
  EXPECT_GT(unit.release_time, 0.0);
  // Pulling on the stop from the start: no sticking.
  EXPECT_FALSE(sticking_phase(unit_chain(), 0.05, 1.0).sticks);
}

TEST(PeriodicClosedForms, InelasticImpactRemovesTheApproachKineticEnergyOfM2)
{
  const TwoDofChain     chain = uneven_chain();
  const Eigen::Vector2d q(0.03, chain.gap), v(-0.4, 0.7);
  // e = 0 at the stop: the impulse along H = (0, 1) brings v2 to 0 and leaves v1 (M diagonal).
  const Eigen::Vector2d v_after(v(0), 0.0);
  EXPECT_NEAR(chain_energy(chain, q, v) - chain_energy(chain, q, v_after), inelastic_impact_loss(chain, v(1)),
              1e-15);
}

namespace
{
  // Exact characteristics for the fixed–free rod: right- and left-going strain waves r, l on N
  // cells, moved one cell per step h/c (exact for cell-aligned piecewise-constant data). Fixed
  // end: r₀ ← l₀. Free end: l ← −r (the end moves at −2c r); in contact: l ← r (the end stays).
  // Signorini: contact when the free reflection would carry u(L) past the gap.
  struct CharacteristicsResult
  {
    double periodicity_error = 0.0; // max |wave(T) − wave(0)| / B
    double contact_time = 0.0;
    double largest_end_displacement = -1e300;
    double energy = 0.0;            // of the initial cell data
    double largest_contact_force = 0.0;
    double largest_field_mismatch = 0.0; // max over sampled steps of |closed form − simulation| / B
  };

  CharacteristicsResult simulate_rod(const RodBackbonePoint &orbit, const Rod &rod, int N, int steps)
  {
    const double        L = rod.length, c = rod.wave_speed, h = L / N;
    std::vector<double> r(N), l(N);
    for (int j = 0; j < N; ++j)
      {
        // Cell averages: the strain from the displacement at the cell ends (exact average), the
        // velocity at the cell centre.
        const double strain   = (orbit.displacement((j + 1) * h, 0.0) - orbit.displacement(j * h, 0.0)) / h;
        const double velocity = orbit.velocity((j + 0.5) * h, 0.0);
        r[j]                  = 0.5 * (strain - velocity / c);
        l[j]                  = 0.5 * (strain + velocity / c);
      }
    const std::vector<double> r0 = r, l0 = l;
    CharacteristicsResult     result;
    for (int j = 0; j < N; ++j)
      result.energy += rod.EA * h * (r[j] * r[j] + l[j] * l[j]); // ½EA∫(ε² + v²/c²) = EA∫(r² + l²)
    double end = 0.0;
    for (int j = 0; j < N; ++j)
      end += h * (r[j] + l[j]);
    for (int n = 0; n < steps; ++n)
      {
        const double incoming = r[N - 1];
        const bool   contact  = end - 2.0 * h * incoming > rod.gap + 1e-12 * rod.gap;
        const double l0_old   = l[0];
        std::rotate(r.rbegin(), r.rbegin() + 1, r.rend()); // r_j ← r_{j−1}
        r[0] = l0_old;
        std::rotate(l.begin(), l.begin() + 1, l.end()); // l_j ← l_{j+1}
        l[N - 1] = contact ? incoming : -incoming;
        if (contact)
          {
            result.contact_time += h / c;
            result.largest_contact_force = std::max(result.largest_contact_force, -2.0 * rod.EA * incoming);
          }
        else
          end -= 2.0 * h * incoming;
        result.largest_end_displacement = std::max(result.largest_end_displacement, end);
        // Every 37th step, the orbit's own fields at that time against the simulation's.
        if ((n + 1) % 37 == 0)
          {
            const double t = (n + 1) * h / c;
            for (int j = 0; j < N; ++j)
              {
                const double strain =
                  (orbit.displacement((j + 1) * h, t) - orbit.displacement(j * h, t)) / h;
                const double xm = (j + 0.5) * h;
                result.largest_field_mismatch = std::max(
                  {result.largest_field_mismatch, std::abs(strain - (r[j] + l[j])) / orbit.strain_amplitude,
                   std::abs(orbit.strain(xm, t) - (r[j] + l[j])) / orbit.strain_amplitude,
                   std::abs(orbit.velocity(xm, t) - c * (l[j] - r[j])) / (c * orbit.strain_amplitude)});
              }
          }
      }
    for (int j = 0; j < N; ++j)
      result.periodicity_error = std::max(
        {result.periodicity_error, std::abs(r[j] - r0[j]), std::abs(l[j] - l0[j])});
    result.periodicity_error /= orbit.strain_amplitude;
    return result;
  }
} // namespace

TEST(PeriodicClosedForms, RodNonsmoothModeIsPeriodicUnderExactCharacteristics)
{
  Rod rod;
  rod.length     = 2.0;
  rod.wave_speed = 3.0;
  rod.EA         = 5.0;
  rod.gap        = 0.05;
  const int    N  = 400;
  const double Eg = rod_backbone_grazing_energy(rod);
  // Energies whose switching instants fall on the grid: √(E_g/E) = m/N.
  for (const int m : {40, 100, 200, 300, 399})
    {
      const double           eta   = double(m) / N;
      const RodBackbonePoint orbit = rod_first_nonsmooth_mode(rod, Eg / (eta * eta));
      const double           steps = orbit.period * rod.wave_speed / (rod.length / N);
      ASSERT_NEAR(steps, std::round(steps), 1e-9);
      const CharacteristicsResult sim = simulate_rod(orbit, rod, N, int(std::round(steps)));
      EXPECT_LT(sim.periodicity_error, 1e-12) << m;
      EXPECT_LT(sim.largest_field_mismatch, 1e-9) << m;
      EXPECT_NEAR(sim.contact_time, orbit.contact_duration, 1e-12) << m;
      EXPECT_NEAR(sim.largest_end_displacement, rod.gap, 1e-12) << m;
      EXPECT_NEAR(sim.energy, orbit.energy, 1e-12 * orbit.energy) << m;
      EXPECT_NEAR(sim.largest_contact_force, orbit.contact_force, 1e-10 * orbit.contact_force) << m;
      EXPECT_NEAR(orbit.displacement(rod.length, 0.0), rod.gap, 1e-14);
      // Not periodic with any shorter whole number of steps near the period (rules out a
      // trivially periodic state).
      const CharacteristicsResult shorter = simulate_rod(orbit, rod, N, int(std::round(steps)) - 4);
      EXPECT_GT(shorter.periodicity_error, 1e-3) << m;
    }
  // Between grid-aligned energies the orbit is exact too; the cell data then blur a front over
  // one cell, so the simulation returns to within O(h).
  const RodBackbonePoint off = rod_first_nonsmooth_mode(rod, 3.7 * Eg);
  const double           steps = off.period * rod.wave_speed / (rod.length / N);
  const CharacteristicsResult sim = simulate_rod(off, rod, N, int(std::round(steps)));
  EXPECT_NEAR(sim.contact_time, off.contact_duration, 2.0 * rod.length / N / rod.wave_speed);
  EXPECT_NEAR(sim.energy, off.energy, 0.02 * off.energy);
}

TEST(PeriodicClosedForms, RodBackboneLimits)
{
  Rod rod;
  const double w1 = rod_first_frequency(rod), Eg = rod_backbone_grazing_energy(rod);
  // Below grazing: a free motion of period 4L/c that just does not reach the stop.
  const RodBackbonePoint below = rod_first_nonsmooth_mode(rod, 0.5 * Eg);
  EXPECT_NEAR(below.frequency, w1, 1e-14);
  EXPECT_EQ(below.contact_duration, 0.0);
  const CharacteristicsResult free = simulate_rod(below, rod, 200, 800);
  EXPECT_LT(free.periodicity_error, 1e-12);
  EXPECT_EQ(free.contact_time, 0.0);
  EXPECT_LT(free.largest_end_displacement, rod.gap);
  // At grazing the family leaves ω1; at high energy it tends to the zero-gap orbit: half a free
  // period (2L/c) plus half a fixed–fixed period (L/c), ω → 4ω1/3.
  EXPECT_NEAR(rod_first_nonsmooth_mode(rod, Eg).frequency, w1, 1e-14);
  EXPECT_NEAR(rod_first_nonsmooth_mode(rod, 1e12 * Eg).frequency, 4.0 * w1 / 3.0, 1e-6);
  EXPECT_NEAR(rod_first_nonsmooth_mode(rod, 1e12 * Eg).contact_duration, 1.0, 1e-5);
  // The two instants of rest (checked against the flow of the orbit's own fields: the
  // characteristics test above validates those fields): u = −2Bx apart, the tent in contact.
  for (const double ratio : {0.5, 1.0, 3.0, 40.0})
    {
      const RodBackbonePoint o = rod_first_nonsmooth_mode(rod, ratio * Eg);
      for (const double x : {0.1, 0.33, 0.5, 0.77, 0.95})
        {
          EXPECT_NEAR(o.velocity(x, o.time_at_rest_apart()), 0.0, 1e-14);
          EXPECT_NEAR(o.displacement(x, o.time_at_rest_apart()), -2 * o.strain_amplitude * x, 1e-14);
          EXPECT_NEAR(o.velocity(x, o.time_at_rest_in_contact()), 0.0, 1e-14);
          EXPECT_NEAR(o.displacement(x, o.time_at_rest_in_contact()),
                      2 * o.strain_amplitude * std::min(x, o.a - x), 1e-14);
        }
      EXPECT_NEAR(o.end_displacement_min, o.displacement(rod.length, o.time_at_rest_apart()), 1e-14);
      // All the energy is strain energy at rest: ½ EA (2B)² L.
      EXPECT_NEAR(o.energy, 0.5 * rod.EA * 4 * o.strain_amplitude * o.strain_amplitude * rod.length, 1e-14);
    }
  // The frequency parametrisation gives the same orbit.
  const RodBackbonePoint p = rod_first_nonsmooth_mode(rod, 2.5 * Eg);
  const RodBackbonePoint q = rod_first_nonsmooth_mode_at_frequency(rod, p.frequency);
  EXPECT_NEAR(q.energy, p.energy, 1e-12 * p.energy);
  EXPECT_NEAR(q.displacement(0.37, 0.81), p.displacement(0.37, 0.81), 1e-13);
  // The sinusoidal mode grazes at π²/16 EA g²/L: its energy by quadrature.
  double energy = 0.0;
  const int n = 10000;
  for (int k = 0; k < n; ++k)
    {
      const double x = (k + 0.5) / n, strain = rod.gap * pi / 2 * std::cos(pi * x / 2);
      energy += 0.5 * rod.EA * strain * strain / n;
    }
  EXPECT_NEAR(rod_linear_mode_grazing_energy(rod), energy, 1e-10);
}
