// The one compilation of the factorisations that model/eigen_decompositions.h declares.
#include <vibroimpact/model/eigen_decompositions.h>

namespace compiled_once = vibroimpact::model::compiled_once;

template struct Eigen::internal::general_matrix_vector_product<
  Eigen::Index, double, Eigen::internal::const_blas_data_mapper<double, Eigen::Index, Eigen::ColMajor>,
  Eigen::ColMajor, false, double, Eigen::internal::const_blas_data_mapper<double, Eigen::Index, Eigen::RowMajor>,
  false, 0>;
template struct Eigen::internal::general_matrix_vector_product<
  Eigen::Index, double, Eigen::internal::const_blas_data_mapper<double, Eigen::Index, Eigen::RowMajor>,
  Eigen::RowMajor, false, double, Eigen::internal::const_blas_data_mapper<double, Eigen::Index, Eigen::ColMajor>,
  false, 0>;
template void Eigen::internal::assign_sparse_to_sparse(compiled_once::SparseMatrix &,
                                                       const compiled_once::SparseMatrix &);
template void Eigen::PartialPivLU<compiled_once::DenseMatrix>::compute();
template void Eigen::ColPivHouseholderQR<compiled_once::DenseMatrix>::computeInPlace();
template Eigen::SelfAdjointEigenSolver<compiled_once::DenseMatrix> &
Eigen::SelfAdjointEigenSolver<compiled_once::DenseMatrix>::compute(const Eigen::EigenBase<compiled_once::DenseMatrix> &,
                                                                   int);
template Eigen::GeneralizedSelfAdjointEigenSolver<compiled_once::DenseMatrix> &
Eigen::GeneralizedSelfAdjointEigenSolver<compiled_once::DenseMatrix>::compute(const compiled_once::DenseMatrix &,
                                                                              const compiled_once::DenseMatrix &, int);
template void Eigen::SimplicialCholeskyBase<compiled_once::SparseLDLT>::ordering(const compiled_once::SparseMatrix &,
                                                                                 const compiled_once::SparseMatrix *&,
                                                                                 compiled_once::SparseMatrix &);
template void
Eigen::SimplicialCholeskyBase<compiled_once::SparseLDLT>::analyzePattern_preordered(const compiled_once::SparseMatrix &,
                                                                                    bool);
template void
Eigen::SimplicialCholeskyBase<compiled_once::SparseLDLT>::factorize_preordered<true>(const compiled_once::SparseMatrix &);
