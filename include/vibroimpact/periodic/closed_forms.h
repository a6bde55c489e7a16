// Closed-form periodic orbits that the shooting and continuation code is tested against
// (derivations in doc/closed-forms.md):
//
//   2-DOF chain   ground–k1–m1–k2–m2, rigid stop at q2 = g. The e = 1 orbits with one impact per
//                 period, symmetric about the impact: two linear equations give the modal
//                 amplitudes for a given period T; energy, admissibility, where a family grazes.
//                 The sticking phase of m2 at the stop (m1 oscillates at √((k1+k2)/m1) about
//                 k2 g/(k1+k2), release when q1 falls back to g) and the e = 0 impact loss.
//   rod           fixed–free, rigid stop at distance g from the free end, the continuum's
//                 energy-conserving contact. The first nonsmooth mode by d'Alembert: strain waves
//                 of constant magnitude, T = (L/c)(3 + √(E_g/E)), contact (L/c)(1 − √(E_g/E)),
//                 E_g = EA g²/(2L); fields u(x, t), v(x, t) of the orbit in closed form.
//   impact        m ẍ + c ẋ + k x = F sin Ωt, rigid stop at x = g, restitution e: the forced
//   oscillator    orbits of one impact per forcing period (impact phase from one trigonometric
//                 equation, two roots meeting at a fold), their Floquet multipliers (saltation
//                 matrix), and the grazing of the orbit without impacts.
#pragma once

#include <Eigen/Core>

#include <vector>

namespace vibroimpact::periodic
{
  // ── 2-DOF chain ─────────────────────────────────────────────────────────────────────────────

  // ground –k1– m1 –k2– m2 | stop at q2 = gap (q measured from the unstretched springs).
  struct TwoDofChain
  {
    double m1 = 1.0, m2 = 1.0;
    double k1 = 1.0, k2 = 1.0;
    double gap = 0.1;
  };

  // Linear modes of the chain without the stop: omega(0) < omega(1); column j of shapes is mode j,
  // mass-normalised (φᵀMφ = 1), signed so that its m2 entry is positive.
  struct ChainModes
  {
    Eigen::Vector2d omega;
    Eigen::Matrix2d shapes;
  };

  ChainModes chain_modes(const TwoDofChain &chain);

  // ½ vᵀMv + ½ qᵀKq.
  double chain_energy(const TwoDofChain &chain, const Eigen::Vector2d &q, const Eigen::Vector2d &v);

  // Energy of linear mode j (0 or 1) at the amplitude where max q2 = gap: ½ ω_j² (g/φ_2j)².
  double linear_mode_grazing_energy(const TwoDofChain &chain, unsigned int j);

  // The e = 1 orbit with one impact per period T, symmetric about the impact (t = 0) and about
  // t = T/2, where both velocities vanish. Between impacts
  //   q(t) = Σ_j φ_j A_j cos(ω_j (t − T/2)),   0 < t < T.
  struct OneImpactOrbit
  {
    double          period = 0.0;
    Eigen::Vector2d modal_amplitude = Eigen::Vector2d::Zero(); // A_j
    Eigen::Vector2d q = Eigen::Vector2d::Zero();               // at the impact, q2 = gap
    Eigen::Vector2d v = Eigen::Vector2d::Zero();               // just after it: v1 = 0, v2 = −impact_velocity
    double          impact_velocity = 0.0;                     // v2 just before the impact (> 0 approaching)
    double          energy = 0.0;
    // False when m2 reaches the stop inside (0, T) or the impact velocity is not positive (the
    // stop would pull). Then first_contact_time is the first t in (0, T) with q2(t) = gap (or 0
    // when the impact velocity is not positive).
    bool   admissible = false;
    double first_contact_time = -1.0;
    // False where the two equations are singular (E → ∞: the orbit of the zero-gap chain).
    bool regular = false;

    Eigen::Vector2d position(const TwoDofChain &chain, double t) const; // t in [0, T]
    Eigen::Vector2d velocity(const TwoDofChain &chain, double t) const; // t in (0, T)
  };

  OneImpactOrbit one_impact_orbit(const TwoDofChain &chain, double period);

  // The one-impact family leaving linear mode j at T0 = cycles·2π/ω_j (cycles = 1 the
  // fundamental; cycles ≥ 2 the subharmonic families, one impact every `cycles` oscillations).
  // It starts at the mode's grazing energy and runs in T toward end_period, where it either grazes
  // inside the period (ends_by_grazing, end_energy finite) or its energy goes to infinity (the
  // equations become singular). exists is false when no admissible orbit lies on either side of
  // T0: e.g. mode 0 with two cycles, whose linear orbit also touches the stop at T0/2 and
  // penetrates on both sides.
  struct OneImpactFamily
  {
    unsigned int mode = 0, cycles = 1;
    bool         exists = false;
    // False for an interval of admissible orbits that touches no grazing linear mode (bounded by
    // grazings and poles only; mode and cycles are then 0 and start_period is its lower end).
    bool         leaves_linear_mode = true;
    double       start_period = 0.0, start_energy = 0.0;
    double       end_period = 0.0, end_energy = 0.0;
    bool         ends_by_grazing = false;
  };

  OneImpactFamily one_impact_family(const TwoDofChain &chain, unsigned int j, unsigned int cycles = 1);

  // Every family of one-impact orbits with periods in (0, max_period] (doc/closed-forms.md,
  // "The complete set of one-impact families"): the impact velocity is
  // g ω1 ω2 sin(ω1T/2) sin(ω2T/2) det Φ / D(T), so a family can end only at a grazing linear mode
  // (T = n T_j), at a pole (D = 0, E → ∞) or by grazing inside the period. The families of every
  // n T_j ≤ max_period, then a scan of T in steps of T_2/1000 for admissible orbits outside them
  // (families that leave no linear mode). Sorted by the lower end of their period range.
  std::vector<OneImpactFamily> one_impact_families(const TwoDofChain &chain, double max_period);

  // m2 held at the stop from t = 0 with m1 at (q1, v1): m1 ẍ1 = −(k1 + k2) x1 + k2 g, so
  //   x1(t) = centre + (q1 − centre) cos Ωt + (v1/Ω) sin Ωt,  Ω = √((k1+k2)/m1), centre = k2 g/(k1+k2),
  // and the stop force k2 (x1 − g) ≥ 0 holds m2 until x1 falls back to g.
  struct StickingPhase
  {
    double frequency = 0.0;    // Ω
    double centre = 0.0;       // k2 g/(k1 + k2)
    double q1 = 0.0, v1 = 0.0; // m1 at the start
    bool   sticks = false;     // false: the stop force is not compressive at the start
    double release_time = 0.0; // first t ≥ 0 with x1 = g, ẋ1 < 0 (0 when it does not stick)
    double v1_release = 0.0;   // −Ω √(R² − (g − centre)²)

    double position_m1(double t) const;
    double velocity_m1(double t) const;
    double stop_force(const TwoDofChain &chain, double t) const; // k2 (x1 − g)
  };

  StickingPhase sticking_phase(const TwoDofChain &chain, double q1, double v1);

  // Kinetic energy an e = 0 impact of m2 removes: ½ m2 v2⁻² (the stop's impulse acts on m2 alone).
  double inelastic_impact_loss(const TwoDofChain &chain, double v2_before);

  // ── Fixed–free rod with a stop at the free end ─────────────────────────────────────────────

  struct Rod
  {
    double length = 1.0;
    double wave_speed = 1.0; // c = √(E/ρ)
    double EA = 1.0;         // axial stiffness; the mass per length is EA/c²
    double gap = 0.1;        // the free end x = L may move up to u(L) = gap
  };

  // ω1 = πc/(2L).
  double rod_first_frequency(const Rod &rod);
  // Energy of the sinusoidal linear mode u = A sin(πx/2L) cos ω1t at A = gap: π² EA g²/(16L).
  double rod_linear_mode_grazing_energy(const Rod &rod);
  // Where the first nonsmooth mode leaves ω1: EA g²/(2L) (the free motion with square-wave strain).
  double rod_backbone_grazing_energy(const Rod &rod);

  // One orbit of the first nonsmooth mode. u = f(ct + x) − f(ct − x) with f' = ±B (|strain
  // waves| = B everywhere); t = 0 is the start of the contact phase (above grazing) or the instant
  // of largest end displacement (below grazing, a free motion of period 4L/c).
  struct RodBackbonePoint
  {
    double energy = 0.0;
    double period = 0.0;
    double frequency = 0.0;        // 2π/period
    double contact_duration = 0.0; // per period, starts at t = 0
    double strain_amplitude = 0.0; // B
    double contact_force = 0.0;    // 2 EA B, constant during contact
    double end_displacement_min = 0.0;

    // The rod is at rest twice per period: mid free phase, t = 2L/c, with u = −2Bx (uniform
    // strain −2B, the end farthest from the stop: a simple Newton start), and mid contact phase,
    // t = (L − a/2)/c, with the tent u = 2B min(x, a − x).
    double time_at_rest_apart() const;
    double time_at_rest_in_contact() const;

    double displacement(double x, double t) const;
    double velocity(double x, double t) const;
    double strain(double x, double t) const;

    // Internal: rod data and the length a (in x units) of the +B part of f' per period.
    Rod    rod;
    double a = 0.0;
  };

  RodBackbonePoint rod_first_nonsmooth_mode(const Rod &rod, double energy);
  // The same point given its frequency, ω1 ≤ ω < 4ω1/3.
  RodBackbonePoint rod_first_nonsmooth_mode_at_frequency(const Rod &rod, double omega);

  // ── Forced impact oscillator ───────────────────────────────────────────────────────────────

  // m ẍ + 2ζ√(km) ẋ + k x = F sin Ωt, with x ≤ gap (a rigid stop above) and the Newton law
  // v+ = −e v− (doc/closed-forms.md, "Closed forms: the forced impact oscillator").
  struct ImpactOscillator
  {
    double mass = 1.0, stiffness = 1.0, damping_ratio = 0.05;
    double gap = 1.0, restitution = 0.8, force = 1.0;
  };

  // The orbit of period 2π/Ω with one impact a period, at t_i = phase/Ω ∈ [0, T).
  struct ForcedImpactOrbit
  {
    double frequency = 0.0;       // Ω
    double phase = 0.0;           // Ω t_i, in [0, 2π)
    double impact_velocity = 0.0; // ẋ just before the impact (> 0: toward the stop)
    Eigen::Vector2d state_at_zero = Eigen::Vector2d::Zero(); // (x, ẋ) at t = 0 (mod T)
    Eigen::Vector2cd multipliers = Eigen::Vector2cd::Zero(); // Floquet multipliers, |μ0| ≥ |μ1|
    bool   stable = false;
    // The impact velocity is positive and x < gap strictly inside the period (on 4,000 samples).
    bool   admissible = false;
    double amplitude = 0.0; // max |x| over the period

    double position(const ImpactOscillator &osc, double t) const; // t in [0, T]
  };

  // Every one-impact orbit at Ω (0 or 2 roots of the phase equation; admissible or not): the phase
  // equation is c1 sin φ + c2 cos φ = −α g, two roots where |α g| < √(c1² + c2²).
  std::vector<ForcedImpactOrbit> forced_one_impact_orbits(const ImpactOscillator &osc, double omega);

  // Where the two roots meet (|α g| = √(c1² + c2²)): the fold of the one-impact branch in Ω,
  // searched by bisection on the discriminant in [omega_low, omega_high], which must bracket it.
  double forced_one_impact_fold(const ImpactOscillator &osc, double omega_low, double omega_high);

  // The orbit without impacts: amplitude (F/m)/√((ωn² − Ω²)² + (2ζωnΩ)²) and, where it equals the
  // gap, the grazing frequencies (below and above resonance; empty when the force never reaches it).
  double forced_linear_amplitude(const ImpactOscillator &osc, double omega);
  std::vector<double> forced_grazing_frequencies(const ImpactOscillator &osc);
} // namespace vibroimpact::periodic
