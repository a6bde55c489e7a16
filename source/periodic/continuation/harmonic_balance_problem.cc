// Harmonic balance as a periodic problem (harmonic_balance_problem.h): scaled unknowns, the free
// families' phase and energy rows, the record of a converged orbit.
#include "harmonic_balance_problem.h"

#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/periodic/eigenpairs.h>
#include <vibroimpact/periodic/linear_impact_flow.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vibroimpact::periodic
{
  namespace
  {
    const LinearImpactFlow &linear_model_of(const PeriodicFlowMap &flow)
    {
      const auto *linear = dynamic_cast<const LinearImpactFlow *>(&flow);
      if (linear == nullptr)
        throw std::invalid_argument("Continuation/Method: harmonic balance condenses the event-driven map's linear "
                                    "model (Flow map = event-driven), not the " + flow.name() + " map");
      const auto &k = linear->projection().contact_stiffness();
      if (k.size() == 0 || !(k.minCoeff() > 0))
        throw std::invalid_argument("Continuation/Method: harmonic balance needs a force law at every contact (an "
                                    "elastic contact, Contact <name>/Stiffness > 0); rigid contacts and impact laws "
                                    "are shooting's");
      return *linear;
    }


    // A free family's non-trivial multipliers. Its monodromy has a Jordan block at 1 (the flow's
    // direction and the energy's), which a truncated orbit splits by the square root of its error
    // into 1 ± δ (δ ~ 1e-2 on the beam at H = 31), farther from 1 than a high mode's multiplier
    // e^{iω_m T} may be: the pair whose eigenvectors lie along the flow, f(x0), is the trivial one,
    // not the two multipliers nearest 1 (shooting's rule, right for exact orbits).
    std::vector<std::complex<double>> nontrivial_multipliers(const Matrix &monodromy, const Vector &flow_direction)
    {
      const Eigenpairs   eigen = eigenpairs(monodromy, true);
      const Eigen::Index n     = monodromy.rows();
      std::vector<std::pair<double, Eigen::Index>> alignment;
      const Eigen::VectorXcd f = flow_direction.normalized().cast<std::complex<double>>();
      for (Eigen::Index i = 0; i < n; ++i)
        alignment.emplace_back(-std::abs(f.dot(eigen.vectors.col(i).normalized())), i);
      std::sort(alignment.begin(), alignment.end());
      std::vector<std::complex<double>> mu;
      for (std::size_t k = 2; k < alignment.size(); ++k)
        mu.push_back(eigen.values[alignment[k].second]);
      std::sort(mu.begin(), mu.end(), [](const auto &a, const auto &b) { return std::abs(a) > std::abs(b); });
      return mu;
    }
  } // namespace

  unsigned int harmonic_balance_samples(const ContinuationSettings &s)
  {
    if (s.samples_per_period > 0)
      return s.samples_per_period;
    unsigned int n = 64;
    while (n < 8 * s.harmonics)
      n *= 2;
    return n;
  }

  HarmonicBalanceProblem::HarmonicBalanceProblem(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                                                 const ContinuationSettings &settings, const Vector &x0,
                                                 const double period, const double parameter_scale)
    : flow_(flow)
    , forced_flow_(forced_flow)
    , settings_(settings)
    , model_(linear_model_of(flow), settings.harmonics, harmonic_balance_samples(settings))
    , n_(model_.size())
    , free_(forced_flow == nullptr)
    , forcing_harmonic_(free_ ? 0 : settings.forcing_periods)
    , parameter_scale_(parameter_scale)
  {
    omega_scale_ = free_ ? 2 * M_PI / period : parameter_scale / settings.forcing_periods;
    if (forced_flow_)
      forced_flow_->set_forcing_frequency(parameter_scale);
    // A damped free family (the extended periodic motion concept): κ cancels the damping of the
    // family's mode, and the guess is that mode's orbit with its damping cancelled (α = −κ).
    const auto  &projection = linear_model_of(flow).projection();
    const double kappa0     = free_ ? projection.damping()[std::min<Eigen::Index>(settings.mode, projection.size()) - 1] : 0.0;
    const Vector Y0         = x0.size() > 0 && x0.norm() > 0 ? sampled_coefficients(x0, period, kappa0)
                                                             : Vector(Vector::Zero(n_));
    state_scale_    = std::max({Y0.lpNorm<Eigen::Infinity>(),
                                 linear_model_of(flow).projection().gap0().lpNorm<Eigen::Infinity>(), 1e-12});
    initial_guess_.resize(size());
    initial_guess_.head(n_) = Y0 / state_scale_;
    if (free_)
      initial_guess_.tail(2) << 1.0, kappa0 / omega_scale_;
    reference_ = Y0;
  }

  double HarmonicBalanceProblem::omega(const Vector &X) const
  {
    return free_ ? X(n_) * omega_scale_ : parameter_ * parameter_scale_ / settings_.forcing_periods;
  }

  Vector HarmonicBalanceProblem::sampled_coefficients(const Vector &x0, const double T, const double kappa) const
  {
    const auto        &linear = linear_model_of(flow_);
    const auto        &B      = linear.projection().contact_rows();
    const unsigned int N      = model_.fourier().samples();
    Matrix             y(N, model_.contacts());
    if (kappa == 0.0)
      {
        const OrbitSamples samples = flow_.sample(x0, T, N);
        for (unsigned int s = 0; s < N; ++s)
          y.row(s) = (B * linear.modal_state(samples.displacement[s], samples.velocity[s]).head(model_.modes())).transpose();
      }
    else // the flow with the unfolding α = −κ, one flow a sample
      for (unsigned int s = 0; s < N; ++s)
        y.row(s) = (B * flow_.flow(x0, T * s / N, -kappa, false).x.head(model_.modes())).transpose();
    const Matrix Y = model_.fourier().to_frequency(y);
    return Eigen::Map<const Vector>(Y.data(), Y.size());
  }

  double HarmonicBalanceProblem::energy(const Vector &X) const
  {
    const Vector Y = coefficients(X);
    const double w = omega(X);
    return flow_.energy(model_.state(model_.modal_harmonics(Y, w, kappa(X), forcing_harmonic_), w, 0.0));
  }

  bool HarmonicBalanceProblem::admits(const Vector &X, const double p)
  {
    parameter_ = p;
    if (!X.allFinite() || !(omega(X) > omega_scale_ / 20) || !(omega(X) < omega_scale_ * 20))
      return false;
    try
      {
        return evaluate(X, false).residual.allFinite();
      }
    catch (const std::runtime_error &)
      {
        return false;
      }
  }

  const HarmonicBalanceProblem::Evaluation &HarmonicBalanceProblem::evaluate(const Vector &X, const bool jacobian)
  {
    const std::vector<double> key(X.data(), X.data() + X.size());
    if (cache_.holds(key, parameter_, jacobian))
      return cache_;
    io::throw_if_interrupted("during the continuation");
    const auto r = model_.residual(coefficients(X), omega(X), kappa(X), forcing_harmonic_, jacobian);
    ++evaluations_;
    cache_.key          = key;
    cache_.parameter    = parameter_;
    cache_.has_jacobian = jacobian;
    cache_.closings     = r.closings;
    cache_.residual.resize(size());
    cache_.residual.head(n_) = r.r / state_scale_;
    if (jacobian)
      {
        cache_.jacobian.setZero(size(), size());
        cache_.jacobian.topLeftCorner(n_, n_) = r.d_Y;
      }
    if (free_)
      add_free_rows(X, r);
    return cache_;
  }

  // The columns of ω and κ, and the rows of the phase and the energy.
  void HarmonicBalanceProblem::add_free_rows(const Vector &X, const HarmonicBalanceModel::Residual &r)
  {
    // Phase: the orbit's harmonics orthogonal to the reference's time derivative.
    const Eigen::Index nh = model_.fourier().coefficients();
    Vector             phase = Vector::Zero(n_);
    for (Eigen::Index i = 0; i < model_.contacts(); ++i)
      for (Eigen::Index j = 1; j <= (nh - 1) / 2; ++j)
        {
          phase[i * nh + 2 * j - 1] = double(j) * reference_[i * nh + 2 * j];
          phase[i * nh + 2 * j]     = -double(j) * reference_[i * nh + 2 * j - 1];
        }
    phase /= std::max(reference_.norm(), 1e-300);
    cache_.residual[n_]     = phase.dot(X.head(n_));
    cache_.residual[n_ + 1] = (energy(X) - parameter_ * parameter_scale_) / parameter_scale_;
    if (!cache_.has_jacobian)
      return;
    Matrix &J              = cache_.jacobian;
    J.block(0, n_, n_, 1)     = r.d_omega * omega_scale_ / state_scale_;
    J.block(0, n_ + 1, n_, 1) = r.d_kappa * omega_scale_ / state_scale_;
    J.block(n_, 0, 1, n_)     = phase.transpose();
    // ∇E by central differences (the energy is a smooth function of the harmonics).
    for (Eigen::Index k = 0; k < size(); ++k)
      {
        const double h  = 1e-6 * std::max(1.0, std::abs(X[k]));
        Vector       Xp = X, Xm = X;
        Xp[k] += h;
        Xm[k] -= h;
        J(n_ + 1, k) = (energy(Xp) - energy(Xm)) / (2 * h * parameter_scale_);
      }
  }

  std::pair<Vector, Matrix> HarmonicBalanceProblem::residual(const Vector &X, const double p, const bool with_jacobian)
  {
    parameter_          = p;
    const Evaluation &e = evaluate(X, with_jacobian);
    return {e.residual, with_jacobian ? e.jacobian : Matrix()};
  }

  // The monodromy of the reconstructed orbit (X, p), remembered for the last few orbits (the
  // locators ask again for a bracket's two ends while they evaluate others).
  Matrix HarmonicBalanceProblem::monodromy_minus_identity(const Vector &X, const double p, const Matrix &) const
  {
    const std::vector<double> key(X.data(), X.data() + X.size());
    for (const auto &known : monodromies_)
      if (known.key == key && known.parameter == p)
        return known.monodromy_minus_identity;
    const double w = free_ ? X(n_) * omega_scale_ : p * parameter_scale_ / settings_.forcing_periods;
    Matrix       M = model_.monodromy(coefficients(X), w);
    M -= Matrix::Identity(M.rows(), M.cols());
    constexpr std::size_t remembered = 16;
    if (monodromies_.size() == remembered)
      monodromies_.pop_front();
    monodromies_.push_back({key, p, M});
    return M;
  }

  BranchPoint HarmonicBalanceProblem::orbit(const Vector &X, const double p)
  {
    parameter_          = p;
    const Evaluation &e = evaluate(X, false);
    const Vector      Y = coefficients(X);
    const double      w = omega(X);
    BranchPoint       point;
    point.coefficients = Y;
    point.state        = model_.state(model_.modal_harmonics(Y, w, kappa(X), forcing_harmonic_), w, 0.0);
    point.period       = 2 * M_PI / w;
    point.frequency    = free_ ? w : w * settings_.forcing_periods;
    point.energy       = flow_.energy(point.state);
    point.unfolding    = kappa(X);
    point.residual     = e.residual.head(n_).norm() * state_scale_ / std::max(Y.norm(), 1e-300);
    const auto gaps    = model_.gaps(Y);
    point.min_gap         = gaps.min_gap;
    point.grazing_gap     = gaps.grazing_gap;
    point.sticking_phases = gaps.closings; // an elastic contact's closings, as the event-driven map counts them
    const Matrix M        = model_.monodromy(Y, w);
    point.multipliers     = free_ ? nontrivial_multipliers(M, flow_.vector_field(point.state)) : floquet_multipliers(M, 0);
    for (const auto &mu : point.multipliers)
      point.max_multiplier = std::max(point.max_multiplier, std::abs(mu));
    point.stable = point.max_multiplier <= 1.0 + settings_.stability_tolerance;
    const Eigen::Index m            = model_.modes();
    const double       length_scale = std::max(point.state.head(m).lpNorm<Eigen::Infinity>(), 1e-300);
    point.admissible                = !(point.grazing_gap < 1e-6 * length_scale);
    return point;
  }

  // Odd harmonics of the base frequency (the forcing's being an even one) vanish: an orbit of
  // half the period.
  bool HarmonicBalanceProblem::of_half_period(const Vector &Y) const
  {
    if (free_ || settings_.forcing_periods % 2 != 0 || Y.size() != n_)
      return false;
    const Eigen::Index nh  = model_.fourier().coefficients();
    double             odd = 0.0;
    for (Eigen::Index i = 0; i < model_.contacts(); ++i)
      for (Eigen::Index j = 1; j <= (nh - 1) / 2; j += 2)
        odd += std::pow(Y[i * nh + 2 * j - 1], 2) + std::pow(Y[i * nh + 2 * j], 2);
    return std::sqrt(odd) < 1e-4 * std::max(Y.norm(), 1e-300);
  }

  bool HarmonicBalanceProblem::of_lower_period(const BranchPoint &orbit) { return of_half_period(orbit.coefficients); }

  std::optional<OrbitSignature> HarmonicBalanceProblem::last_evaluated() const
  {
    if (cache_.key.empty())
      return std::nullopt;
    const Vector   X = cache_.unknowns();
    OrbitSignature signature;
    const double   w = free_ ? X(n_) * omega_scale_ : cache_.parameter * parameter_scale_ / settings_.forcing_periods;
    signature.period          = 2 * M_PI / w;
    signature.parameter       = cache_.parameter * parameter_scale_;
    signature.sticking_phases = cache_.closings;
    signature.of_lower_period = of_half_period(coefficients(X));
    return signature;
  }

  Vector HarmonicBalanceProblem::unknowns(const BranchPoint &point) const
  {
    if (forced_flow_ && point.coefficients.size() != n_)
      forced_flow_->set_forcing_frequency(point.frequency);
    const Vector Y = point.coefficients.size() == n_ ? point.coefficients
                                                     : sampled_coefficients(point.state, point.period, point.unfolding);
    Vector       X(size());
    X.head(n_) = Y / state_scale_;
    if (free_)
      X.tail(2) << 2 * M_PI / point.period / omega_scale_, point.unfolding / omega_scale_;
    return X;
  }

  double HarmonicBalanceProblem::parameter(const BranchPoint &point) const
  {
    return (free_ ? point.energy : point.frequency) / parameter_scale_;
  }

  void HarmonicBalanceProblem::set_reference(const BranchPoint &point)
  {
    reference_ = unknowns(point).head(n_) * state_scale_;
  }
} // namespace vibroimpact::periodic
