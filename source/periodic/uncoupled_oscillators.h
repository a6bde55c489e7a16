// Closed forms of uncoupled damped oscillators p̈ + c_j ṗ + λ_j p = 0: the transition of each
// over a time τ and its derivative in the damping. Both flows of the event-driven map use them:
// free flight in modal coordinates, and every closed set of massless contact nodes.
#pragma once

#include <vibroimpact/periodic/flow_map.h>

namespace vibroimpact::periodic
{
  // The transition [[a, b], [c, d]] of p̈ + c_j ṗ + λ_j p = 0 over τ for every oscillator j
  // (c_j = its own damping + α), and with `derivative` its ∂/∂α = ½ ∂/∂μ (μ = c_j/2,
  // ω² = λ − μ², ∂ω/∂μ = −μ/ω).
  struct Transitions
  {
    Vector a, b, c, d, da, db, dc, dd;
  };

  bool underdamped(const Vector &lambda, const Vector &damping);

  // Throws std::runtime_error where a damping overdamps an oscillator.
  Transitions transitions(const Vector &lambda, const Vector &damping, double tau, bool derivative);
} // namespace vibroimpact::periodic
