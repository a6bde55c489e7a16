#include <vibroimpact/model/structural_model.h>

#include <cmath>

namespace vibroimpact::model
{
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
    return 0.5 * u.dot(stiffness * u);
  }
} // namespace vibroimpact::model
