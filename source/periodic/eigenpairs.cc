// Eigen's nonsymmetric eigensolver for the library and the continuation (eigenpairs.h).
#include <vibroimpact/periodic/eigenpairs.h>

#include <Eigen/Eigenvalues>

namespace vibroimpact::periodic
{
  Eigenpairs eigenpairs(const Eigen::MatrixXd &matrix, const bool with_vectors)
  {
    const Eigen::EigenSolver<Eigen::MatrixXd> solver(matrix, with_vectors);
    Eigenpairs                                result;
    result.converged = solver.info() == Eigen::Success;
    if (!result.converged)
      return result;
    result.values = solver.eigenvalues();
    if (with_vectors)
      result.vectors = solver.eigenvectors();
    return result;
  }
} // namespace vibroimpact::periodic
