// Shooting on a flow map (shooting_problem.h): the residual and its Jacobian in scaled unknowns,
// cached per iterate (LOCA and the locators ask for the same orbit several times), the record of
// a converged orbit, and the Floquet multipliers of its monodromy matrix.
#include "shooting_problem.h"

#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/periodic/eigenpairs.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vibroimpact::periodic
{
  std::vector<std::complex<double>> floquet_multipliers(const Matrix &monodromy, const unsigned int trivial)
  {
    const Eigen::VectorXcd            values = eigenpairs(monodromy, false).values;
    std::vector<std::complex<double>> mu(values.data(), values.data() + values.size());
    std::sort(mu.begin(), mu.end(), [](const auto &a, const auto &b) {
      return std::abs(a - 1.0) < std::abs(b - 1.0);
    });
    mu.erase(mu.begin(), mu.begin() + std::min<std::size_t>(trivial, mu.size()));
    std::sort(mu.begin(), mu.end(), [](const auto &a, const auto &b) { return std::abs(a) > std::abs(b); });
    return mu;
  }

  void count_contact_events(BranchPoint &p, const std::vector<ContactEvent> &events)
  {
    for (const auto &event : events)
      {
        p.impacts += event.kind == ContactEvent::Kind::impact ? 1 : 0;
        p.sticking_phases += event.kind == ContactEvent::Kind::sticking_start ? 1 : 0;
      }
  }

  ShootingProblem::ShootingProblem(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                                   const ContinuationSettings &settings, const Vector &x0, const double period,
                                   const double parameter_scale)
    : flow_(flow)
    , forced_flow_(forced_flow)
    , settings_(settings)
    , n_(flow.dimension())
    , free_(forced_flow == nullptr)
    , state_scale_(std::max(x0.norm(), 1e-300))
    , period_scale_(period)
    , parameter_scale_(parameter_scale)
    , initial_guess_(free_ ? n_ + 2 : n_)
  {
    initial_guess_.head(n_) = x0 / state_scale_;
    if (free_)
      {
        initial_guess_(n_)     = 1.0; // T / s_T
        initial_guess_(n_ + 1) = 0.0; // α
      }
    set_reference(x0);
  }

  Vector ShootingProblem::state(const Vector &X) const { return X.head(n_) * state_scale_; }

  double ShootingProblem::period(const Vector &X) const
  {
    return free_ ? X(n_) * period_scale_ : settings_.forcing_periods * 2 * M_PI / (parameter_ * parameter_scale_);
  }

  double ShootingProblem::alpha(const Vector &X) const { return free_ ? X(n_ + 1) / period_scale_ : 0.0; }

  void ShootingProblem::set_reference(const Vector &x)
  {
    reference_ = x;
    if (free_)
      {
        phase_direction_ = flow_.vector_field(x);
        phase_direction_ /= std::max(phase_direction_.norm(), 1e-300);
      }
  }

  // A family's period stays within a bounded factor of its start's; an iterate far outside is
  // Newton wandering (and a flow over 10⁵ periods would cost minutes). A flow that fails is
  // outside too.
  bool ShootingProblem::admits(const Vector &X, const double p)
  {
    parameter_                    = p;
    constexpr double period_range = 20.0;
    const double     T            = period(X);
    if (!(T > period_scale_ / period_range) || !(T < period_scale_ * period_range))
      return false;
    try
      {
        evaluate(X, false);
        return true;
      }
    catch (const std::runtime_error &)
      {
        return false;
      }
  }

  FlowResult ShootingProblem::run_flow(const Vector &x0, const double T, const double a, const bool jacobian) const
  {
    if (forced_flow_)
      forced_flow_->set_forcing_frequency(parameter_ * parameter_scale_);
    if (!jacobian || settings_.exact_jacobian)
      return flow_.flow(x0, T, a, jacobian);
    // Finite differences of the flow map, column by column (the seed's method).
    FlowResult   base = flow_.flow(x0, T, a, false);
    const double step = 1e-7 * state_scale_;
    base.jacobian.resize(n_, n_);
    for (Eigen::Index k = 0; k < n_; ++k)
      {
        Vector x = x0;
        x[k] += step;
        base.jacobian.col(k) = (flow_.flow(x, T, a, false).x - base.x) / step;
      }
    base.evaluations += n_;
    if (free_)
      {
        const double dT = 1e-7 * period_scale_, da = 1e-7 / period_scale_;
        base.d_period    = (flow_.flow(x0, T + dT, a, false).x - base.x) / dT;
        base.d_unfolding = (flow_.flow(x0, T, a + da, false).x - base.x) / da;
        base.evaluations += 2;
      }
    return base;
  }

  const ShootingProblem::Evaluation &ShootingProblem::evaluate(const Vector &X, const bool jacobian)
  {
    const std::vector<double> key(X.data(), X.data() + X.size());
    if (cache_.holds(key, parameter_, jacobian))
      return cache_;

    // One flow evaluation is the longest step between two checks (the branch so far stays).
    io::throw_if_interrupted("during the continuation");
    const Vector x0 = state(X);
    const double T  = period(X);
    const double a  = alpha(X);
    // Ask for the Jacobian whenever it is cheap to have: Newton needs it next.
    const bool want_jacobian = jacobian || settings_.exact_jacobian;
    cache_.flow              = run_flow(x0, T, a, want_jacobian);
    evaluations_ += cache_.flow.evaluations;
    cache_.key          = key;
    cache_.parameter    = parameter_;
    cache_.has_jacobian = want_jacobian;

    const Eigen::Index rows = size();
    cache_.residual.resize(rows);
    cache_.residual.head(n_) = (cache_.flow.x - x0) / state_scale_;
    if (free_)
      {
        cache_.residual[n_]     = phase_direction_.dot(x0 - reference_) / state_scale_;
        cache_.residual[n_ + 1] = (flow_.energy(x0) - parameter_ * parameter_scale_) / parameter_scale_;
      }
    if (want_jacobian)
      {
        cache_.jacobian.setZero(rows, rows);
        cache_.jacobian.topLeftCorner(n_, n_) = cache_.flow.jacobian - Matrix::Identity(n_, n_);
        if (free_)
          add_bordering(x0);
      }
    return cache_;
  }

  // A free family's columns for T and α and rows for the phase and the energy.
  void ShootingProblem::add_bordering(const Vector &x0)
  {
    Matrix &J                 = cache_.jacobian;
    J.block(0, n_, n_, 1)     = cache_.flow.d_period * period_scale_ / state_scale_;
    J.block(0, n_ + 1, n_, 1) = cache_.flow.d_unfolding / (period_scale_ * state_scale_);
    J.block(n_, 0, 1, n_)     = phase_direction_.transpose();
    // ∇H by central differences: exact for a quadratic energy up to round-off.
    const double h = 1e-3 * state_scale_;
    for (Eigen::Index k = 0; k < n_; ++k)
      {
        Vector xp = x0, xm = x0;
        xp[k] += h;
        xm[k] -= h;
        J(n_ + 1, k) = (flow_.energy(xp) - flow_.energy(xm)) / (2 * h) * state_scale_ / parameter_scale_;
      }
  }

  std::pair<Vector, Matrix> ShootingProblem::residual(const Vector &X, const double p, const bool with_jacobian)
  {
    parameter_          = p;
    const Evaluation &e = evaluate(X, with_jacobian);
    return {e.residual, with_jacobian ? e.jacobian : Matrix()};
  }

  Matrix ShootingProblem::monodromy_minus_identity(const Matrix &jacobian) const
  {
    return jacobian.topLeftCorner(n_, n_);
  }

  // A forced orbit over an even number of forcing periods that returns after half of them
  // (to 1e-4 of its size).
  bool ShootingProblem::of_lower_period(const BranchPoint &orbit)
  {
    if (free_ || settings_.forcing_periods % 2 != 0)
      return false;
    forced_flow_->set_forcing_frequency(orbit.frequency);
    const FlowResult half = flow_.flow(orbit.state, orbit.period / 2, 0.0, false);
    ++evaluations_;
    return (half.x - orbit.state).norm() < 1e-4 * std::max(orbit.state.norm(), 1e-300);
  }

  std::optional<OrbitSignature> ShootingProblem::last_evaluated() const
  {
    if (cache_.key.empty())
      return std::nullopt;
    OrbitSignature signature;
    signature.period    = free_ ? cache_.key[n_] * period_scale_
                                : settings_.forcing_periods * 2 * M_PI / (cache_.parameter * parameter_scale_);
    signature.parameter = cache_.parameter * parameter_scale_;
    BranchPoint counts;
    count_contact_events(counts, cache_.flow.events);
    signature.impacts         = counts.impacts;
    signature.sticking_phases = counts.sticking_phases;
    if (!free_ && settings_.forcing_periods % 2 == 0)
      {
        const Vector x0 = state(cache_.unknowns());
        forced_flow_->set_forcing_frequency(signature.parameter);
        const FlowResult half      = flow_.flow(x0, signature.period / 2, 0.0, false);
        signature.of_lower_period  = (half.x - x0).norm() < 1e-4 * std::max(x0.norm(), 1e-300);
      }
    return signature;
  }

  BranchPoint ShootingProblem::orbit(const Vector &X, const double p)
  {
    parameter_      = p;
    const Vector x0 = state(X);
    const double T  = period(X);
    if (forced_flow_)
      forced_flow_->set_forcing_frequency(parameter_ * parameter_scale_);
    const FlowResult result = flow_.flow(x0, T, alpha(X), true);
    ++evaluations_;

    BranchPoint point;
    point.state     = x0;
    point.period    = T;
    point.frequency = (free_ ? 1 : settings_.forcing_periods) * 2 * M_PI / T; // a forced orbit's: the forcing's
    point.energy    = flow_.energy(x0);
    point.unfolding = alpha(X);
    point.residual  = (result.x - x0).norm() / std::max(x0.norm(), 1e-300);
    count_contact_events(point, result.events);
    point.min_gap             = result.min_gap;
    point.min_impact_velocity = result.min_impact_velocity;
    point.max_penetration     = result.max_penetration;
    point.grazing_gap         = result.grazing_gap;
    point.multipliers         = floquet_multipliers(result.jacobian, free_ ? 2 : 0);
    point.max_multiplier      = 0.0;
    for (const auto &mu : point.multipliers)
      point.max_multiplier = std::max(point.max_multiplier, std::abs(mu));
    point.stable = point.max_multiplier <= 1.0 + settings_.stability_tolerance;
    // Grazing: an impact at vanishing velocity, or a gap closing without an impact.
    const double velocity_scale = std::max(result.x.tail(n_ / 2).norm(), 1e-300);
    // Time steppers penetrate by O(h²): a hundredth of the largest displacement is allowed.
    const double length_scale = std::max(x0.head(n_ / 2).lpNorm<Eigen::Infinity>(), 1e-300);
    point.admissible = point.max_penetration <= 1e-2 * length_scale && !(point.grazing_gap < 1e-6 * length_scale) &&
                       (point.impacts == 0 || point.min_impact_velocity > 1e-6 * velocity_scale);
    return point;
  }

  Vector ShootingProblem::unknowns(const BranchPoint &point) const
  {
    Vector X(size());
    X.head(n_) = point.state / state_scale_;
    if (free_)
      {
        X(n_)     = point.period / period_scale_;
        X(n_ + 1) = point.unfolding * period_scale_;
      }
    return X;
  }

  double ShootingProblem::parameter(const BranchPoint &point) const
  {
    return (free_ ? point.energy : point.frequency) / parameter_scale_;
  }
} // namespace vibroimpact::periodic
