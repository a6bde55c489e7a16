// The wave modes of a clamped–free Euler–Bernoulli beam whose tip can touch the free end of a
// fixed–free St Venant rod (Yin, Qin, Liu, Gao & Liu 2007; derivation in doc/wave_modes.md):
//
//   in contact  the coupled beam–rod modes: Y(0) = Y'(0) = 0, Y''(L) = 0, Y(L) = U(l),
//               EI Y'''(L) = EA U'(l), U(0) = 0; frequencies the roots of
//               EI β³ sin kl (1 + cos βL cosh βL) + EA k cos kl (sin βL cosh βL − cos βL sinh βL) = 0
//   apart       the cantilever's modes (cos βL cosh βL = −1) and the rod's, k = (2n − 1)π/(2l),
//               merged in one list sorted by frequency
//
// Every mode is mass-orthonormal in ∫ρA Y_i Y_j dx + ∫ρsAs U_i U_j dξ = δ_ij. The beam part is
// written as A [cos βx − σ sin βx − ½(1 + σ) e^{−βx} − τ e^{−β(L − x)}], bounded for any βL (no
// cosh overflow at mode 2000), the rod part b sin kξ.
#pragma once

#include <Eigen/Dense>

#include <vector>

namespace vibroimpact::reference
{
  // The continuum data of the two bodies, SI or any consistent units.
  struct BeamRodData
  {
    double EI    = 1.0; // beam bending stiffness
    double rhoA  = 1.0; // beam mass per length
    double L     = 1.0; // beam length (clamped at 0, free at L)
    double EA    = 1.0; // rod axial stiffness
    double rhoAs = 1.0; // rod mass per length
    double l     = 1.0; // rod length (fixed at 0, free at l)

    double flexural_coefficient() const; // a = √(EI/ρA): ω = a β²
    double rod_speed() const;            // c = √(EA/ρsAs): ω = c k
  };

  struct WaveMode
  {
    double omega = 0.0; // rad/s
    double beta  = 0.0; // beam wavenumber √(ω/a)
    double k     = 0.0; // rod wavenumber ω/c
    double A     = 0.0; // beam amplitude (0: a mode of the rod alone)
    double sigma = 0.0, tau = 0.0;
    double b     = 0.0; // rod amplitude (0: a mode of the beam alone)

    // d-th x-derivative (d = 0..3) of the beam part at x in [0, L].
    double beam(double x, unsigned int d, double L) const;
    // d-th ξ-derivative (d = 0, 1) of the rod part at ξ in [0, l].
    double rod(double xi, unsigned int d) const;
  };

  // The first n coupled (in-contact) modes. The m-th root lies between the m-th and (m+1)-th
  // frequencies of the merged free spectrum (one added constraint: Rayleigh's interlacing), so
  // each root is bracketed and counted, and found by TOMS 748.
  std::vector<WaveMode> coupled_modes(const BeamRodData &data, unsigned int n);

  // The n lowest free modes (cantilever and rod, merged by frequency).
  std::vector<WaveMode> free_modes(const BeamRodData &data, unsigned int n);

  // The cantilever's first n roots β_n L of cos z cosh z = −1, by TOMS 748 in ((n−1)π, nπ).
  std::vector<double> cantilever_roots(unsigned int n);

  // ∫ρA Y_i Y_j dx + ∫ρsAs U_i U_j dξ in closed form (boundary terms over the difference of the
  // eigenvalues; the squared-norm formula for i = j; Gauss–Legendre where two eigenvalues nearly
  // coincide).
  double mass_product(const BeamRodData &data, const WaveMode &i, const WaveMode &j);

  // Every product <rows_i, cols_j> as a matrix: the closed form on precomputed end values
  // (O(1) per entry), the special cases through mass_product().
  Eigen::MatrixXd mass_products(const BeamRodData &data, const std::vector<WaveMode> &rows,
                                const std::vector<WaveMode> &cols);

  // The same product by composite Gauss–Legendre quadrature, independent of the closed forms
  // (for tests).
  double mass_product_by_quadrature(const BeamRodData &data, const WaveMode &i, const WaveMode &j);

  // A quasi-static field: beam y = c (3L x² − x³), rod u = e ξ.
  struct StaticShape
  {
    double c = 0.0, e = 0.0;
  };
  // ∫ρA Y p dx + ∫ρsAs U u dξ of a mode with a static shape.
  double mass_product(const BeamRodData &data, const WaveMode &mode, const StaticShape &shape);
  double mass_product(const BeamRodData &data, const StaticShape &a, const StaticShape &b);
  // The strain energy ½∫EI y''² + ½∫EA u'² of a static shape.
  double strain_energy(const BeamRodData &data, const StaticShape &shape);

  // ∫ρA Y f dx over [a, b] for a cubic f given by its value and derivatives at a and b
  // (f, f', f'', f''' at each end), exact: the integrand's antiderivative is in closed form.
  double beam_product_with_cubic(const BeamRodData &data, const WaveMode &mode, double a, double b,
                                 const double (&fa)[4], const double (&fb)[4]);
  double rod_product_with_cubic(const BeamRodData &data, const WaveMode &mode, double a, double b,
                                const double (&fa)[4], const double (&fb)[4]);
} // namespace vibroimpact::reference
