// Cubic Hermite shape functions of the C1 beam element on x = x_left + h xi, xi in [0, 1],
// for the DoFs (w_left, w'_left, w_right, w'_right). The slope functions carry the Jacobian h
// so that their DoFs are physical slopes dw/dx (doc/theory.md).
#pragma once

#include <array>

namespace vibroimpact::structure::HermiteCubic
{
  inline std::array<double, 4> values(const double xi, const double h)
  {
    const double xi2 = xi * xi, xi3 = xi2 * xi;
    return {{1 - 3 * xi2 + 2 * xi3, h * (xi - 2 * xi2 + xi3), 3 * xi2 - 2 * xi3, h * (xi3 - xi2)}};
  }

  // d/dx
  inline std::array<double, 4> first_derivatives(const double xi, const double h)
  {
    const double xi2 = xi * xi;
    return {{(6 * xi2 - 6 * xi) / h, 1 - 4 * xi + 3 * xi2, (6 * xi - 6 * xi2) / h, 3 * xi2 - 2 * xi}};
  }

  // d^2/dx^2
  inline std::array<double, 4> second_derivatives(const double xi, const double h)
  {
    return {{(12 * xi - 6) / (h * h), (6 * xi - 4) / h, (6 - 12 * xi) / (h * h), (6 * xi - 2) / h}};
  }
} // namespace vibroimpact::structure::HermiteCubic
