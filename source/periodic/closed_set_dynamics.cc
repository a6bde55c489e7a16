// The linear dynamics of each closed set of contacts in the event-driven map: A and ∂A/∂α of
// z' = A z (free, projected onto a stuck contact's constraint, or with a massless node's spring),
// the multipliers that end sticking, the scan step, and the impact law's energy correction.
#include "linear_impact_flow_implementation.h"

#include <algorithm>
#include <cmath>

namespace vibroimpact::periodic
{
  LinearImpactFlow::Implementation::Mode LinearImpactFlow::Implementation::make_mode(const ClosedSet &closed,
                                                                                   const double alpha) const
  {
    Mode mode;
    for (unsigned int i = 0; i < closed.size(); ++i)
      if (closed[i])
        mode.closed_list.push_back(i);

    // The free acceleration a = F z.
    Matrix F = Matrix::Zero(m, nz);
    F.leftCols(m)        = Vector(-omega.cwiseAbs2()).asDiagonal();
    F.middleCols(m, m)   = Vector(-(D.array() + alpha).matrix()).asDiagonal();
    if (n_forcing > 0)
      F.rightCols(n_forcing) = G;
    Matrix F_alpha = Matrix::Zero(m, nz);
    F_alpha.middleCols(m, m) = -Matrix::Identity(m, m);

    Matrix P = Matrix::Identity(m, m);
    if (compliant)
      {
        // Each closed contact is a spring κ on its gap γ = gap0 + B_i q: force −κ γ B_iᵀ, and
        // its "multiplier" −κ γ turns negative (tensile) where γ opens.
        mode.multiplier_rows = Matrix::Zero(mode.closed_list.size(), nz);
        for (std::size_t k = 0; k < mode.closed_list.size(); ++k)
          {
            const auto   i     = mode.closed_list[k];
            const double kappa = spring[i];
            F.leftCols(m) -= kappa * B.row(i).transpose() * B.row(i);
            F.col(2 * m) -= kappa * gap0[i] * B.row(i).transpose();
            mode.multiplier_rows.row(k).head(m) = -kappa * B.row(i);
            mode.multiplier_rows(k, 2 * m)      = -kappa * gap0[i];
          }
      }
    else if (!mode.closed_list.empty())
      {
        Matrix BS(mode.closed_list.size(), m);
        for (std::size_t k = 0; k < mode.closed_list.size(); ++k)
          BS.row(k) = B.row(mode.closed_list[k]);
        // Unit modal masses: q̈ = a + B_Sᵀλ with B_S q̈ = 0 gives λ = −(B_S B_Sᵀ)⁻¹ B_S a.
        const Matrix delassus_inverse = (BS * BS.transpose()).inverse();
        mode.multiplier_rows = -delassus_inverse * BS * F;
        P -= BS.transpose() * delassus_inverse * BS;
      }

    mode.A = Matrix::Zero(nz, nz);
    mode.A.block(0, m, m, m) = Matrix::Identity(m, m);
    mode.A.middleRows(m, m)  = P * F;
    if (n_forcing > 0)
      {
        mode.A(2 * m + 1, 2 * m + 2) = forcing_omega;
        mode.A(2 * m + 2, 2 * m + 1) = -forcing_omega;
      }
    mode.A_alpha = Matrix::Zero(nz, nz);
    mode.A_alpha.middleRows(m, m) = P * F_alpha;
    return mode;
  }

  Matrix LinearImpactFlow::Implementation::extended(const Mode &mode) const
  {
    Matrix X = Matrix::Zero(2 * nz, 2 * nz);
    X.topLeftCorner(nz, nz)     = mode.A;
    X.topRightCorner(nz, nz)    = mode.A_alpha;
    X.bottomRightCorner(nz, nz) = mode.A;
    return X;
  }

  double LinearImpactFlow::Implementation::scan_step() const
  {
    double highest = omega.maxCoeff();
    if (compliant) // a bound on the frequencies with every spring closed
      {
        double squared = highest * highest;
        for (Eigen::Index i = 0; i < B.rows(); ++i)
          squared += spring[i] * B.row(i).squaredNorm();
        highest = std::sqrt(squared);
      }
    if (harmonic)
      highest = std::max(highest, forcing_omega);
    return 2 * M_PI / highest / settings.samples_per_period;
  }

  Vector LinearImpactFlow::Implementation::initial_z(const Vector &x0) const
  {
    Vector z(nz);
    z.head(2 * m) = x0;
    if (n_forcing > 0)
      z.tail(3) << 1.0, 0.0, 1.0; // ξ = (1, sin 0, cos 0)
    return z;
  }

  bool LinearImpactFlow::Implementation::pressed(const unsigned int i, const Vector &z, const double alpha) const
  {
    ClosedSet only(B.rows(), false);
    only[i] = true;
    const Mode mode = make_mode(only, alpha);
    return (mode.multiplier_rows * z)(0) > 0.0;
  }

  Matrix LinearImpactFlow::Implementation::null_projector(const std::vector<unsigned int> &rows) const
  {
    Matrix P = Matrix::Identity(m, m);
    if (rows.empty())
      return P;
    Matrix BS(rows.size(), m);
    for (std::size_t k = 0; k < rows.size(); ++k)
      BS.row(k) = B.row(rows[k]);
    return P - BS.transpose() * (BS * BS.transpose()).inverse() * BS;
  }

  Matrix LinearImpactFlow::Implementation::correct_energy(const Vector &v_minus, Vector &w, const Matrix &R,
                                                          const std::vector<unsigned int> &held) const
  {
    const Matrix P = null_projector(held);
    Vector       d;
    Matrix       d_w = Matrix::Zero(m, m); // ∂d/∂w
    if (settings.correction_direction == integrators::CorrectionDirection::velocity)
      d = P * w, d_w = P;
    else
      {
        Vector I = correction_base;
        for (const auto i : held)
          for (const auto j : contact_dofs[i])
            I[j] = 0.0;
        d = P * (mass_shapes.transpose() * I);
      }
    const double D = 0.5 * (v_minus.squaredNorm() - w.squaredNorm());
    const double a = 0.5 * d.squaredNorm(), b = d.dot(w), c = -D;
    if (D <= 0 || a == 0)
      return R;
    const double q    = -0.5 * (b + (b >= 0 ? 1.0 : -1.0) * std::sqrt(b * b - 4 * a * c));
    const double beta = c / q;
    // Implicit differentiation of aβ² + bβ + c = 0 (rows acting on v−).
    const Vector da = R.transpose() * (d_w.transpose() * d);
    const Vector db = R.transpose() * (d_w.transpose() * w + d);
    const Vector dc = -(v_minus - R.transpose() * w);
    const Vector dbeta = -(beta * beta * da + beta * db + dc) / (2 * a * beta + b);
    const Matrix jacobian = R + beta * d_w * R + d * dbeta.transpose();
    w += beta * d;
    return jacobian;
  }
} // namespace vibroimpact::periodic
