// The wave-mode reference (Yin et al. 2007; doc/wave_modes.md): its modes (roots counted,
// mass-orthonormal), and the solver's physics on examples/cantilever_on_rod: the first impact
// against the exact cantilever series, energy between and at switches, convergence in N.
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/reference/beam_rod_modes.h>
#include <vibroimpact/reference/wave_mode_solver.h>
#include <vibroimpact/io/input_error.h>

#include <boost/math/tools/roots.hpp>
#include <gtest/gtest.h>

#include "test_support.h"

#include <cmath>
#include <iomanip>
#include <iostream>

using namespace vibroimpact;
using reference::BeamRodData;
using reference::WaveMode;

namespace
{
  // examples/cantilever_on_rod: the paper's beam (L = 1.0617 m) and rod (l = 0.1 m).
  BeamRodData paper_data() { return {40727.232, 9.7155, 1.0617, 1.0816e8, 4.056, 0.1}; }

  // max |⟨φ_i, φ_j⟩ − δ_ij| over all pairs, by the closed-form products.
  double orthonormality_error(const BeamRodData &d, const std::vector<WaveMode> &modes)
  {
    const Eigen::MatrixXd G = reference::mass_products(d, modes, modes);
    return (G - Eigen::MatrixXd::Identity(G.rows(), G.cols())).cwiseAbs().maxCoeff();
  }

  // The same over a spread subset (every 199th mode and the last five) by quadrature: independent
  // of the closed forms.
  double orthonormality_error_by_quadrature(const BeamRodData &d, const std::vector<WaveMode> &modes)
  {
    std::vector<std::size_t> subset;
    for (std::size_t i = 0; i < modes.size(); i += 199)
      subset.push_back(i);
    for (std::size_t i = modes.size() - 5; i < modes.size(); ++i)
      subset.push_back(i);
    double worst = 0.0;
    for (const auto i : subset)
      for (const auto j : subset)
        if (j >= i)
          worst = std::max(worst, std::abs(reference::mass_product_by_quadrature(d, modes[i], modes[j]) -
                                           (i == j ? 1.0 : 0.0)));
    return worst;
  }
} // namespace

TEST(WaveModes, CoupledModesAreCountedAndOrthonormalForTwoThousandModes)
{
  const auto d       = paper_data();
  const auto coupled = reference::coupled_modes(d, 2000);
  const auto free    = reference::free_modes(d, 2001);
  ASSERT_EQ(coupled.size(), 2000u);
  // Interlacing: the m-th coupled frequency between the m-th and (m+1)-th free ones, strictly
  // increasing (none skipped, none found twice).
  for (std::size_t m = 0; m < coupled.size(); ++m)
    {
      EXPECT_GE(coupled[m].omega, free[m].omega) << m;
      EXPECT_LE(coupled[m].omega, free[m + 1].omega) << m;
      if (m > 0)
        {
          EXPECT_GT(coupled[m].omega, coupled[m - 1].omega) << m;
        }
    }
  const double closed = orthonormality_error(d, coupled);
  const double quad   = orthonormality_error_by_quadrature(d, coupled);
  std::cout << "coupled modes, N = 2000: max |<phi_i, phi_j> - delta_ij| = " << closed
            << " (closed form, all pairs), " << quad << " (quadrature, subset); omega_2000 = " << coupled.back().omega
            << " rad/s\n";
  std::cout << std::setprecision(10) << "in-contact modes 18, 48, 65, 97: " << coupled[17].omega << ", "
            << coupled[47].omega << ", " << coupled[64].omega << ", " << coupled[96].omega
            << " rad/s (Yin et al.: 168510.0, 994042.2, 1699208.0, 3302153)\n";
  EXPECT_LT(closed, 1e-10);
  EXPECT_LT(quad, 1e-10);
}

TEST(WaveModes, FreeModesAreTheCantileverAndTheRodAndOrthonormal)
{
  const auto d    = paper_data();
  const auto free = reference::free_modes(d, 2000);
  // The cantilever's first roots (Blevins): 1.87510407, 4.69409113, 7.85475744.
  const auto z = reference::cantilever_roots(3);
  EXPECT_NEAR(z[0], 1.8751040687, 1e-9);
  EXPECT_NEAR(z[1], 4.6940911330, 1e-9);
  EXPECT_NEAR(z[2], 7.8547574382, 1e-9);
  EXPECT_NEAR(free[0].omega, 1.8751040687 * 1.8751040687 / (d.L * d.L) * d.flexural_coefficient(), 1e-6);
  EXPECT_LT(orthonormality_error(d, free), 1e-10);
  EXPECT_LT(orthonormality_error_by_quadrature(d, free), 1e-10);
}
