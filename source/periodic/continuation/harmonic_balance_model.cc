// The contact-condensed harmonic-balance model (harmonic_balance_model.h): the AFT with FFTW, the
// receptances per harmonic, the orbit's modal reconstruction and its monodromy.
#include "harmonic_balance_model.h"

#include <vibroimpact/model/non_reentrant.h>
#include <vibroimpact/periodic/eigenpairs.h>
#include <vibroimpact/periodic/linear_impact_flow.h>

#include <Eigen/Eigenvalues>
#include <boost/math/tools/toms748_solve.hpp>
#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>

namespace vibroimpact::periodic
{
  using Complex = std::complex<double>;

  FourierSamples::FourierSamples(const unsigned int harmonics, const unsigned int samples)
    : H_(harmonics)
    , N_(samples)
  {
    if (N_ <= 2 * H_)
      throw std::invalid_argument("Continuation/Samples per period: " + std::to_string(N_) +
                                  " samples cannot resolve " + std::to_string(H_) +
                                  " harmonics (more than 2 H are needed)");
    real_     = fftw_alloc_real(N_);
    spectrum_ = fftw_alloc_complex(N_ / 2 + 1);
    {
      const std::lock_guard<std::mutex> planner(model::fftw_planner_mutex()); // FFTW's planner is global
      forward_ = fftw_plan_dft_r2c_1d(int(N_), real_, static_cast<fftw_complex *>(spectrum_), FFTW_ESTIMATE);
      backward_ = fftw_plan_dft_c2r_1d(int(N_), static_cast<fftw_complex *>(spectrum_), real_, FFTW_ESTIMATE);
    }
  }

  // Built on first use: only the Jacobian's chain rule needs them.
  const Matrix &FourierSamples::synthesis() const
  {
    if (synthesis_.size() > 0)
      return synthesis_;
    synthesis_.resize(N_, 2 * H_ + 1);
    for (unsigned int s = 0; s < N_; ++s)
      {
        synthesis_(s, 0) = 1.0;
        for (unsigned int j = 1; j <= H_; ++j)
          {
            const double angle       = 2 * M_PI * double((std::size_t(j) * s) % N_) / N_;
            synthesis_(s, 2 * j - 1) = std::cos(angle);
            synthesis_(s, 2 * j)     = std::sin(angle);
          }
      }
    return synthesis_;
  }

  // The least-squares inverse of the synthesis, exact for N > 2H (the columns' discrete orthogonality).
  const Matrix &FourierSamples::analysis() const
  {
    if (analysis_.size() > 0)
      return analysis_;
    analysis_ = synthesis().transpose() * (2.0 / N_);
    analysis_.row(0) *= 0.5;
    return analysis_;
  }

  FourierSamples::~FourierSamples()
  {
    {
      const std::lock_guard<std::mutex> planner(model::fftw_planner_mutex());
      fftw_destroy_plan(static_cast<fftw_plan>(forward_));
      fftw_destroy_plan(static_cast<fftw_plan>(backward_));
    }
    fftw_free(real_);
    fftw_free(spectrum_);
  }

  Matrix FourierSamples::to_time(const Matrix &coefficients) const
  {
    auto  *c = static_cast<fftw_complex *>(spectrum_);
    Matrix out(N_, coefficients.cols());
    for (Eigen::Index k = 0; k < coefficients.cols(); ++k)
      {
        // y_s = Re Σ_j (a_j − i b_j) e^{2πijs/N}: c2r sums c_0 + 2 Re Σ c_j e^{…} with c_j = (a_j − i b_j)/2.
        for (unsigned int j = 0; j <= N_ / 2; ++j)
          c[j][0] = c[j][1] = 0.0;
        c[0][0] = coefficients(0, k);
        for (unsigned int j = 1; j <= H_; ++j)
          {
            c[j][0] = 0.5 * coefficients(2 * j - 1, k);
            c[j][1] = -0.5 * coefficients(2 * j, k);
          }
        fftw_execute_dft_c2r(static_cast<fftw_plan>(backward_), c, real_);
        out.col(k) = Eigen::Map<const Vector>(real_, N_);
      }
    return out;
  }

  Matrix FourierSamples::to_frequency(const Matrix &samples) const
  {
    auto  *c = static_cast<fftw_complex *>(spectrum_);
    Matrix out(2 * H_ + 1, samples.cols());
    for (Eigen::Index k = 0; k < samples.cols(); ++k)
      {
        Eigen::Map<Vector>(real_, N_) = samples.col(k);
        fftw_execute_dft_r2c(static_cast<fftw_plan>(forward_), real_, c);
        out(0, k) = c[0][0] / N_;
        for (unsigned int j = 1; j <= H_; ++j)
          {
            out(2 * j - 1, k) = 2 * c[j][0] / N_;
            out(2 * j, k)     = -2 * c[j][1] / N_;
          }
      }
    return out;
  }

  HarmonicBalanceModel::HarmonicBalanceModel(const LinearImpactFlow &flow, const unsigned int harmonics,
                                             const unsigned int samples)
    : omega_(flow.projection().omegas())
    , damping_(flow.projection().damping())
    , gap0_(flow.projection().gap0())
    , stiffness_(flow.projection().contact_stiffness())
    , B_(flow.projection().contact_rows())
    , loads_(flow.load_columns())
    , fourier_(harmonics, samples)
    , fine_(harmonics, 16 * samples)
  {
    if (omega_.size() == 0 || omega_.minCoeff() <= 0)
      throw std::invalid_argument("Continuation/Method: harmonic balance condenses on the modes' receptances, and "
                                  "this model has a rigid-body mode (frequency 0)");
    if (loads_.size() == 0)
      loads_ = Matrix::Zero(omega_.size(), 3);
  }

  HarmonicBalanceModel::ContactSamples HarmonicBalanceModel::sample_contacts(const Vector &Y) const
  {
    const Eigen::Index nc = contacts(), nh = fourier_.coefficients();
    const Matrix       y  = fourier_.to_time(Eigen::Map<const Matrix>(Y.data(), nh, nc));
    ContactSamples     out;
    out.force.resize(y.rows(), nc);
    out.slope.resize(y.rows(), nc);
    for (Eigen::Index i = 0; i < nc; ++i)
      for (Eigen::Index s = 0; s < y.rows(); ++s)
        {
          const double g      = gap0_[i] + y(s, i);
          out.force(s, i)     = stiffness_[i] * std::max(-g, 0.0);
          out.slope(s, i)     = g < 0 ? -stiffness_[i] : 0.0;
          const double before = gap0_[i] + y((s + y.rows() - 1) % y.rows(), i);
          out.closings += before >= 0 && g < 0 ? 1 : 0;
        }
    return out;
  }

  HarmonicBalanceModel::Receptance HarmonicBalanceModel::receptance(const unsigned int j, const double omega,
                                                                    const double kappa, const bool loaded) const
  {
    const Eigen::Index nc = contacts();
    const double       W  = j * omega;
    Receptance         out;
    out.R = out.dR_omega = out.dR_kappa = ComplexMatrix::Zero(nc, nc);
    out.free = out.dfree_omega = out.dfree_kappa = Eigen::VectorXcd::Zero(nc);
    for (Eigen::Index k = 0; k < modes(); ++k)
      {
        if (B_.col(k).isZero(0.0))
          continue;
        const Complex h    = 1.0 / Complex(omega_[k] * omega_[k] - W * W, W * (damping_[k] - kappa));
        const Complex dh_w = -double(j) * Complex(-2 * W, damping_[k] - kappa) * h * h;
        const Complex dh_k = Complex(0, W) * h * h;
        const Matrix  bb   = B_.col(k) * B_.col(k).transpose();
        out.R += h * bb, out.dR_omega += dh_w * bb, out.dR_kappa += dh_k * bb;
        if (!loaded)
          continue;
        // f(t) = F0 + F1 sin Ωt + F2 cos Ωt: harmonic 0 is F0, the forcing's is F2 − i F1.
        const Complex F = j == 0 ? Complex(loads_(k, 0)) : Complex(loads_(k, 2), -loads_(k, 1));
        out.free += h * F * B_.col(k), out.dfree_omega += dh_w * F * B_.col(k), out.dfree_kappa += dh_k * F * B_.col(k);
      }
    return out;
  }

  HarmonicBalanceModel::Residual HarmonicBalanceModel::residual(const Vector &Y, const double omega, const double kappa,
                                                                const unsigned int forcing_harmonic,
                                                                const bool jacobian) const
  {
    const Eigen::Index   nc = contacts(), nh = fourier_.coefficients();
    const ContactSamples samples = sample_contacts(Y);
    const Matrix         Lambda  = fourier_.to_frequency(samples.force);
    Residual             out;
    out.closings = samples.closings;
    out.r        = Y;
    if (jacobian)
      {
        out.d_Y     = Matrix::Identity(Y.size(), Y.size());
        out.d_omega = Vector::Zero(Y.size());
        out.d_kappa = Vector::Zero(Y.size());
      }
    // ∂Λ_l/∂Y_l = P diag(∂λ/∂y) E: each force depends on its own gap only.
    std::vector<Matrix> dL(jacobian ? nc : 0);
    for (std::size_t l = 0; l < dL.size(); ++l)
      dL[l] = fourier_.analysis() * samples.slope.col(Eigen::Index(l)).asDiagonal() * fourier_.synthesis();
    for (unsigned int j = 0; j <= fourier_.harmonics(); ++j)
      {
        const Receptance c = receptance(j, omega, kappa, j == 0 || j == forcing_harmonic);
        // Rows (a_j, b_j) per contact: Re r and −Im r of r_j = Y_j − Yf_j − R_j Λ_j.
        const auto rows = [&](const ComplexMatrix &R, const Eigen::VectorXcd &free, Vector &target) {
          for (Eigen::Index i = 0; i < nc; ++i)
            {
              Complex RL = free[i];
              for (Eigen::Index l = 0; l < nc; ++l)
                RL += R(i, l) * (j == 0 ? Complex(Lambda(0, l)) : Complex(Lambda(2 * j - 1, l), -Lambda(2 * j, l)));
              if (j == 0)
                target[i * nh] -= RL.real();
              else
                target[i * nh + 2 * j - 1] -= RL.real(), target[i * nh + 2 * j] += RL.imag();
            }
        };
        rows(c.R, c.free, out.r);
        if (!jacobian)
          continue;
        rows(c.dR_omega, c.dfree_omega, out.d_omega);
        rows(c.dR_kappa, c.dfree_kappa, out.d_kappa);
        // ∂r/∂Y −= R_j ∂Λ_j/∂Y, in the real form of R_j acting on (Λ_a, Λ_b).
        for (Eigen::Index l = 0; l < nc; ++l)
          for (Eigen::Index i = 0; i < nc; ++i)
            {
              const Complex r = c.R(i, l);
              if (j == 0)
                {
                  out.d_Y.block(i * nh, l * nh, 1, nh) -= r.real() * dL[l].row(0);
                  continue;
                }
              const Eigen::Index a = 2 * j - 1, b = 2 * j;
              out.d_Y.block(i * nh + a, l * nh, 1, nh) -= r.real() * dL[l].row(a) + r.imag() * dL[l].row(b);
              out.d_Y.block(i * nh + b, l * nh, 1, nh) -= -r.imag() * dL[l].row(a) + r.real() * dL[l].row(b);
            }
      }
    return out;
  }

  Vector HarmonicBalanceModel::contact_forces(const Vector &Y) const
  {
    const Matrix Lambda = fourier_.to_frequency(sample_contacts(Y).force);
    return Eigen::Map<const Vector>(Lambda.data(), Lambda.size());
  }

  ComplexMatrix HarmonicBalanceModel::modal_harmonics(const Vector &Y, const double omega, const double kappa,
                                                      const unsigned int forcing_harmonic) const
  {
    const Eigen::Index nc = contacts(), nh = fourier_.coefficients(), m = modes();
    const unsigned int H  = fourier_.harmonics();
    const Vector       L  = contact_forces(Y);
    ComplexMatrix      Q  = ComplexMatrix::Zero(m, H + 1);
    for (unsigned int j = 0; j <= H; ++j)
      {
        Eigen::VectorXcd Lj(nc);
        for (Eigen::Index l = 0; l < nc; ++l)
          Lj[l] = j == 0 ? Complex(L[l * nh]) : Complex(L[l * nh + 2 * j - 1], -L[l * nh + 2 * j]);
        const double W = j * omega;
        for (Eigen::Index k = 0; k < m; ++k)
          {
            Complex f = B_.col(k).cast<Complex>().dot(Lj); // bᵀΛ (dot conjugates its first argument, b is real)
            if (j == 0)
              f += loads_(k, 0);
            else if (j == forcing_harmonic)
              f += Complex(loads_(k, 2), -loads_(k, 1));
            Q(k, j) = f / Complex(omega_[k] * omega_[k] - W * W, W * (damping_[k] - kappa));
          }
      }
    return Q;
  }

  Vector HarmonicBalanceModel::state(const ComplexMatrix &Q, const double omega, const double t) const
  {
    const Eigen::Index m = modes();
    Vector             x = Vector::Zero(2 * m);
    for (Eigen::Index j = 0; j < Q.cols(); ++j)
      {
        const Complex e = std::exp(Complex(0, j * omega * t));
        for (Eigen::Index k = 0; k < m; ++k)
          {
            x[k] += (Q(k, j) * e).real();
            x[m + k] += (Complex(0, j * omega) * Q(k, j) * e).real();
          }
      }
    return x;
  }

  double HarmonicBalanceModel::gap(const Vector &Y, const Eigen::Index contact, const double phase) const
  {
    const Eigen::Index nh = fourier_.coefficients();
    double             g  = gap0_[contact] + Y[contact * nh];
    // cos jθ and sin jθ by the angle-addition recurrence: one sincos per evaluation.
    const double c1 = std::cos(2 * M_PI * phase), s1 = std::sin(2 * M_PI * phase);
    double       c = 1.0, s = 0.0;
    for (unsigned int j = 1; j <= fourier_.harmonics(); ++j)
      {
        const double next_c = c * c1 - s * s1;
        s                   = s * c1 + c * s1;
        c                   = next_c;
        g += Y[contact * nh + 2 * j - 1] * c + Y[contact * nh + 2 * j] * s;
      }
    return g;
  }

  Matrix HarmonicBalanceModel::fine_gaps(const Vector &Y) const
  {
    const Eigen::Index nh = fourier_.coefficients(), nc = contacts();
    Matrix             g  = fine_.to_time(Eigen::Map<const Matrix>(Y.data(), nh, nc));
    for (Eigen::Index i = 0; i < nc; ++i)
      g.col(i).array() += gap0_[i];
    return g;
  }

  HarmonicBalanceModel::GapSummary HarmonicBalanceModel::gaps(const Vector &Y) const
  {
    GapSummary   out;
    const Matrix g   = fine_gaps(Y);
    const auto   n   = g.rows();
    out.min_gap      = g.minCoeff();
    out.grazing_gap  = std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < g.cols(); ++i)
      for (Eigen::Index s = 0; s < n; ++s)
        {
          const double before = g((s + n - 1) % n, i), after = g((s + 1) % n, i);
          out.closings += before >= 0 && g(s, i) < 0 ? 1 : 0;
          if (g(s, i) > 0 && g(s, i) <= before && g(s, i) < after)
            out.grazing_gap = std::min(out.grazing_gap, g(s, i));
        }
    return out;
  }

  std::vector<double> HarmonicBalanceModel::switching_phases(const Vector &Y) const
  {
    const Matrix        g = fine_gaps(Y);
    const auto          n = g.rows();
    std::vector<double> phases;
    for (Eigen::Index i = 0; i < g.cols(); ++i)
      for (Eigen::Index s = 0; s < n; ++s)
        {
          const double before = g(s, i), after = g((s + 1) % n, i);
          if ((before < 0) == (after < 0))
            continue;
          const auto       f          = [&](const double phase) { return gap(Y, i, phase); };
          boost::uintmax_t iterations = 100;
          const auto       r          = boost::math::tools::toms748_solve(
            f, double(s) / n, double(s + 1) / n, before, after, boost::math::tools::eps_tolerance<double>(50), iterations);
          phases.push_back(0.5 * (r.first + r.second));
        }
    std::sort(phases.begin(), phases.end());
    return phases;
  }

  const HarmonicBalanceModel::ClosedDynamics &HarmonicBalanceModel::dynamics(const std::vector<bool> &closed) const
  {
    const auto found = dynamics_.find(closed);
    if (found != dynamics_.end())
      return found->second;
    const Eigen::Index m = modes();
    Matrix             K = omega_.cwiseAbs2().asDiagonal();
    for (Eigen::Index i = 0; i < contacts(); ++i)
      if (closed[i])
        K += stiffness_[i] * B_.row(i).transpose() * B_.row(i);
    ClosedDynamics d;
    if (damping_.isZero(0.0))
      {
        // Undamped: q̈ = −K q with K symmetric positive definite, K = U Λ Uᵀ, a real closed form.
        const Eigen::SelfAdjointEigenSolver<Matrix> eigen(K);
        d.U           = eigen.eigenvectors();
        d.frequencies = eigen.eigenvalues().cwiseMax(0.0).cwiseSqrt();
        return dynamics_.emplace(closed, std::move(d)).first->second;
      }
    Matrix A                  = Matrix::Zero(2 * m, 2 * m);
    A.topRightCorner(m, m)    = Matrix::Identity(m, m);
    A.bottomLeftCorner(m, m)  = -K;
    A.bottomRightCorner(m, m) = -Matrix(damping_.asDiagonal());
    const Eigenpairs eigen = eigenpairs(A, true);
    d.V         = eigen.vectors;
    d.lambda    = eigen.values;
    d.V_inverse = d.V.partialPivLu().inverse();
    if (!((d.V * d.lambda.asDiagonal() * d.V_inverse - A.cast<Complex>()).norm() <= 1e-8 * A.norm()))
      throw std::runtime_error("harmonic balance: a closed set's dynamics is not diagonalisable (its monodromy "
                               "cannot be formed)");
    return dynamics_.emplace(closed, std::move(d)).first->second;
  }

  Matrix HarmonicBalanceModel::step(const std::vector<bool> &closed, const double dt) const
  {
    const ClosedDynamics &d = dynamics(closed);
    const Eigen::Index    m = modes();
    if (d.V.size() > 0)
      {
        const Eigen::VectorXcd growth = (d.lambda * dt).array().exp();
        return (d.V * growth.asDiagonal() * d.V_inverse).real();
      }
    const Eigen::ArrayXd w = d.frequencies.array(), c = (w * dt).cos(), s = (w * dt).sin();
    // sin(w dt)/w → dt as w → 0.
    const Eigen::ArrayXd s_over_w = (w > 0).select(s / w.max(1e-300), dt);
    Matrix               E(2 * m, 2 * m);
    E.topLeftCorner(m, m)     = d.U * c.matrix().asDiagonal() * d.U.transpose();
    E.topRightCorner(m, m)    = d.U * s_over_w.matrix().asDiagonal() * d.U.transpose();
    E.bottomLeftCorner(m, m)  = -d.U * (w * s).matrix().asDiagonal() * d.U.transpose();
    E.bottomRightCorner(m, m) = E.topLeftCorner(m, m);
    return E;
  }

  Matrix HarmonicBalanceModel::monodromy(const Vector &Y, const double omega) const
  {
    const double        T      = 2 * M_PI / omega;
    std::vector<double> phases = switching_phases(Y);
    phases.insert(phases.begin(), 0.0);
    phases.push_back(1.0);
    Matrix M = Matrix::Identity(2 * modes(), 2 * modes());
    for (std::size_t k = 0; k + 1 < phases.size(); ++k)
      {
        const double dt = (phases[k + 1] - phases[k]) * T;
        if (dt <= 0)
          continue;
        std::vector<bool> closed(contacts());
        for (Eigen::Index i = 0; i < contacts(); ++i)
          closed[i] = gap(Y, i, 0.5 * (phases[k] + phases[k + 1])) < 0;
        M = step(closed, dt) * M;
      }
    return M;
  }
} // namespace vibroimpact::periodic
