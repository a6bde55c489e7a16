// The seam every solver reads (see model/structural_model.h): load time functions, the load and
// damping force at a time, the kinetic and potential energies.
#include <vibroimpact/model/structural_model.h>

#include <algorithm>
#include <cmath>

namespace vibroimpact::model
{
  double SampledPeriod::value(const double t) const
  {
    const auto   n = static_cast<long>(values.size());
    const double s = t / interval, floor = std::floor(s), x = s - floor;
    long         i = static_cast<long>(std::fmod(floor, double(n)));
    if (i < 0)
      i += n;
    const long j = i + 1 == n ? 0 : i + 1;
    // Cubic Hermite on [i, j] in the unit variable x.
    const double x2 = x * x, x3 = x2 * x;
    return (2 * x3 - 3 * x2 + 1) * values[i] + (x3 - 2 * x2 + x) * interval * slopes[i] +
           (-2 * x3 + 3 * x2) * values[j] + (x3 - x2) * interval * slopes[j];
  }

  double TimeFunction::highest_frequency() const
  {
    switch (kind)
      {
        case Kind::harmonic:
          return omega;
        case Kind::random:
          return omegas.empty() ? 0.0 : *std::max_element(omegas.begin(), omegas.end());
        default:
          return 0.0;
      }
  }

  double TimeFunction::value(const double t) const
  {
    switch (kind)
      {
        case Kind::constant:
          return amplitude;
        case Kind::harmonic:
          return amplitude * std::sin(omega * t + phase);
        case Kind::random:
          {
            if (samples)
              return samples->value(t);
            double sum = 0.0;
            for (std::size_t k = 0; k < omegas.size(); ++k)
              sum += std::cos(omegas[k] * t + phases[k]);
            return omegas.empty() ? 0.0 :
                                    amplitude * std::sqrt(2.0 / omegas.size()) * sum;
          }
      }
    return 0.0;
  }

  Vector LowRankDamping::apply(const Vector &v) const
  {
    if (empty())
      return Vector::Zero(v.size());
    return basis * (coefficients.asDiagonal() * (basis.transpose() * v));
  }

  Vector StructuralModel::load(const double t) const
  {
    Vector f = Vector::Zero(n_dofs());
    for (const auto &term : loads)
      f += term.time.value(t) * term.spatial;
    return f;
  }

  Vector StructuralModel::damping_force(const Vector &v) const
  {
    Vector force = damping * v;
    if (!modal_damping.empty())
      force += modal_damping.apply(v);
    return force;
  }

  double StructuralModel::kinetic_energy(const Vector &v) const
  {
    return 0.5 * v.dot(mass * v);
  }

  double StructuralModel::potential_energy(const Vector &u) const
  {
    double springs = 0.0;
    for (const auto &c : contacts)
      if (c.elastic())
        springs += c.spring_energy(c.gap0 + c.row.dot(u));
    return 0.5 * u.dot(stiffness * u) + springs;
  }

  bool has_elastic_contacts(const std::vector<Contact> &contacts)
  {
    return std::any_of(contacts.begin(), contacts.end(), [](const Contact &c) { return c.elastic(); });
  }
} // namespace vibroimpact::model
