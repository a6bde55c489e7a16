// The eigenvalues and eigenvectors of a real square matrix: a monodromy's Floquet multipliers,
// a closed contact set's first-order dynamics. One function, so that Eigen's nonsymmetric
// eigensolver is compiled in one source (source/periodic/eigenpairs.cc) rather than in every
// source that needs it (~4 s of compile time each, for the same code).
#pragma once

#include <Eigen/Core>

namespace vibroimpact::periodic
{
  struct Eigenpairs
  {
    bool             converged = false; // the QR iteration converged (values and vectors are set)
    Eigen::VectorXcd values;
    Eigen::MatrixXcd vectors; // unit columns, the values' order; empty unless asked for
  };

  Eigenpairs eigenpairs(const Eigen::MatrixXd &matrix, bool with_vectors);
} // namespace vibroimpact::periodic
