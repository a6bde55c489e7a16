// The defining systems of special points in two parameters (defining_systems.h): minimally
// augmented conditions on bordered matrices, the grazing's tangency at its phase, and an
// ordinary orbit's parameter held.
#include "defining_systems.h"

#include <Eigen/LU>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace vibroimpact::periodic
{
  namespace
  {
    // G of the bordered system [A B; Cᵀ 0] [V; G] = [0; I] (k × k, k = B's columns): it vanishes
    // where A has rank n − k and is smooth in A's entries, with borders B, C near A's left and
    // right null vectors (Govaerts 2000, §3.2).
    Matrix bordered_solution(const Matrix &A, const Matrix &B, const Matrix &C)
    {
      const Eigen::Index n = A.rows(), k = B.cols();
      Matrix             K = Matrix::Zero(n + k, n + k);
      K.topLeftCorner(n, n)    = A;
      K.topRightCorner(n, k)   = B;
      K.bottomLeftCorner(k, n) = C.transpose();
      Matrix rhs               = Matrix::Zero(n + k, k);
      rhs.bottomRows(k)        = Matrix::Identity(k, k);
      return K.partialPivLu().solve(rhs).bottomRows(k);
    }

    double determinant_sign(const Matrix &A)
    {
      const double d = A.partialPivLu().determinant();
      return d > 0 ? 1.0 : (d < 0 ? -1.0 : 0.0);
    }

    double wrapped_phase(const double phase) { return phase - std::floor(phase); }

    constexpr double difference_step = 1e-7; // in scaled unknowns, all of order one
  } // namespace

  DefiningSystem::DefiningSystem(const BranchPoint &start, const bool free, MapFamily &maps,
                                 const SecondParameter &second, const ContinuationSettings &settings)
    : kind_(start.special)
    , free_(free)
    , maps_(maps)
    , second_(second)
    , settings_(settings)
    , start_(start)
    , reference_(start)
    , lambda_scale_(second.value != 0 ? std::abs(second.value) : 1.0)
    , parameter_scale_(free ? start.energy : start.frequency)
    , state_scale_(std::max(start.state.norm(), 1e-300))
    , velocity_scale_(state_scale_ * 2 * M_PI / start.period)
  {
    if (kind_ != SpecialPoint::none && !followed_in_two_parameters(kind_))
      throw std::runtime_error(std::string(name(kind_)) + " points are not followed in two parameters");
    if (!free_) // a switched family's orbits span several forcing periods
      settings_.forcing_periods =
        static_cast<unsigned int>(std::lround(start.period * start.frequency / (2 * M_PI)));
    double extra = 0.0;
    if (kind_ == SpecialPoint::grazing)
      {
        if (free_)
          throw std::runtime_error("grazings of free families are not followed (their energy is not a forcing's "
                                   "parameter)");
        extra  = choose_grazing_contact(start);
        extra_ = 1;
      }
    if (kind_ == SpecialPoint::neimark_sacker)
      {
        double nearest = 1e300;
        for (const auto &mu : start.multipliers)
          if (std::abs(mu.imag()) > 1e-8 && std::abs(std::abs(mu) - 1) < nearest)
            nearest = std::abs(std::abs(mu) - 1), extra = mu.real() / std::abs(mu);
        if (nearest == 1e300)
          throw std::runtime_error("no complex pair of multipliers at the Neimark-Sacker point");
        extra_ = 1;
      }
    ShootingProblem &problem = inner(second_.value);
    n_                       = problem.size();
    initial_guess_.resize(n_ + 1 + extra_);
    initial_guess_.head(n_) = problem.unknowns(start);
    initial_guess_[n_]      = problem.parameter(start);
    if (extra_ > 0)
      initial_guess_[n_ + 1] = extra;
    aim(inner_entry(second_.value), initial_guess_);
    if (kind_ == SpecialPoint::none)
      return;
    const auto [F, J] = problem.residual(initial_guess_.head(n_), initial_guess_[n_], true);
    if (kind_ == SpecialPoint::grazing)
      {
        if (F.norm() > 1e-6)
          throw std::runtime_error("the grazing orbit is not an orbit of the map that ignores contact " +
                                   std::to_string(contact_) + "'s impacts near it (residual " +
                                   std::to_string(F.norm()) + ")");
        return;
      }
    update_borders(test_matrix(problem, J, extra));
    if (kind_ == SpecialPoint::neimark_sacker)
      choose_neimark_sacker_entries(initial_guess_);
  }

  // The contact that the start orbit touches tangentially (contact_), and the phase t/T where
  // (returned): the sample nearest to gap = 0 and gap rate = 0.
  double DefiningSystem::choose_grazing_contact(const BranchPoint &start)
  {
    const auto map = maps_.at(second_.value);
    map->set_forcing_frequency(start.frequency);
    const OrbitSamples samples = map->sample(start.state, start.period, 400);
    double             nearest = std::numeric_limits<double>::infinity(), phase = 0.0;
    for (unsigned int c = 0; c < maps_.n_contacts(); ++c)
      {
        const auto [gap0, row] = maps_.contact_gap(second_.value, c);
        // Where gap and rate both vanish: not at an impact, whose gap is zero too.
        for (std::size_t k = 0; k < samples.displacement.size(); ++k)
          if (const double g = std::abs(gap0 + row.dot(samples.displacement[k])) / state_scale_ +
                               std::abs(row.dot(samples.velocity[k])) / velocity_scale_;
              g < nearest)
            nearest = g, contact_ = static_cast<int>(c), phase = samples.time[k] / start.period;
      }
    if (contact_ < 0)
      throw std::runtime_error("the model has no contact to graze");
    // The window of ignored impacts reaches 40 % of the way to the contact's other events (the
    // grazing's own impact, if the start lies on its impacting side, within 1 % of the period).
    window_ = 0.25;
    for (const auto &event : samples.events)
      if (static_cast<int>(event.contact) == contact_)
        {
          const double d = std::abs(wrapped_phase(event.time / start.period - phase + 0.5) - 0.5);
          if (d > 0.01)
            window_ = std::min(window_, 0.4 * d);
        }
    return phase;
  }

  // The grazing's map ignores the contact's impacts within the window about t_g = φT.
  void DefiningSystem::aim(Inner &in, const Vector &Y) const
  {
    if (kind_ != SpecialPoint::grazing)
      return;
    const double T = settings_.forcing_periods * 2 * M_PI / (Y[n_] * parameter_scale_), phase = Y[n_ + 1];
    if (!in.map->ignore_impacts(contact_, (phase - window_) * T, (phase + window_) * T, T))
      throw std::runtime_error(in.map->name() + " map cannot ignore a contact's impacts (a grazing's defining system)");
  }

  DefiningSystem::Inner &DefiningSystem::inner_entry(const double lambda)
  {
    for (auto &in : inners_)
      if (in.lambda == lambda)
        return in;
    // The orbit at λ, its neighbours for differences and LOCA's: a few maps are kept.
    if (inners_.size() >= 4)
      {
        retired_evaluations_ += inners_.front().problem->evaluations();
        inners_.erase(inners_.begin());
      }
    Inner in;
    in.lambda  = lambda;
    in.map     = maps_.at(lambda, kind_ == SpecialPoint::grazing);
    in.problem = std::make_unique<ShootingProblem>(*in.map, free_ ? nullptr : in.map.get(), settings_, start_.state,
                                                   start_.period, parameter_scale_);
    in.problem->set_reference(reference_);
    inners_.push_back(std::move(in));
    return inners_.back();
  }

  ShootingProblem &DefiningSystem::inner(const double lambda) { return *inner_entry(lambda).problem; }

  // The matrix whose rank drops at the kind's point: ∂F/∂X (fold), M + I (period doubling),
  // M² − 2κM + I (Neimark-Sacker: rank n − 2 where e^{±iθ}, κ = cos θ, are multipliers).
  Matrix DefiningSystem::test_matrix(ShootingProblem &problem, const Matrix &J, const double kappa) const
  {
    if (kind_ == SpecialPoint::fold)
      return J;
    Matrix M = problem.monodromy_minus_identity(J);
    M.diagonal().array() += 1.0;
    if (kind_ == SpecialPoint::period_doubling)
      {
        M.diagonal().array() += 1.0;
        return M;
      }
    Matrix A = M * M - 2 * kappa * M;
    A.diagonal().array() += 1.0;
    return A;
  }

  // Borders from A's singular vectors of its smallest singular values: the bordered matrix is
  // then as far from singular as it can be.
  void DefiningSystem::update_borders(const Matrix &A)
  {
    const Eigen::Index            k = kind_ == SpecialPoint::neimark_sacker ? 2 : 1;
    const Eigen::JacobiSVD<Matrix> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
    B_ = svd.matrixU().rightCols(k);
    C_ = svd.matrixV().rightCols(k);
  }

  Vector DefiningSystem::conditions(Inner &in, const Vector &X, const double p, const double extra, const Matrix &J)
  {
    if (kind_ == SpecialPoint::none) // the orbit's own parameter held: p = 1, its start's
      return Vector::Constant(1, p - 1.0);
    if (kind_ == SpecialPoint::grazing)
      {
        // The orbit's tangency with the contact at t_g = φT: g(t_g) = 0, ġ(t_g) = 0.
        const double T = settings_.forcing_periods * 2 * M_PI / (p * parameter_scale_);
        in.map->set_forcing_frequency(p * parameter_scale_);
        const OrbitSamples at      = in.map->sample(in.problem->state(X), wrapped_phase(extra) * T, 1);
        const auto [gap0, row]     = maps_.contact_gap(in.lambda, static_cast<unsigned int>(contact_));
        Vector tangency(2);
        tangency << (gap0 + row.dot(at.displacement.back())) / state_scale_,
          row.dot(at.velocity.back()) / velocity_scale_;
        return tangency;
      }
    const Matrix G = bordered_solution(test_matrix(*in.problem, J, extra), B_, C_);
    if (kind_ != SpecialPoint::neimark_sacker)
      return Vector::Constant(1, G(0, 0));
    Vector pair(2);
    pair << G.data()[entry_a_], G.data()[entry_b_];
    return pair;
  }

  // Two of G's four entries are solved for (with κ, two unknowns): the pair whose derivatives in
  // (p, κ) are the most independent at the start.
  void DefiningSystem::choose_neimark_sacker_entries(const Vector &Y)
  {
    Inner       &in = inner_entry(second_.value);
    const Vector X  = Y.head(n_);
    const double p = Y[n_], kappa = Y[n_ + 1], h = difference_step;
    const Matrix J  = in.problem->residual(X, p, true).second;
    const Matrix Jp = in.problem->residual(X, p + h, true).second;
    const auto   all = [&](const Matrix &Jx, const double k) {
      return Matrix(bordered_solution(test_matrix(*in.problem, Jx, k), B_, C_));
    };
    const Matrix G = all(J, kappa), dp = (all(Jp, kappa) - G) / h, dk = (all(J, kappa + h) - G) / h;
    double       best = -1;
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (const double d = std::abs(dp.data()[a] * dk.data()[b] - dp.data()[b] * dk.data()[a]); d > best)
          best = d, entry_a_ = a, entry_b_ = b;
  }

  bool DefiningSystem::admits(const Vector &Y, const double mu)
  {
    mu_       = mu;
    Inner &in = inner_entry(lambda_of(mu));
    aim(in, Y);
    return in.problem->admits(Y.head(n_), Y[n_]);
  }

  std::pair<Vector, Matrix> DefiningSystem::residual(const Vector &Y, const double mu, const bool with_jacobian)
  {
    mu_                 = mu;
    Inner       &in     = inner_entry(lambda_of(mu));
    aim(in, Y);
    const Vector X      = Y.head(n_);
    const double p      = Y[n_], extra = extra_ > 0 ? Y[n_ + 1] : 0.0;
    const auto [F, J]   = in.problem->residual(X, p, true);
    const Vector G      = conditions(in, X, p, extra, J);
    Vector       R(F.size() + G.size());
    R << F, G;
    if (!with_jacobian)
      return {R, Matrix()};
    // Forward differences of exact Jacobians: the grazing's conditions and a held parameter need
    // no Jacobian.
    const bool   needs_J = kind_ != SpecialPoint::grazing && kind_ != SpecialPoint::none;
    const double h       = difference_step;
    Matrix       JR      = Matrix::Zero(R.size(), size());
    JR.topLeftCorner(n_, n_) = J;
    {
      const auto [Fp, Jp] = in.problem->residual(X, p + h, needs_J);
      JR.col(n_).head(n_) = (Fp - F) / h;
      JR.col(n_).tail(G.size()) = (conditions(in, X, p + h, extra, Jp) - G) / h;
    }
    for (Eigen::Index i = 0; i < n_; ++i)
      {
        Vector Xi = X;
        Xi[i] += h;
        const Matrix Ji = needs_J ? in.problem->residual(Xi, p, true).second : Matrix();
        JR.block(n_, i, G.size(), 1) = (conditions(in, Xi, p, extra, Ji) - G) / h;
      }
    if (extra_ > 0)
      JR.block(n_, n_ + 1, G.size(), 1) = (conditions(in, X, p, extra + h, J) - G) / h;
    return {R, JR};
  }

  Matrix DefiningSystem::monodromy_minus_identity(const Vector &, double, const Matrix &jacobian) const
  {
    return inners_.back().problem->monodromy_minus_identity(jacobian.topLeftCorner(n_, n_));
  }

  BranchPoint DefiningSystem::orbit(const Vector &Y, const double mu)
  {
    mu_         = mu;
    last_orbit_ = Y;
    Inner &in   = inner_entry(lambda_of(mu));
    aim(in, Y);
    return in.problem->orbit(Y.head(n_), Y[n_]);
  }

  std::optional<OrbitSignature> DefiningSystem::last_evaluated() const
  {
    for (const auto &in : inners_)
      if (in.lambda == lambda_of(mu_))
        return in.problem->last_evaluated();
    return std::nullopt;
  }

  Vector DefiningSystem::unknowns(const BranchPoint &point) const
  {
    Vector Y          = last_orbit_.size() == size() ? last_orbit_ : initial_guess_;
    Y.head(n_)        = inners_.back().problem->unknowns(point);
    Y[n_]             = inners_.back().problem->parameter(point);
    return Y;
  }

  // An accepted point: recorded on the curve; the borders move to it (the conditions' zero set
  // does not depend on them) and the other kind's test is read there.
  void DefiningSystem::set_reference(const BranchPoint &point)
  {
    reference_ = point;
    for (auto &in : inners_)
      in.problem->set_reference(point);
    const double lambda = lambda_of(mu_);
    CurvePoint   c;
    c.frequency       = point.frequency;
    c.energy          = point.energy;
    c.parameter       = lambda;
    c.period          = point.period;
    c.impacts         = point.impacts;
    c.sticking_phases = point.sticking_phases;
    c.state           = point.state;
    if (kind_ == SpecialPoint::neimark_sacker)
      c.kappa = last_orbit_[n_ + 1];
    if (kind_ == SpecialPoint::grazing)
      c.phase = wrapped_phase(last_orbit_[n_ + 1]);
    points_.push_back(c);
    if (kind_ == SpecialPoint::grazing || kind_ == SpecialPoint::none)
      {
        other_test_.push_back(0.0);
        return;
      }
    Inner       &in = inner_entry(lambda);
    const Matrix J  = in.problem->residual(last_orbit_.head(n_), last_orbit_[n_], true).second;
    update_borders(test_matrix(*in.problem, J, c.kappa));
    Matrix M_minus_I = in.problem->monodromy_minus_identity(J);
    if (kind_ == SpecialPoint::fold)
      M_minus_I.diagonal().array() += 2.0; // det(M + I)
    other_test_.push_back(determinant_sign(M_minus_I));
  }

  std::string DefiningSystem::beyond_bounds(const BranchPoint &orbit) const
  {
    if (!free_ && (orbit.frequency < settings_.min_frequency || orbit.frequency > settings_.max_frequency))
      return "the frequency range left at " + std::to_string(orbit.frequency) + " rad/s";
    if (free_ && (orbit.energy < settings_.min_energy || orbit.energy > settings_.max_energy))
      return "the energy range left at " + std::to_string(orbit.energy);
    // An ordinary orbit's curve is followed one way in λ (a start carried to stiffer contacts):
    // where it turns back (a fold in λ) it ends.
    if (kind_ == SpecialPoint::none && !points_.empty())
      {
        double furthest = points_.front().parameter;
        for (const auto &p : points_)
          furthest = std::max(furthest, p.parameter);
        if (points_.back().parameter < furthest - 1e-3 * lambda_scale_)
          return "the curve turned back in " + second_.name + " at " + std::to_string(furthest);
      }
    if (kind_ == SpecialPoint::neimark_sacker && !points_.empty() && std::abs(points_.back().kappa) >= 1)
      return points_.back().kappa > 0 ? "the pair of multipliers met at +1 (a 1:1 resonance)"
                                      : "the pair of multipliers met at -1 (a 1:2 resonance)";
    return {};
  }

  unsigned long DefiningSystem::evaluations() const
  {
    unsigned long total = retired_evaluations_;
    for (const auto &in : inners_)
      total += in.problem->evaluations();
    return total;
  }
} // namespace vibroimpact::periodic
