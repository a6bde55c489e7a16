// The impact oscillator integrated without the event-driven map (classical Runge–Kutta, h = 1e-3,
// each arrival at the stop bisected inside its step): an independent check of the orbits the
// continuation finds (forced_response_test.cc, branch_switching_test.cc).
#pragma once

#include <vibroimpact/periodic/closed_forms.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace oscillator_integration
{
  using vibroimpact::periodic::ImpactOscillator;

  // (x, ẋ) after `time` from `state` at t0 by classical Runge–Kutta on m ẍ + c ẋ + k x = F sin Ωt,
  // stopping where x first reaches the gap (bisection on the last step): returns the time taken.
  inline double integrate_to_stop(const ImpactOscillator &o, const double omega, const double t0,
                                  Eigen::Vector2d &state, const double time)
  {
    const double c = 2 * o.damping_ratio * std::sqrt(o.stiffness * o.mass);
    const auto   rhs = [&](const double t, const Eigen::Vector2d &y) {
      return Eigen::Vector2d(y[1], (o.force * std::sin(omega * t) - c * y[1] - o.stiffness * y[0]) / o.mass);
    };
    const auto step = [&](const double t, const Eigen::Vector2d &y, const double h) {
      const Eigen::Vector2d k1 = rhs(t, y), k2 = rhs(t + h / 2, y + h / 2 * k1), k3 = rhs(t + h / 2, y + h / 2 * k2),
                            k4 = rhs(t + h, y + h * k3);
      return Eigen::Vector2d(y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4));
    };
    const double h = 1e-3;
    double       t = 0;
    while (t < time)
      {
        const double          dt   = std::min(h, time - t);
        const Eigen::Vector2d next = step(t0 + t, state, dt);
        if (next[0] >= o.gap && t > 0)
          {
            double lo = 0, hi = dt; // the crossing inside this step
            for (int k = 0; k < 60; ++k)
              {
                const double mid = 0.5 * (lo + hi);
                (step(t0 + t, state, mid)[0] < o.gap ? lo : hi) = mid;
              }
            state = step(t0 + t, state, hi);
            return t + hi;
          }
        state = next;
        t += dt;
      }
    return t;
  }

  // (x, ẋ) after `duration` from `state` at t = 0, each arrival at the stop reversing the velocity
  // by the restitution coefficient (Newton's law).
  inline Eigen::Vector2d simulate_with_impacts(const ImpactOscillator &o, const double omega, Eigen::Vector2d state,
                                               const double duration)
  {
    for (double t = 0; t < duration;)
      {
        t += integrate_to_stop(o, omega, t, state, duration - t);
        if (t < duration)
          state[1] *= -o.restitution;
      }
    return state;
  }
} // namespace oscillator_integration
