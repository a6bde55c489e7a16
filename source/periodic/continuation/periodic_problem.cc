// The periodic problem of a case's method (periodic_problem.h), and an orbit sampled the way
// its method represents it.
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/periodic/periodic_problem.h>

#include "harmonic_balance_problem.h"
#include "shooting_problem.h"

#include <cmath>

namespace vibroimpact::periodic
{
  std::unique_ptr<PeriodicProblem> make_problem(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                                                const ContinuationSettings &settings, const Vector &x0,
                                                const double period, const double parameter_scale)
  {
    if (settings.method == PeriodicMethod::harmonic_balance)
      return std::make_unique<HarmonicBalanceProblem>(flow, forced_flow, settings, x0, period, parameter_scale);
    return std::make_unique<ShootingProblem>(flow, forced_flow, settings, x0, period, parameter_scale);
  }

  Eigen::Index periodic_unknowns(const PeriodicFlowMap &flow, const ContinuationSettings &settings, const bool free)
  {
    const Eigen::Index bordering = free ? 2 : 0;
    if (settings.method != PeriodicMethod::harmonic_balance)
      return flow.dimension() + bordering;
    const auto &linear = dynamic_cast<const LinearImpactFlow &>(flow);
    return linear.projection().contact_rows().rows() * (2 * Eigen::Index(settings.harmonics) + 1) + bordering;
  }

  OrbitSamples sample_orbit(PeriodicFlowMap &flow, const ContinuationSettings &settings, const BranchPoint &point,
                            const unsigned int n_samples)
  {
    if (flow.forced())
      flow.set_forcing_frequency(point.frequency);
    if (point.coefficients.size() == 0)
      return flow.sample(point.state, point.period, n_samples);
    // The Fourier series itself, mapped to every DoF.
    const auto  &linear = dynamic_cast<const LinearImpactFlow &>(flow);
    const auto   harmonics = static_cast<unsigned int>((point.coefficients.size() / linear.projection().contact_rows().rows() - 1) / 2);
    const HarmonicBalanceModel model(linear, harmonics, harmonic_balance_samples(settings));
    const double omega            = 2 * M_PI / point.period;
    const auto   forcing_harmonic = flow.forced() ? static_cast<unsigned int>(std::lround(point.frequency / omega)) : 0u;
    const ComplexMatrix Q = model.modal_harmonics(point.coefficients, omega, point.unfolding, forcing_harmonic);
    const Eigen::Index  m = model.modes();
    OrbitSamples        samples;
    for (unsigned int k = 0; k <= n_samples; ++k)
      {
        const double t = point.period * k / n_samples;
        const Vector x = model.state(Q, omega, t);
        samples.time.push_back(t);
        samples.displacement.push_back(linear.projection().shapes() * x.head(m));
        samples.velocity.push_back(linear.projection().shapes() * x.tail(m));
        samples.energy.push_back(flow.energy(x));
      }
    return samples;
  }
} // namespace vibroimpact::periodic
