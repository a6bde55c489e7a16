// Closed-form periodic orbits: derivations in doc/closed-forms.md.
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/periodic/eigenpairs.h>

#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace vibroimpact::periodic
{
  namespace
  {
    constexpr double pi = 3.14159265358979323846;

    void require_positive(const double value, const char *name)
    {
      if (!(value > 0.0) || !std::isfinite(value))
        throw std::invalid_argument(std::string("closed forms: ") + name + " must be positive and finite");
    }

    void check(const TwoDofChain &chain)
    {
      require_positive(chain.m1, "m1");
      require_positive(chain.m2, "m2");
      require_positive(chain.k1, "k1");
      require_positive(chain.k2, "k2");
      require_positive(chain.gap, "gap");
    }

    void check(const Rod &rod)
    {
      require_positive(rod.length, "rod length");
      require_positive(rod.wave_speed, "rod wave speed");
      require_positive(rod.EA, "rod EA");
      require_positive(rod.gap, "rod gap");
    }

    // Largest x in a bracket [lo, hi] where f changes sign, to the last bits.
    template <typename F>
    double root_in(F f, double lo, double hi)
    {
      std::uintmax_t                                 iterations = 200;
      boost::math::tools::eps_tolerance<double>      tol(std::numeric_limits<double>::digits - 2);
      const auto [a, b] = boost::math::tools::toms748_solve(f, lo, hi, tol, iterations);
      return 0.5 * (a + b);
    }
  } // namespace

  // ── 2-DOF chain ─────────────────────────────────────────────────────────────────────────────

  ChainModes chain_modes(const TwoDofChain &chain)
  {
    check(chain);
    const double m1 = chain.m1, m2 = chain.m2, k1 = chain.k1, k2 = chain.k2;
    // det(K − λM) = m1 m2 λ² − (m1 k2 + m2 (k1 + k2)) λ + k1 k2 = 0. The larger root from the
    // formula, the smaller from the product k1 k2/(m1 m2): no cancellation when k1 ≪ k2.
    const double b    = m1 * k2 + m2 * (k1 + k2);
    const double disc = b * b - 4.0 * m1 * m2 * k1 * k2; // = (m1k2 − m2(k1+k2))² + 4 m1 m2 k2² > 0
    const double l2   = (b + std::sqrt(disc)) / (2.0 * m1 * m2);
    const double l1   = k1 * k2 / (m1 * m2 * l2);

    ChainModes modes;
    modes.omega << std::sqrt(l1), std::sqrt(l2);
    for (int j = 0; j < 2; ++j)
      {
        const double lambda = j == 0 ? l1 : l2;
        // Second row of (K − λM)ψ = 0: −k2 ψ1 + (k2 − λ m2) ψ2 = 0, so ψ = (k2 − λ m2, k2): the m2
        // entry is positive by construction.
        Eigen::Vector2d psi(k2 - lambda * m2, k2);
        psi /= std::sqrt(m1 * psi(0) * psi(0) + m2 * psi(1) * psi(1));
        modes.shapes.col(j) = psi;
      }
    return modes;
  }

  double chain_energy(const TwoDofChain &chain, const Eigen::Vector2d &q, const Eigen::Vector2d &v)
  {
    const double kinetic   = 0.5 * (chain.m1 * v(0) * v(0) + chain.m2 * v(1) * v(1));
    const double potential = 0.5 * (chain.k1 * q(0) * q(0) + chain.k2 * (q(1) - q(0)) * (q(1) - q(0)));
    return kinetic + potential;
  }

  double linear_mode_grazing_energy(const TwoDofChain &chain, const unsigned int j)
  {
    if (j > 1)
      throw std::invalid_argument("closed forms: the chain has modes 0 and 1");
    const ChainModes modes     = chain_modes(chain);
    const double     amplitude = chain.gap / modes.shapes(1, j); // max q2 = φ_2j A = g
    return 0.5 * modes.omega(j) * modes.omega(j) * amplitude * amplitude;
  }

  Eigen::Vector2d OneImpactOrbit::position(const TwoDofChain &chain, const double t) const
  {
    const ChainModes modes = chain_modes(chain);
    Eigen::Vector2d  q     = Eigen::Vector2d::Zero();
    for (int j = 0; j < 2; ++j)
      q += modes.shapes.col(j) * modal_amplitude(j) * std::cos(modes.omega(j) * (t - 0.5 * period));
    return q;
  }

  Eigen::Vector2d OneImpactOrbit::velocity(const TwoDofChain &chain, const double t) const
  {
    const ChainModes modes = chain_modes(chain);
    Eigen::Vector2d  v     = Eigen::Vector2d::Zero();
    for (int j = 0; j < 2; ++j)
      v -= modes.shapes.col(j) * modal_amplitude(j) * modes.omega(j) *
           std::sin(modes.omega(j) * (t - 0.5 * period));
    return v;
  }

  OneImpactOrbit one_impact_orbit(const TwoDofChain &chain, const double period)
  {
    require_positive(period, "period");
    const ChainModes       modes = chain_modes(chain);
    const Eigen::Matrix2d &phi   = modes.shapes;
    const Eigen::Vector2d &w     = modes.omega;
    const double           g     = chain.gap;

    OneImpactOrbit orbit;
    orbit.period = period;

    // Symmetric about t = 0 (the impact) and, by periodicity, about T/2, where the velocities
    // vanish: q(t) = Σ φ_j A_j cos ω_j(t − T/2). At t = 0: q2 = g and v1 = 0 (the impact changes
    // only v2, and the reversal t → −t must map v⁺ onto v⁻ = (v1, −v2)).
    //   φ_21 cos h1 A1 + φ_22 cos h2 A2 = g
    //   φ_11 ω1 sin h1 A1 + φ_12 ω2 sin h2 A2 = 0,          h_j = ω_j T/2.
    const double c1 = std::cos(0.5 * w(0) * period), s1 = std::sin(0.5 * w(0) * period);
    const double c2 = std::cos(0.5 * w(1) * period), s2 = std::sin(0.5 * w(1) * period);
    const double D  = phi(1, 0) * c1 * phi(0, 1) * w(1) * s2 - phi(1, 1) * c2 * phi(0, 0) * w(0) * s1;
    const double scale =
      std::abs(phi(1, 0) * phi(0, 1) * w(1)) + std::abs(phi(1, 1) * phi(0, 0) * w(0));
    orbit.regular = std::abs(D) > 1e-13 * scale;
    if (!orbit.regular)
      {
        orbit.energy = std::numeric_limits<double>::infinity();
        return orbit;
      }
    orbit.modal_amplitude << g * phi(0, 1) * w(1) * s2 / D, -g * phi(0, 0) * w(0) * s1 / D;
    const Eigen::Vector2d &A = orbit.modal_amplitude;

    orbit.q = phi.col(0) * A(0) * c1 + phi.col(1) * A(1) * c2;
    orbit.v = phi.col(0) * A(0) * w(0) * s1 + phi.col(1) * A(1) * w(1) * s2;
    orbit.q(1) = g;   // exact by the first equation; remove the last-bit residue
    orbit.v(0) = 0.0; // exact by the second
    orbit.impact_velocity = -orbit.v(1);
    // At T/2 the chain is at rest: all the energy is potential, ½ Σ ω_j² A_j².
    orbit.energy = 0.5 * (w(0) * w(0) * A(0) * A(0) + w(1) * w(1) * A(1) * A(1));

    if (!(orbit.impact_velocity > 0.0))
      {
        orbit.admissible         = false;
        orbit.first_contact_time = 0.0;
        return orbit;
      }

    // Interior contact: by the symmetry about T/2 it suffices to search (0, T/2]. q2 − g < 0 just
    // after the impact; it can reach 0 only at or after a local maximum of q2. Sample finer than
    // the faster mode (so no pair of extrema hides between samples), locate each maximum of q2
    // (a zero of v2 going down), and the first crossing before it.
    const auto   gap_function = [&](double t) { return orbit.position(chain, t)(1) - g; };
    const auto   v2           = [&](double t) { return orbit.velocity(chain, t)(1); };
    const double half         = 0.5 * period;
    const int    n            = std::max(400, static_cast<int>(std::ceil(64.0 * w(1) * half / pi)));
    const double dt           = half / n;
    const double touch        = 1e-14 * g; // a tangency counts as contact (grazing)
    double       t_prev       = 0.0;
    for (int k = 1; k <= n; ++k)
      {
        const double t = k * dt;
        // The interval's highest point: an interior maximum (v2 from + to −) or its end.
        double t_high = t;
        if (v2(t_prev) > 0.0 && v2(t) <= 0.0)
          t_high = root_in(v2, t_prev, t);
        if (gap_function(t_high) >= -touch)
          {
            orbit.admissible = false;
            // The crossing lies between the last point with q2 < g and t_high.
            const double lo          = t_prev > 0.0 ? t_prev : 0.5 * dt;
            orbit.first_contact_time = gap_function(lo) < 0.0 && gap_function(t_high) > 0.0 ?
                                         root_in(gap_function, lo, t_high) :
                                         t_high;
            return orbit;
          }
        t_prev = t;
      }
    orbit.admissible = true;
    return orbit;
  }

  OneImpactFamily one_impact_family(const TwoDofChain &chain, const unsigned int j, const unsigned int cycles)
  {
    if (j > 1 || cycles == 0)
      throw std::invalid_argument("closed forms: family of mode 0 or 1, at least one cycle");
    const ChainModes modes = chain_modes(chain);
    OneImpactFamily  family;
    family.mode         = j;
    family.cycles       = cycles;
    family.start_period = cycles * 2.0 * pi / modes.omega(j);
    family.start_energy = linear_mode_grazing_energy(chain, j);
    family.end_period   = family.start_period;
    family.end_energy   = family.start_energy;

    // The family leaves the grazing linear mode on the side where the impact velocity is positive
    // (the other side pulls on the stop).
    const double T0    = family.start_period;
    const double probe = 1e-6 * T0;
    double       direction;
    if (one_impact_orbit(chain, T0 - probe).admissible)
      direction = -1.0;
    else if (one_impact_orbit(chain, T0 + probe).admissible)
      direction = 1.0;
    else
      return family; // no family leaves this point
    family.exists = true;

    // March in T until the orbit stops being admissible (it grazes inside the period) or the
    // equations become singular (E → ∞), then refine that end by bisection.
    const auto singular_function = [&](double T) {
      const Eigen::Vector2d &w = modes.omega;
      const Eigen::Matrix2d &p = modes.shapes;
      return p(1, 0) * std::cos(0.5 * w(0) * T) * p(0, 1) * w(1) * std::sin(0.5 * w(1) * T) -
             p(1, 1) * std::cos(0.5 * w(1) * T) * p(0, 0) * w(0) * std::sin(0.5 * w(0) * T);
    };
    const int    steps = 4000;
    const double dT    = direction * 0.95 * T0 / steps; // never reaches T = 0
    double       T_ok  = T0 + direction * probe;
    for (int k = 1; k <= steps; ++k)
      {
        const double T = T0 + direction * probe + k * dT;
        if (singular_function(T) * singular_function(T_ok) <= 0.0)
          {
            family.end_period      = root_in(singular_function, std::min(T, T_ok), std::max(T, T_ok));
            family.end_energy      = std::numeric_limits<double>::infinity();
            family.ends_by_grazing = false;
            return family;
          }
        if (!one_impact_orbit(chain, T).admissible)
          {
            double T_bad = T;
            for (int b = 0; b < 60; ++b)
              {
                const double mid = 0.5 * (T_ok + T_bad);
                (one_impact_orbit(chain, mid).admissible ? T_ok : T_bad) = mid;
              }
            family.end_period      = T_ok;
            family.end_energy      = one_impact_orbit(chain, T_ok).energy;
            family.ends_by_grazing = true;
            return family;
          }
        T_ok = T;
      }
    family.end_period = T_ok;
    family.end_energy = one_impact_orbit(chain, T_ok).energy;
    return family;
  }

  namespace
  {
    // Admissible orbits outside the families already found, in steps of `step` over (0, max_period]:
    // the families that leave no grazing linear mode, each end refined by bisection.
    std::vector<OneImpactFamily> families_between(const TwoDofChain &chain, const double max_period,
                                                  const double step, const std::vector<OneImpactFamily> &known)
    {
      const auto known_at = [&](const double T) {
        for (const auto &f : known)
          if (T >= std::min(f.start_period, f.end_period) && T <= std::max(f.start_period, f.end_period))
            return true;
        return false;
      };
      const auto new_orbit = [&](const double T) { return !known_at(T) && one_impact_orbit(chain, T).admissible; };
      const auto edge      = [&](double inside, double outside) {
        for (int b = 0; b < 60; ++b)
          {
            const double mid = 0.5 * (inside + outside);
            (new_orbit(mid) ? inside : outside) = mid;
          }
        return inside;
      };
      std::vector<OneImpactFamily> found;
      double                       open_at = -1.0; // lower end of the interval being crossed
      const int                    n       = static_cast<int>(std::ceil(max_period / step));
      for (int k = 1; k <= n; ++k)
        {
          const double T = std::min(k * step, max_period), T_prev = (k - 1) * step;
          const bool   in = new_orbit(T);
          if (in && open_at < 0)
            open_at = k == 1 ? T : edge(T, T_prev);
          if ((!in || k == n) && open_at >= 0)
            {
              OneImpactFamily f;
              f.exists = true, f.leaves_linear_mode = false, f.mode = f.cycles = 0;
              f.start_period = open_at, f.end_period = in ? T : edge(T_prev, T);
              f.start_energy = one_impact_orbit(chain, f.start_period).energy;
              f.end_energy   = one_impact_orbit(chain, f.end_period).energy;
              found.push_back(f);
              open_at = -1.0;
            }
        }
      return found;
    }
  } // namespace

  std::vector<OneImpactFamily> one_impact_families(const TwoDofChain &chain, const double max_period)
  {
    require_positive(max_period, "max_period");
    const ChainModes             modes = chain_modes(chain);
    std::vector<OneImpactFamily> families;
    for (unsigned int j = 0; j < 2; ++j)
      for (unsigned int n = 1; n * 2.0 * pi / modes.omega(j) <= max_period; ++n)
        if (const auto f = one_impact_family(chain, j, n); f.exists)
          families.push_back(f);
    const auto others = families_between(chain, max_period, 2.0 * pi / modes.omega(1) / 1000, families);
    families.insert(families.end(), others.begin(), others.end());
    const auto low = [](const OneImpactFamily &f) { return std::min(f.start_period, f.end_period); };
    std::sort(families.begin(), families.end(), [&](const auto &a, const auto &b) { return low(a) < low(b); });
    return families;
  }

  double StickingPhase::position_m1(const double t) const
  {
    return centre + (q1 - centre) * std::cos(frequency * t) + v1 / frequency * std::sin(frequency * t);
  }

  double StickingPhase::velocity_m1(const double t) const
  {
    return -(q1 - centre) * frequency * std::sin(frequency * t) + v1 * std::cos(frequency * t);
  }

  double StickingPhase::stop_force(const TwoDofChain &chain, const double t) const
  {
    // m2 at rest at q2 = g: 0 = k2 (x1 − g) − λ, the stop pushing back with λ ≥ 0.
    return chain.k2 * (position_m1(t) - chain.gap);
  }

  StickingPhase sticking_phase(const TwoDofChain &chain, const double q1, const double v1)
  {
    check(chain);
    StickingPhase phase;
    phase.frequency = std::sqrt((chain.k1 + chain.k2) / chain.m1);
    phase.centre    = chain.k2 * chain.gap / (chain.k1 + chain.k2);
    phase.q1        = q1;
    phase.v1        = v1;
    // Held only while the spring k2 presses m2 onto the stop: x1 > g, or x1 = g and rising.
    phase.sticks = q1 > chain.gap || (q1 == chain.gap && v1 > 0.0);
    if (!phase.sticks)
      {
        phase.release_time = 0.0;
        phase.v1_release   = v1;
        return phase;
      }
    // x1 − centre = R cos(Ωt − ψ); release at the first downward passage through g, where
    // cos(Ωt − ψ) = d/R with d = g − centre > 0 and the phase in (0, π).
    const double X = q1 - phase.centre, Y = v1 / phase.frequency;
    const double R = std::hypot(X, Y);
    const double d = chain.gap - phase.centre;
    const double psi = std::atan2(Y, X);
    double       theta = std::fmod(std::acos(std::min(1.0, d / R)) + psi, 2.0 * pi);
    if (theta <= 0.0)
      theta += 2.0 * pi;
    phase.release_time = theta / phase.frequency;
    phase.v1_release   = -phase.frequency * std::sqrt(std::max(0.0, R * R - d * d));
    return phase;
  }

  double inelastic_impact_loss(const TwoDofChain &chain, const double v2_before)
  {
    return 0.5 * chain.m2 * v2_before * v2_before;
  }

  // ── Rod ─────────────────────────────────────────────────────────────────────────────────────

  double rod_first_frequency(const Rod &rod)
  {
    check(rod);
    return pi * rod.wave_speed / (2.0 * rod.length);
  }

  double rod_linear_mode_grazing_energy(const Rod &rod)
  {
    check(rod);
    // u = g sin(πx/2L) at rest: ½ EA ∫ u'² dx = ½ EA g² (π/2L)² L/2.
    return pi * pi * rod.EA * rod.gap * rod.gap / (16.0 * rod.length);
  }

  double rod_backbone_grazing_energy(const Rod &rod)
  {
    check(rod);
    return rod.EA * rod.gap * rod.gap / (2.0 * rod.length);
  }

  namespace
  {
    // f' on the line σ = ct ± x (x units): +B on [L − a, L), −B on [L, L + 2L), period 2L + a.
    double wave(const RodBackbonePoint &p, const double sigma)
    {
      const double L = p.rod.length, tau = 2.0 * L + p.a;
      const double r = sigma - (L - p.a) - tau * std::floor((sigma - (L - p.a)) / tau);
      return r < p.a ? p.strain_amplitude : -p.strain_amplitude;
    }

    // f itself (up to a constant, which cancels in u = f(s + x) − f(s − x)).
    double wave_primitive(const RodBackbonePoint &p, const double sigma)
    {
      const double L = p.rod.length, tau = 2.0 * L + p.a, B = p.strain_amplitude;
      const double k = std::floor((sigma - (L - p.a)) / tau);
      const double r = sigma - (L - p.a) - tau * k;
      const double within = r < p.a ? B * r : B * p.a - B * (r - p.a);
      return k * B * (p.a - 2.0 * L) + within;
    }

    RodBackbonePoint backbone_point(const Rod &rod, const double B, const double a)
    {
      RodBackbonePoint p;
      p.rod              = rod;
      p.a                = a;
      p.strain_amplitude = B;
      const double L = rod.length, c = rod.wave_speed;
      p.energy           = 2.0 * L * rod.EA * B * B; // EA ∫ (f'² over a window 2L)
      p.period           = (2.0 * L + a) / c;
      p.frequency        = 2.0 * pi / p.period;
      p.contact_duration = (2.0 * L - a) / c;
      p.contact_force    = p.contact_duration > 0.0 ? 2.0 * rod.EA * B : 0.0;
      // u(L) = 2B(a − L) at t = 0 (= g in contact), then falls for a/c and rises back.
      p.end_displacement_min = 2.0 * B * (a - L) - 2.0 * B * a;
      return p;
    }
  } // namespace

  double RodBackbonePoint::time_at_rest_apart() const
  {
    // The window [s − L, s + L] that u(·, s) reads is then exactly the −B piece [L, 3L).
    return 2.0 * rod.length / rod.wave_speed;
  }

  double RodBackbonePoint::time_at_rest_in_contact() const
  {
    // The window is centred on the +B piece [L − a, L): p(s + x) = p(s − x) for every x.
    return (rod.length - 0.5 * a) / rod.wave_speed;
  }

  double RodBackbonePoint::displacement(const double x, const double t) const
  {
    const double s = rod.wave_speed * t;
    return wave_primitive(*this, s + x) - wave_primitive(*this, s - x);
  }

  double RodBackbonePoint::velocity(const double x, const double t) const
  {
    const double s = rod.wave_speed * t;
    return rod.wave_speed * (wave(*this, s + x) - wave(*this, s - x));
  }

  double RodBackbonePoint::strain(const double x, const double t) const
  {
    const double s = rod.wave_speed * t;
    return wave(*this, s + x) + wave(*this, s - x);
  }

  RodBackbonePoint rod_first_nonsmooth_mode(const Rod &rod, const double energy)
  {
    check(rod);
    require_positive(energy, "rod energy");
    const double L = rod.length;
    const double B = std::sqrt(energy / (2.0 * L * rod.EA));
    const double graze = rod_backbone_grazing_energy(rod);
    // Above grazing a = L (1 + √(E_g/E)); below, the free motion (a = 2L, never in contact).
    const double a = energy >= graze ? L * (1.0 + std::sqrt(graze / energy)) : 2.0 * L;
    return backbone_point(rod, B, a);
  }

  RodBackbonePoint rod_first_nonsmooth_mode_at_frequency(const Rod &rod, const double omega)
  {
    check(rod);
    const double w1 = rod_first_frequency(rod);
    if (!(omega >= w1 && omega < 4.0 * w1 / 3.0))
      throw std::invalid_argument("closed forms: the rod's first nonsmooth mode has ω1 ≤ ω < 4ω1/3");
    const double L = rod.length;
    const double a = 2.0 * pi * rod.wave_speed / omega - 2.0 * L;
    return backbone_point(rod, rod.gap / (2.0 * (a - L)), a);
  }

  // ── Forced impact oscillator ───────────────────────────────────────────────────────────────

  namespace
  {
    // The oscillator's data in the form of the derivation: ωn, σ = ζωn, ωd, the particular
    // response x_p = A sin Ωt + B cos Ωt, and the free flow Φ(t) of y = x − x_p.
    struct OscillatorForm
    {
      double wn, sigma, wd, omega, A, B, f;

      OscillatorForm(const ImpactOscillator &osc, const double Omega)
        : wn(std::sqrt(osc.stiffness / osc.mass))
        , sigma(osc.damping_ratio * wn)
        , wd(wn * std::sqrt(1 - osc.damping_ratio * osc.damping_ratio))
        , omega(Omega)
        , f(osc.force / osc.mass)
      {
        const double d = std::pow(wn * wn - Omega * Omega, 2) + std::pow(2 * sigma * Omega, 2);
        A              = f * (wn * wn - Omega * Omega) / d;
        B              = -f * 2 * sigma * Omega / d;
      }
      Eigen::Matrix2d free_flow(const double t) const
      {
        const double e = std::exp(-sigma * t), c = std::cos(wd * t), s = std::sin(wd * t);
        Eigen::Matrix2d phi;
        phi << e * (c + sigma / wd * s), e * s / wd, -e * wn * wn / wd * s, e * (c - sigma / wd * s);
        return phi;
      }
      Eigen::Vector2d particular(const double t) const
      {
        const double p = omega * t;
        return {A * std::sin(p) + B * std::cos(p), omega * (A * std::cos(p) - B * std::sin(p))};
      }
      // α and β of the phase equation α (g − P) + β Q = 0 (P, Q: x_p and ẋ_p at the impact).
      std::pair<double, double> alpha_beta(const double e) const
      {
        const Eigen::Matrix2d phi = free_flow(2 * M_PI / omega);
        return {e * phi(0, 1) * phi(1, 0) - (1 + e * phi(1, 1)) * (phi(0, 0) - 1), phi(0, 1) * (1 + e)};
      }
    };

    // c1 sin φ + c2 cos φ + c0 = 0, the phase equation; its discriminant c1² + c2² − c0².
    Eigen::Vector3d phase_equation(const ImpactOscillator &osc, const OscillatorForm &form)
    {
      const auto [alpha, beta] = form.alpha_beta(osc.restitution);
      const double W           = form.omega;
      return {alpha * osc.gap, -alpha * form.A - beta * W * form.B, beta * W * form.A - alpha * form.B};
    }

    ForcedImpactOrbit orbit_at_phase(const ImpactOscillator &osc, const OscillatorForm &form, double phase)
    {
      ForcedImpactOrbit o;
      const double      T = 2 * M_PI / form.omega, e = osc.restitution, g = osc.gap;
      o.frequency         = form.omega;
      o.phase             = std::fmod(std::fmod(phase, 2 * M_PI) + 2 * M_PI, 2 * M_PI);
      const double          ti  = o.phase / form.omega;
      const Eigen::Vector2d pq  = form.particular(ti);
      const Eigen::Matrix2d phi = form.free_flow(T);
      o.impact_velocity = ((phi(0, 0) - 1) * (g - pq[0]) - phi(0, 1) * pq[1]) / (e * phi(0, 1));
      const Eigen::Vector2d y0(g - pq[0], -e * o.impact_velocity - pq[1]);
      o.state_at_zero = form.particular(0) + form.free_flow(T - ti) * y0;
      // Monodromy from just after an impact to just after the next: the saltation matrix of the
      // impact (the flow's acceleration before and after it) times Φ(T).
      const double    force = form.f * std::sin(o.phase) - form.wn * form.wn * g;
      const double    a_before = force - 2 * form.sigma * o.impact_velocity;
      const double    a_after  = force + 2 * form.sigma * e * o.impact_velocity;
      Eigen::Matrix2d saltation;
      saltation << -e, 0, (a_after + e * a_before) / o.impact_velocity, -e;
      o.multipliers = eigenpairs(saltation * phi, false).values;
      if (std::abs(o.multipliers[1]) > std::abs(o.multipliers[0]))
        std::swap(o.multipliers[0], o.multipliers[1]);
      o.stable = std::abs(o.multipliers[0]) <= 1;
      // Admissible: towards the stop at the impact, below it strictly inside the period.
      o.admissible = o.impact_velocity > 0;
      constexpr int n = 4000;
      double        largest = 0;
      for (int k = 1; k < n; ++k)
        {
          const double x = o.position(osc, ti + T * k / n);
          largest        = std::max(largest, std::abs(x));
          o.admissible   = o.admissible && x < g;
        }
      o.amplitude = std::max(largest, g);
      return o;
    }
  } // namespace

  double ForcedImpactOrbit::position(const ImpactOscillator &osc, const double t) const
  {
    const OscillatorForm  form(osc, frequency);
    const double          T  = 2 * M_PI / frequency, ti = phase / frequency;
    const Eigen::Vector2d pq = form.particular(ti);
    const Eigen::Vector2d y0(osc.gap - pq[0], -osc.restitution * impact_velocity - pq[1]);
    const double          since = std::fmod(std::fmod(t - ti, T) + T, T); // time since the last impact
    return form.particular(ti + since)[0] + (form.free_flow(since) * y0)[0];
  }

  std::vector<ForcedImpactOrbit> forced_one_impact_orbits(const ImpactOscillator &osc, const double omega)
  {
    const OscillatorForm  form(osc, omega);
    const Eigen::Vector3d c = phase_equation(osc, form);
    const double          R = std::hypot(c[1], c[2]);
    if (!(std::abs(c[0]) <= R))
      return {};
    // c1 sin φ + c2 cos φ = R sin(φ + ψ) = −c0.
    const double psi = std::atan2(c[2], c[1]), s = std::asin(-c[0] / R);
    return {orbit_at_phase(osc, form, s - psi), orbit_at_phase(osc, form, M_PI - s - psi)};
  }

  double forced_one_impact_fold(const ImpactOscillator &osc, const double omega_low, const double omega_high)
  {
    const auto discriminant = [&](const double omega) {
      const Eigen::Vector3d c = phase_equation(osc, OscillatorForm(osc, omega));
      return c[1] * c[1] + c[2] * c[2] - c[0] * c[0];
    };
    if (discriminant(omega_low) * discriminant(omega_high) > 0)
      throw std::invalid_argument("the frequency interval does not bracket a fold of the one-impact orbits");
    boost::math::tools::eps_tolerance<double> tolerance(50);
    std::uintmax_t                            iterations = 200;
    const auto root = boost::math::tools::toms748_solve(discriminant, omega_low, omega_high, tolerance, iterations);
    return 0.5 * (root.first + root.second);
  }

  double forced_linear_amplitude(const ImpactOscillator &osc, const double omega)
  {
    const OscillatorForm form(osc, omega);
    return std::hypot(form.A, form.B);
  }

  std::vector<double> forced_grazing_frequencies(const ImpactOscillator &osc)
  {
    // (ωn² − u)² + 4ζ²ωn² u = r², u = Ω², r = F/(m g): a quadratic in u.
    const double wn2 = osc.stiffness / osc.mass, r = osc.force / (osc.mass * osc.gap);
    const double b = (4 * osc.damping_ratio * osc.damping_ratio - 2) * wn2, c = wn2 * wn2 - r * r;
    const double disc = b * b - 4 * c;
    std::vector<double> omegas;
    if (disc < 0)
      return omegas;
    for (const double u : {(-b - std::sqrt(disc)) / 2, (-b + std::sqrt(disc)) / 2})
      if (u > 0)
        omegas.push_back(std::sqrt(u));
    return omegas;
  }
} // namespace vibroimpact::periodic
