// The time functions of the loads: constant, harmonic, and band-limited random (a sum of equal
// lines with seeded phases, one period sampled by inverse FFT for fast evaluation).
#include "assembly.h"

#include <vibroimpact/model/non_reentrant.h>

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <new>
#include <random>

namespace vibroimpact::structure
{
  namespace
  {
    // The inverse real FFT of M points, planned once per M for the process: planning computes
    // M twiddle factors, again for every load before (examples/antunes_one_support has 19 loads
    // of 4096 lines: its fuzz suite, ~800 model builds, 8.0 s -> 6.7 s). FFTW_ESTIMATE plans of one
    // size are the same plan, so the samples do not depend on which load came first. The plan
    // works on its own arrays; callers hold fftw_planner_mutex() while they use it.
    struct InverseTransform
    {
      fftw_complex *spectrum = nullptr; // M/2 + 1 lines
      double       *signal   = nullptr; // M samples
      fftw_plan     plan     = nullptr;
    };

    const InverseTransform &inverse_transform(const long M)
    {
      // Kept until the process ends: one entry per size in use, 24 M bytes each (1.5 MB for the
      // examples' 65536 points).
      static std::map<long, InverseTransform> transforms;
      auto [at, added] = transforms.try_emplace(M);
      if (added)
        {
          at->second.spectrum = fftw_alloc_complex(M / 2 + 1);
          at->second.signal   = fftw_alloc_real(M);
          at->second.plan =
            fftw_plan_dft_c2r_1d(static_cast<int>(M), at->second.spectrum, at->second.signal, FFTW_ESTIMATE);
          if (!at->second.spectrum || !at->second.signal || !at->second.plan)
            {
              if (at->second.plan)
                fftw_destroy_plan(at->second.plan);
              fftw_free(at->second.spectrum);
              fftw_free(at->second.signal);
              transforms.erase(at);
              throw std::bad_alloc();
            }
        }
      return at->second;
    }

    // One period 2π/Δω of Σ_k a cos((k0 + k) Δω t + φ_k), k = 1..N, and its derivative, sampled by
    // inverse real FFTs at M ≥ 16 (k0 + N) points (a power of two): 16 samples a period of the
    // highest line keep the Hermite interpolation error below 1e-4 of a line's amplitude.
    model::SampledPeriod sample_period(const long k0, const std::vector<double> &phases, const double step,
                                       const double amplitude)
    {
      const long top = k0 + static_cast<long>(phases.size());
      long       M   = 64;
      while (M < 16 * top)
        M *= 2;
      model::SampledPeriod period;
      period.interval = 2 * M_PI / step / M;
      const std::lock_guard<std::mutex> planner(model::fftw_planner_mutex()); // the plan and its arrays are shared
      const InverseTransform           &transform = inverse_transform(M);
      for (const bool derivative : {false, true})
        {
          // c2r: x_j = Σ_k X_k e^{2πi jk/M} over the Hermitian spectrum, so X_k = (a/2) e^{iφ}
          // gives a cos(2π jk/M + φ); the derivative multiplies by i k Δω. c2r overwrites its
          // input, so the spectrum is refilled each time.
          std::fill_n(&transform.spectrum[0][0], 2 * (M / 2 + 1), 0.0);
          for (std::size_t k = 0; k < phases.size(); ++k)
            {
              const double w = (k0 + 1 + static_cast<long>(k)) * step;
              const double c = 0.5 * amplitude * std::cos(phases[k]), d = 0.5 * amplitude * std::sin(phases[k]);
              auto        &X = transform.spectrum[k0 + 1 + k];
              X[0]           = derivative ? -w * d : c;
              X[1]           = derivative ? w * c : d;
            }
          fftw_execute(transform.plan);
          (derivative ? period.slopes : period.values).assign(transform.signal, transform.signal + M);
        }
      return period;
    }
  } // namespace

  model::TimeFunction time_function(const LoadDescription &load)
  {
    model::TimeFunction f;
    f.amplitude = load.amplitude;
    switch (load.time)
      {
        case TimeDependence::constant:
          f.kind = model::TimeFunction::Kind::constant;
          break;
        case TimeDependence::harmonic:
          f.kind  = model::TimeFunction::Kind::harmonic;
          f.omega = load.omega;
          f.phase = load.phase;
          break;
        case TimeDependence::random:
          {
            // N lines k Δω (Δω = band / N, k = k0+1 .. k0+N, k0 = round(low/Δω)) of equal
            // amplitude, phases from the seed: a flat one-sided PSD RMS² / band, periodic in
            // 2π/Δω. The phase is made from the generator's raw bits so the same seed gives
            // the same load with any standard library.
            f.kind = model::TimeFunction::Kind::random;
            std::mt19937_64    generator(load.seed);
            const double       step = (load.band_high - load.band_low) / load.n_harmonics;
            const long         k0   = std::lround(load.band_low / step);
            for (unsigned int k = 1; k <= load.n_harmonics; ++k)
              {
                f.omegas.push_back((k0 + k) * step);
                f.phases.push_back(2 * M_PI * static_cast<double>(generator() >> 11) * 0x1.0p-53);
              }
            f.samples = std::make_shared<const model::SampledPeriod>(
              sample_period(k0, f.phases, step, load.amplitude * std::sqrt(2.0 / load.n_harmonics)));
            break;
          }
      }
    return f;
  }
} // namespace vibroimpact::structure
