// Closed forms of uncoupled damped oscillators p̈ + c_j ṗ + λ_j p = 0: the transition of each
// over a time τ and its derivative in the damping. Both flows of the event-driven map use them:
// free flight in modal coordinates, and every closed set of massless contact nodes.
#pragma once

#include <vibroimpact/periodic/flow_map.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace vibroimpact::periodic
{
  // The transition [[a, b], [c, d]] of p̈ + c_j ṗ + λ_j p = 0 over τ for every oscillator j
  // (c_j = its own damping + α), and with `derivative` its ∂/∂α = ½ ∂/∂μ (μ = c_j/2,
  // ω² = λ − μ², ∂ω/∂μ = −μ/ω).
  struct Transitions
  {
    Vector a, b, c, d, da, db, dc, dd;
  };

  inline bool underdamped(const Vector &lambda, const Vector &damping)
  {
    return (lambda - 0.25 * damping.cwiseAbs2()).minCoeff() > 0;
  }

  // Throws std::runtime_error where a damping overdamps an oscillator. (Inline: the scans call it
  // at every step and root-search evaluation, with a constant `derivative`.)
  inline Transitions transitions(const Vector &lambda, const Vector &damping, const double tau, const bool derivative)
  {
    const Eigen::Index n = lambda.size();
    Transitions        t;
    t.a.resize(n), t.b.resize(n), t.c.resize(n), t.d.resize(n);
    if (derivative)
      t.da.resize(n), t.db.resize(n), t.dc.resize(n), t.dd.resize(n);
    for (Eigen::Index j = 0; j < n; ++j)
      {
        const double mu = 0.5 * damping[j];
        const double w2 = lambda[j] - mu * mu;
        if (!(w2 > 0))
          throw std::runtime_error("the unfolding damping " + std::to_string(damping[j]) +
                                   " overdamps an oscillator (Newton far from any orbit)");
        const double w = std::sqrt(w2), e = std::exp(-mu * tau);
        const double C = std::cos(w * tau), S = std::sin(w * tau), sw = S / w;
        t.a[j] = e * (C + mu * sw);
        t.b[j] = e * sw;
        t.c[j] = -lambda[j] * e * sw;
        t.d[j] = e * (C - mu * sw);
        if (!derivative)
          continue;
        const double d_sw = (sw * mu / w - C * mu * tau / w) / w; // ∂(S/ω)/∂μ
        const double d_C  = S * mu * tau / w;
        t.da[j] = 0.5 * (-tau * t.a[j] + e * (d_C + sw + mu * d_sw));
        t.db[j] = 0.5 * (-tau * t.b[j] + e * d_sw);
        t.dc[j] = 0.5 * (-tau * t.c[j] - lambda[j] * e * d_sw);
        t.dd[j] = 0.5 * (-tau * t.d[j] + e * (d_C - sw - mu * d_sw));
      }
    return t;
  }
} // namespace vibroimpact::periodic
