// A probe's amplitude over an orbit (continuation.h): the largest sample, refined between its
// neighbours by a golden-section search on the flow.
#include <vibroimpact/periodic/continuation.h>

#include <algorithm>
#include <cmath>

namespace vibroimpact::periodic
{
  namespace
  {
    std::size_t largest_sample_index(const Vector &row, const OrbitSamples &samples)
    {
      std::size_t best = 0;
      for (std::size_t k = 0; k < samples.time.size(); ++k)
        if (std::abs(row.dot(samples.displacement[k])) > std::abs(row.dot(samples.displacement[best])))
          best = k;
      return best;
    }
  } // namespace

  double largest_sample(const Vector &row, const OrbitSamples &samples)
  {
    return samples.time.empty() ? 0.0 : std::abs(row.dot(samples.displacement[largest_sample_index(row, samples)]));
  }

  double largest_displacement(const PeriodicFlowMap &flow, const Vector &x0, const double period, const Vector &row,
                              const OrbitSamples &samples)
  {
    const std::size_t n       = samples.time.size();
    const std::size_t best    = largest_sample_index(row, samples);
    const double      at_best = largest_sample(row, samples);
    if (n < 3)
      return at_best;
    const auto at = [&](const double t) {
      const double tau = std::fmod(std::fmod(t, period) + period, period);
      if (tau < 1e-14 * period)
        return std::abs(row.dot(samples.displacement.front()));
      return std::abs(row.dot(flow.sample(x0, tau, 1).displacement.back()));
    };
    const double dt = samples.time[1] - samples.time[0];
    double       a = samples.time[best] - dt, b = samples.time[best] + dt;
    const double r = 0.5 * (std::sqrt(5.0) - 1);
    double       c = b - r * (b - a), d = a + r * (b - a), fc = at(c), fd = at(d);
    while (b - a > 1e-10 * period)
      if (fc > fd)
        b = d, d = c, fd = fc, c = b - r * (b - a), fc = at(c);
      else
        a = c, c = d, fc = fd, d = a + r * (b - a), fd = at(d);
    return std::max({at_best, fc, fd});
  }
} // namespace vibroimpact::periodic
