// What model the wave-mode reference represents (wave_mode_solver.cc): which continuum bodies
// are the cantilever and the rod and how their contact and the tip load sit on them (inspect:
// every mismatch is a one-line io::InputError), and the tip force's time function.
#pragma once

#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/reference/wave_mode_solver.h>

#include <cmath>
#include <string>
#include <vector>

namespace vibroimpact::reference::wave_modes
{
  // Which continuum bodies are the beam and the rod, and how the contact and the tip load sit on
  // them. Filled by inspect(); every mismatch is an io::InputError.
  struct Layout
  {
    int         beam = -1, rod = -1;
    double      side = 1.0; // g = gap0 + side (y(L) − u(l))
    double      gap0 = 0.0;
    BeamRodData data;
  };

  Layout inspect(const model::StructuralModel &m, const std::string &file);

  // F(t) = constant + Σ A_k sin(Ω_k t + φ_k): every load of the model (all at the beam tip).
  struct TipForce
  {
    double              constant = 0.0;
    std::vector<double> amplitude, omega, phase;

    explicit TipForce(const model::StructuralModel &m)
    {
      for (const auto &load : m.loads)
        {
          const auto &f = load.time;
          switch (f.kind)
            {
              case model::TimeFunction::Kind::constant:
                constant += f.amplitude;
                break;
              case model::TimeFunction::Kind::harmonic:
                add(f.amplitude, f.omega, f.phase);
                break;
              case model::TimeFunction::Kind::random:
                for (std::size_t k = 0; k < f.omegas.size(); ++k) // cos x = sin(x + π/2)
                  add(f.amplitude * std::sqrt(2.0 / f.omegas.size()), f.omegas[k], f.phases[k] + M_PI / 2);
                break;
            }
        }
    }
    void add(double a, double w, double p)
    {
      if (w == 0.0)
        constant += a * std::sin(p);
      else
        amplitude.push_back(a), omega.push_back(w), phase.push_back(p);
    }
    bool   acts() const { return constant != 0.0 || !amplitude.empty(); }
    double value(double t) const
    {
      double f = constant;
      for (std::size_t k = 0; k < omega.size(); ++k)
        f += amplitude[k] * std::sin(omega[k] * t + phase[k]);
      return f;
    }
    double rate(double t) const
    {
      double f = 0.0;
      for (std::size_t k = 0; k < omega.size(); ++k)
        f += amplitude[k] * omega[k] * std::cos(omega[k] * t + phase[k]);
      return f;
    }
    double integral(double a, double b) const
    {
      double f = constant * (b - a);
      for (std::size_t k = 0; k < omega.size(); ++k)
        f -= amplitude[k] / omega[k] * (std::cos(omega[k] * b + phase[k]) - std::cos(omega[k] * a + phase[k]));
      return f;
    }
  };
} // namespace vibroimpact::reference::wave_modes
