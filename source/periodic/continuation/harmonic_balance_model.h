// A linear structure with elastic (unilateral-spring) contacts, as harmonic balance sees it: the
// contact DoFs' Fourier series y_i(t) = a0 + Σ_j a_j cos jωt + b_j sin jωt are the unknowns, and the
// linear part is condensed onto them per harmonic in the event-driven map's mass-normalised modes,
//
//   Y_j = B H_j(ω) (F_j + Bᵀ Λ_j),   H_j = diag 1/(ω_m² − (jω)² + i jω (d_m − κ)),
//
// the receptance of every mode (exact for the FE model when every mode is kept, as a sparse
// factorisation per harmonic would be, at the cost of one diagonal per harmonic). The contact forces
// Λ_j come from the alternating frequency–time evaluation: y at N samples of the period (FFTW),
// λ = k max(−g, 0), back to harmonics. κ is the extended periodic motion concept's unfolding
// damping (free families). The orbit is then reconstructed in modal coordinates, and its
// monodromy computed exactly for its piecewise-constant linearisation (doc/harmonic-balance.md).
#pragma once

#include <vibroimpact/periodic/flow_map.h>

#include <complex>
#include <map>
#include <memory>
#include <vector>

namespace vibroimpact::periodic
{
  class LinearImpactFlow;

  using ComplexMatrix = Eigen::MatrixXcd;

  // Real Fourier coefficients (a0, a1, b1, …, aH, bH) ↔ N equally spaced samples over a period,
  // one column per signal, by FFTW's real transforms (N > 2H).
  class FourierSamples
  {
  public:
    FourierSamples(unsigned int harmonics, unsigned int samples);
    ~FourierSamples();
    FourierSamples(const FourierSamples &) = delete;
    FourierSamples &operator=(const FourierSamples &) = delete;

    unsigned int harmonics() const { return H_; }
    unsigned int samples() const { return N_; }
    Eigen::Index coefficients() const { return 2 * H_ + 1; }
    // Samples (N × signals) of coefficient columns ((2H+1) × signals), and back.
    Matrix to_time(const Matrix &coefficients) const;
    Matrix to_frequency(const Matrix &samples) const;
    // The same linear maps as dense matrices (the Jacobian's chain rule).
    const Matrix &synthesis() const; // N × (2H+1)
    const Matrix &analysis() const;  // (2H+1) × N

  private:
    unsigned int H_, N_;
    double      *real_;
    void        *spectrum_;
    void        *forward_, *backward_;
    mutable Matrix synthesis_, analysis_;
  };

  class HarmonicBalanceModel
  {
  public:
    // Throws std::invalid_argument naming the entry when the flow's model is not one HB takes.
    HarmonicBalanceModel(const LinearImpactFlow &flow, unsigned int harmonics, unsigned int samples);

    Eigen::Index          contacts() const { return B_.rows(); }
    Eigen::Index          modes() const { return B_.cols(); }
    Eigen::Index          size() const { return contacts() * fourier_.coefficients(); }
    const FourierSamples &fourier() const { return fourier_; }

    // The harmonic-balance residual r = Y − Y_free − T Λ(Y) at base frequency ω (the forcing at
    // harmonic `forcing_harmonic`, the forcing frequency being ω × it) and unfolding κ, with
    // ∂r/∂Y, ∂r/∂ω and ∂r/∂κ when asked. Y per contact: (a0, a1, b1, …), contact after contact.
    struct Residual
    {
      Vector r;
      Matrix d_Y;
      Vector d_omega, d_kappa;
      unsigned int closings = 0; // contacts closing per period, from the samples
    };
    Residual residual(const Vector &Y, double omega, double kappa, unsigned int forcing_harmonic, bool jacobian) const;

    // The contact forces' harmonics of Y (same layout).
    Vector contact_forces(const Vector &Y) const;
    // The modal harmonics Q_j (m × (H+1), complex: q(t) = Re Σ Q_j e^{ijωt}) of the orbit Y.
    ComplexMatrix modal_harmonics(const Vector &Y, double omega, double kappa, unsigned int forcing_harmonic) const;
    // The modal state (q, q̇) at time t of modal harmonics Q.
    Vector state(const ComplexMatrix &Q, double omega, double t) const;
    // The gap of contact i at time t of the orbit Y (base period 2π/ω).
    double gap(const Vector &Y, Eigen::Index contact, double phase) const;
    // The monodromy matrix of the orbit Y (period 2π/ω) in the flow's coordinates (q, q̇): the
    // product of exp(A_S Δt) over the intervals between the contacts' switching times.
    Matrix monodromy(const Vector &Y, double omega) const;

    // Gaps over the period, sampled 16 N times: its smallest, the smallest local minimum of an open
    // gap (a grazing when → 0; ∞: none) and the closings per period.
    struct GapSummary
    {
      double       min_gap = 0.0, grazing_gap = 0.0;
      unsigned int closings = 0;
    };
    GapSummary gaps(const Vector &Y) const;

  private:
    // The contact forces λ = k max(0, −g) and their slopes ∂λ/∂y at the N samples of the orbit Y
    // (one column per contact), and the closings per period.
    struct ContactSamples
    {
      Matrix       force, slope;
      unsigned int closings = 0;
    };
    ContactSamples sample_contacts(const Vector &Y) const;
    // Harmonic j's contact receptance R_j = B H_j Bᵀ and free response B H_j F_j (loaded: F_j is
    // the constant or the forcing's harmonic), with their derivatives in ω and κ.
    struct Receptance
    {
      ComplexMatrix    R, dR_omega, dR_kappa;
      Eigen::VectorXcd free, dfree_omega, dfree_kappa;
    };
    Receptance receptance(unsigned int j, double omega, double kappa, bool loaded) const;

    // A closed set's linear dynamics: undamped, K = U diag(frequencies²) Uᵀ; damped, the
    // eigendecomposition A = V diag(λ) V⁻¹ of its first-order matrix.
    struct ClosedDynamics
    {
      Matrix           U;
      Vector           frequencies;
      Eigen::MatrixXcd V, V_inverse;
      Eigen::VectorXcd lambda;
    };
    const ClosedDynamics &dynamics(const std::vector<bool> &closed) const;
    // exp(A_S dt) of closed set S.
    Matrix step(const std::vector<bool> &closed, double dt) const;
    // Switching times of the contacts over one period, as fractions of it, ascending.
    std::vector<double> switching_phases(const Vector &Y) const;
    // Every contact's gap at 16 N samples of the period (one column per contact).
    Matrix fine_gaps(const Vector &Y) const;

    Vector         omega_, damping_, gap0_, stiffness_;
    Matrix         B_, loads_;
    FourierSamples fourier_, fine_;
    mutable std::map<std::vector<bool>, ClosedDynamics> dynamics_;
  };
} // namespace vibroimpact::periodic
