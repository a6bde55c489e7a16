// Roots, shapes and closed-form mass products of the beam–rod wave modes (doc/wave_modes.md).
#include <vibroimpact/reference/beam_rod_modes.h>

#include <boost/math/quadrature/gauss.hpp>
#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <cmath>
#include <stdexcept>
#include <string>

namespace vibroimpact::reference
{
  double BeamRodData::flexural_coefficient() const { return std::sqrt(EI / rhoA); }
  double BeamRodData::rod_speed() const { return std::sqrt(EA / rhoAs); }

  namespace
  {
    // Eigenvalues this close (relative) are integrated by quadrature: the closed form divides
    // by their difference and would lose the digits the difference has not.
    constexpr double coincidence = 1e-7;

    // Roots to the last bits: the shapes satisfy the one boundary condition the root enforces
    // only as well as the root is known, and orthonormality to 1e-10 for mode 2000 needs it.
    template <typename F>
    double bracketed_root(F f, double lo, double hi, double f_lo, double f_hi, const char *what)
    {
      if (f_lo == 0.0)
        return lo;
      if (f_hi == 0.0)
        return hi;
      if ((f_lo > 0) == (f_hi > 0))
        throw std::runtime_error(std::string("wave modes: no sign change of the ") + what + " in [" +
                                 std::to_string(lo) + ", " + std::to_string(hi) + "]");
      std::uintmax_t iterations = 200;
      const auto [a, b] = boost::math::tools::toms748_solve(
        f, lo, hi, f_lo, f_hi, boost::math::tools::eps_tolerance<double>(std::numeric_limits<double>::digits - 1),
        iterations);
      return 0.5 * (a + b);
    }

    // σ and τ of the bounded form of a clamped beam's shape with Y''(L) = 0, from βL.
    void beam_coefficients(const double beta, const double L, WaveMode &mode)
    {
      const double z = beta * L, s = std::sin(z), c = std::cos(z), E = std::exp(-z);
      const double denominator = 1 + 2 * s * E - E * E; // 2 e^{−βL}(sin βL + sinh βL) > 0
      mode.beta  = beta;
      mode.sigma = (1 + 2 * c * E + E * E) / denominator; // (cos + cosh)/(sin + sinh)
      mode.tau   = (s - c - E) / denominator;
    }

    // ∫_0^L ψ² dx of the unit-amplitude beam part: [3ψψ''' + L(λψ² − 2ψ'ψ''')]_L / (4λ), λ = β⁴
    // (clamped end: no term at 0; free moment: ψ''(L) = 0).
    double beam_square_integral(const WaveMode &m, const double L)
    {
      WaveMode unit = m;
      unit.A        = 1.0;
      const double y = unit.beam(L, 0, L), y1 = unit.beam(L, 1, L), y3 = unit.beam(L, 3, L);
      const double lambda = std::pow(m.beta, 4);
      return (3 * y * y3 + L * (lambda * y * y - 2 * y1 * y3)) / (4 * lambda);
    }

    double rod_square_integral(const double k, const double l) { return l / 2 - std::sin(2 * k * l) / (4 * k); }

    // Composite Gauss–Legendre over [0, length], panels a quarter of the shortest wavelength of
    // the integrand.
    template <typename F>
    double integrate(F f, const double length, const double wavenumber)
    {
      const unsigned int panels = std::max(4u, static_cast<unsigned int>(std::ceil(length * 2 * wavenumber / M_PI)) + 1);
      const double       h      = length / panels;
      double             sum    = 0.0;
      for (unsigned int p = 0; p < panels; ++p)
        sum += boost::math::quadrature::gauss<double, 20>::integrate(f, p * h, (p + 1) * h);
      return sum;
    }

    double beam_product_quadrature(const BeamRodData &d, const WaveMode &i, const WaveMode &j)
    {
      return d.rhoA *
             integrate([&](double x) { return i.beam(x, 0, d.L) * j.beam(x, 0, d.L); }, d.L, i.beta + j.beta);
    }

    double rod_product_quadrature(const BeamRodData &d, const WaveMode &i, const WaveMode &j)
    {
      return d.rhoAs * integrate([&](double x) { return i.rod(x, 0) * j.rod(x, 0); }, d.l, i.k + j.k);
    }
  } // namespace

  double WaveMode::beam(const double x, const unsigned int d, const double L) const
  {
    if (A == 0.0)
      return 0.0;
    const double z = beta * x, s = std::sin(z), c = std::cos(z);
    const double h = 0.5 * (1 + sigma) * std::exp(-z), t = tau * std::exp(-beta * (L - x));
    switch (d)
      {
        case 0:
          return A * (c - sigma * s - h - t);
        case 1:
          return A * beta * (-s - sigma * c + h - t);
        case 2:
          return A * beta * beta * (-c + sigma * s - h - t);
        default:
          return A * beta * beta * beta * (s + sigma * c + h - t);
      }
  }

  double WaveMode::rod(const double xi, const unsigned int d) const
  {
    if (b == 0.0)
      return 0.0;
    return d == 0 ? b * std::sin(k * xi) : b * k * std::cos(k * xi);
  }

  std::vector<double> cantilever_roots(const unsigned int n)
  {
    // cos z cosh z + 1 = 0 divided by cosh z: bounded, one root in each ((j−1)π, jπ).
    const auto f = [](double z) { return std::cos(z) + 1 / std::cosh(z); };
    std::vector<double> roots;
    roots.reserve(n);
    for (unsigned int j = 1; j <= n; ++j)
      {
        const double lo = (j - 1) * M_PI, hi = j * M_PI;
        roots.push_back(bracketed_root(f, lo, hi, f(lo), f(hi), "cantilever frequency function"));
      }
    return roots;
  }

  std::vector<WaveMode> free_modes(const BeamRodData &d, const unsigned int n)
  {
    const double a = d.flexural_coefficient(), c = d.rod_speed();
    // n of each family is always enough: the merged list keeps the n lowest.
    std::vector<WaveMode> modes;
    modes.reserve(2 * n);
    for (const double z : cantilever_roots(n))
      {
        WaveMode m;
        beam_coefficients(z / d.L, d.L, m);
        m.omega = a * m.beta * m.beta;
        m.A     = 1.0;
        m.A     = 1.0 / std::sqrt(d.rhoA * beam_square_integral(m, d.L));
        modes.push_back(m);
      }
    for (unsigned int j = 1; j <= n; ++j)
      {
        WaveMode m;
        m.k     = (2 * j - 1) * M_PI / (2 * d.l);
        m.omega = c * m.k;
        m.b     = std::sqrt(2 / (d.rhoAs * d.l));
        modes.push_back(m);
      }
    std::stable_sort(modes.begin(), modes.end(), [](const WaveMode &x, const WaveMode &y) { return x.omega < y.omega; });
    modes.resize(n);
    return modes;
  }

  std::vector<WaveMode> coupled_modes(const BeamRodData &d, const unsigned int n)
  {
    const double a = d.flexural_coefficient(), c = d.rod_speed();
    // The frequency function of the tied tips, divided by cosh βL so it stays bounded:
    // EI β³ sin kl (cos βL + sech βL) + EA k cos kl (sin βL − cos βL tanh βL).
    const auto D = [&](double omega) {
      const double beta = std::sqrt(omega / a), k = omega / c, z = beta * d.L;
      const double E = std::exp(-z), sech = 2 * E / (1 + E * E), tanh = (1 - E * E) / (1 + E * E);
      return d.EI * beta * beta * beta * std::sin(k * d.l) * (std::cos(z) + sech) +
             d.EA * k * std::cos(k * d.l) * (std::sin(z) - std::cos(z) * tanh);
    };
    // Interlacing: the m-th coupled frequency lies in [ω_m, ω_{m+1}] of the free spectrum.
    const auto            free = free_modes(d, n + 1);
    std::vector<WaveMode> modes;
    modes.reserve(n);
    for (unsigned int m = 0; m < n; ++m)
      {
        const double lo = free[m].omega, hi = free[m + 1].omega;
        WaveMode     mode;
        mode.omega = hi - lo <= 4 * std::numeric_limits<double>::epsilon() * hi ?
                       lo :
                       bracketed_root(D, lo, hi, D(lo), D(hi), "beam-rod frequency function");
        beam_coefficients(std::sqrt(mode.omega / a), d.L, mode);
        mode.k = mode.omega / c;
        mode.A = 1.0;
        // The rod amplitude from whichever tip condition is better conditioned: displacement
        // continuity where sin kl is large, the force balance where cos kl is.
        const double s = std::sin(mode.k * d.l), co = std::cos(mode.k * d.l);
        mode.b         = std::abs(s) >= std::abs(co) ? mode.beam(d.L, 0, d.L) / s :
                                                       d.EI * mode.beam(d.L, 3, d.L) / (d.EA * mode.k * co);
        const double norm2 =
          d.rhoA * beam_square_integral(mode, d.L) + d.rhoAs * mode.b * mode.b * rod_square_integral(mode.k, d.l);
        const double scale = 1 / std::sqrt(norm2);
        mode.A *= scale;
        mode.b *= scale;
        modes.push_back(mode);
      }
    return modes;
  }

  double mass_product(const BeamRodData &d, const WaveMode &i, const WaveMode &j)
  {
    double sum = 0.0;
    if (i.A != 0.0 && j.A != 0.0)
      {
        const double li = std::pow(i.beta, 4), lj = std::pow(j.beta, 4);
        if (i.beta == j.beta && i.sigma == j.sigma)
          sum += d.rhoA * i.A * j.A * beam_square_integral(i, d.L);
        else if (std::abs(li - lj) < coincidence * std::max(li, lj))
          sum += beam_product_quadrature(d, i, j);
        else // (λi − λj) ∫Yi Yj = [Yi''' Yj − Yi Yj''']_L: clamped at 0, no moment at L
          sum += d.rhoA * (i.beam(d.L, 3, d.L) * j.beam(d.L, 0, d.L) - i.beam(d.L, 0, d.L) * j.beam(d.L, 3, d.L)) /
                 (li - lj);
      }
    if (i.b != 0.0 && j.b != 0.0)
      {
        const double ki = i.k * i.k, kj = j.k * j.k;
        if (i.k == j.k)
          sum += d.rhoAs * i.b * j.b * rod_square_integral(i.k, d.l);
        else if (std::abs(ki - kj) < coincidence * std::max(ki, kj))
          sum += rod_product_quadrature(d, i, j);
        else // (ki² − kj²) ∫Ui Uj = [Ui Uj' − Ui' Uj]_l: fixed at 0
          sum += d.rhoAs * (i.rod(d.l, 0) * j.rod(d.l, 1) - i.rod(d.l, 1) * j.rod(d.l, 0)) / (ki - kj);
      }
    return sum;
  }

  Eigen::MatrixXd mass_products(const BeamRodData &d, const std::vector<WaveMode> &rows,
                                const std::vector<WaveMode> &cols)
  {
    // End values: Y(L), Y'''(L), lambda = beta^4 of the beam part, U(l), U'(l), k^2 of the rod part.
    struct Ends
    {
      double y, y3, lambda, u, u1, k2;
    };
    const auto ends = [&](const std::vector<WaveMode> &modes) {
      std::vector<Ends> e;
      e.reserve(modes.size());
      for (const auto &m : modes)
        e.push_back({m.beam(d.L, 0, d.L), m.beam(d.L, 3, d.L), std::pow(m.beta, 4), m.rod(d.l, 0), m.rod(d.l, 1),
                     m.k * m.k});
      return e;
    };
    const auto      r = ends(rows), c = ends(cols);
    Eigen::MatrixXd G(rows.size(), cols.size());
    for (std::size_t j = 0; j < cols.size(); ++j)
      for (std::size_t i = 0; i < rows.size(); ++i)
        {
          const auto &a = r[i], &b = c[j];
          const bool  beams = rows[i].A != 0.0 && cols[j].A != 0.0, rods = rows[i].b != 0.0 && cols[j].b != 0.0;
          const bool  special =
            (beams && std::abs(a.lambda - b.lambda) < coincidence * std::max(a.lambda, b.lambda)) ||
            (rods && std::abs(a.k2 - b.k2) < coincidence * std::max(a.k2, b.k2));
          if (special)
            G(i, j) = mass_product(d, rows[i], cols[j]);
          else
            G(i, j) = (beams ? d.rhoA * (a.y3 * b.y - a.y * b.y3) / (a.lambda - b.lambda) : 0.0) +
                      (rods ? d.rhoAs * (a.u * b.u1 - a.u1 * b.u) / (a.k2 - b.k2) : 0.0);
        }
    return G;
  }

  double mass_product_by_quadrature(const BeamRodData &d, const WaveMode &i, const WaveMode &j)
  {
    return (i.A != 0.0 && j.A != 0.0 ? beam_product_quadrature(d, i, j) : 0.0) +
           (i.b != 0.0 && j.b != 0.0 ? rod_product_quadrature(d, i, j) : 0.0);
  }

  double mass_product(const BeamRodData &d, const WaveMode &m, const StaticShape &shape)
  {
    // ∫Y p = [Y'''p − Y''p' + Y'p'' − Y p''']/λ with p = 3Lx² − x³ (clamped Y, Y''(L) = 0):
    // (2L³ Y'''(L) + 6 Y(L))/λ; ∫U ξ = (U(l) − l U'(l))/k².
    double sum = 0.0;
    if (m.A != 0.0 && shape.c != 0.0)
      sum += d.rhoA * shape.c * (2 * std::pow(d.L, 3) * m.beam(d.L, 3, d.L) + 6 * m.beam(d.L, 0, d.L)) /
             std::pow(m.beta, 4);
    if (m.b != 0.0 && shape.e != 0.0)
      sum += d.rhoAs * shape.e * (m.rod(d.l, 0) - d.l * m.rod(d.l, 1)) / (m.k * m.k);
    return sum;
  }

  double mass_product(const BeamRodData &d, const StaticShape &a, const StaticShape &b)
  {
    return d.rhoA * a.c * b.c * 33.0 / 35.0 * std::pow(d.L, 7) + d.rhoAs * a.e * b.e * std::pow(d.l, 3) / 3;
  }

  double strain_energy(const BeamRodData &d, const StaticShape &s)
  {
    return 6 * d.EI * s.c * s.c * std::pow(d.L, 3) + 0.5 * d.EA * s.e * s.e * d.l;
  }

  double beam_product_with_cubic(const BeamRodData &d, const WaveMode &m, const double a, const double b,
                                 const double (&fa)[4], const double (&fb)[4])
  {
    if (m.A == 0.0)
      return 0.0;
    // Y'''' = λY: ∫Y f = [Y'''f − Y''f' + Y'f'' − Y f''']/λ for a cubic f.
    const auto bracket = [&](double x, const double(&f)[4]) {
      return m.beam(x, 3, d.L) * f[0] - m.beam(x, 2, d.L) * f[1] + m.beam(x, 1, d.L) * f[2] - m.beam(x, 0, d.L) * f[3];
    };
    return d.rhoA * (bracket(b, fb) - bracket(a, fa)) / std::pow(m.beta, 4);
  }

  double rod_product_with_cubic(const BeamRodData &d, const WaveMode &m, const double a, const double b,
                                const double (&fa)[4], const double (&fb)[4])
  {
    if (m.b == 0.0)
      return 0.0;
    // U'' = −k²U: ∫U f = [−U'f/k² + U f'/k² + U'f''/k⁴ − U f'''/k⁴] for a cubic f.
    const double k2      = m.k * m.k;
    const auto   bracket = [&](double x, const double(&f)[4]) {
      const double U = m.rod(x, 0), U1 = m.rod(x, 1);
      return (-U1 * f[0] + U * f[1]) / k2 + (U1 * f[2] - U * f[3]) / (k2 * k2);
    };
    return d.rhoAs * (bracket(b, fb) - bracket(a, fa));
  }
} // namespace vibroimpact::reference
