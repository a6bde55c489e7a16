// The factorisations of Eigen's decompositions that many sources use, and the kernels of a dense
// matrix–vector product and a sparse copy, declared here as compiled elsewhere (explicit
// instantiation declarations of the one member that does the work): they are compiled once, in
// source/model/eigen_decompositions.cc at -O2, not again in each unity group that uses them
// (~1–2 s of compile time each for a factorisation, for the same code). The rest of each class
// (its solves, its accessors) is inline and stays where it is used. The precompiled
// header includes this, so every source of the library, its verbs and its tests sees it; a
// source compiled without it makes its own copy of the same code.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>

namespace vibroimpact::model::compiled_once
{
  using DenseMatrix  = Eigen::MatrixXd;
  using SparseMatrix = Eigen::SparseMatrix<double>;
  using SparseLDLT   = Eigen::SimplicialLDLT<SparseMatrix>;
} // namespace vibroimpact::model::compiled_once

// y += A x and y += Aᵀ x on a MatrixXd (Eigen never inlines these kernels).
extern template struct Eigen::internal::general_matrix_vector_product<
  Eigen::Index, double, Eigen::internal::const_blas_data_mapper<double, Eigen::Index, Eigen::ColMajor>,
  Eigen::ColMajor, false, double, Eigen::internal::const_blas_data_mapper<double, Eigen::Index, Eigen::RowMajor>,
  false, 0>;
extern template struct Eigen::internal::general_matrix_vector_product<
  Eigen::Index, double, Eigen::internal::const_blas_data_mapper<double, Eigen::Index, Eigen::RowMajor>,
  Eigen::RowMajor, false, double, Eigen::internal::const_blas_data_mapper<double, Eigen::Index, Eigen::ColMajor>,
  false, 0>;
// A sparse matrix assigned from another (a copy that sorts or transposes).
extern template void Eigen::internal::assign_sparse_to_sparse(vibroimpact::model::compiled_once::SparseMatrix &,
                                                              const vibroimpact::model::compiled_once::SparseMatrix &);
// Dense LU with partial pivoting (.partialPivLu(), .inverse(), .determinant() of a MatrixXd).
extern template void Eigen::PartialPivLU<vibroimpact::model::compiled_once::DenseMatrix>::compute();
// QR with column pivoting (least squares on a contact set).
extern template void Eigen::ColPivHouseholderQR<vibroimpact::model::compiled_once::DenseMatrix>::computeInPlace();
// Symmetric and generalised symmetric eigenproblems (modes, held-contact frequencies).
extern template Eigen::SelfAdjointEigenSolver<vibroimpact::model::compiled_once::DenseMatrix> &
Eigen::SelfAdjointEigenSolver<vibroimpact::model::compiled_once::DenseMatrix>::compute(
  const Eigen::EigenBase<vibroimpact::model::compiled_once::DenseMatrix> &, int);
extern template Eigen::GeneralizedSelfAdjointEigenSolver<vibroimpact::model::compiled_once::DenseMatrix> &
Eigen::GeneralizedSelfAdjointEigenSolver<vibroimpact::model::compiled_once::DenseMatrix>::compute(
  const vibroimpact::model::compiled_once::DenseMatrix &, const vibroimpact::model::compiled_once::DenseMatrix &,
  int);
// Sparse LDLᵀ (the stepper's iteration matrix, static solves): its ordering, analysis and
// numeric factorisation.
extern template void Eigen::SimplicialCholeskyBase<vibroimpact::model::compiled_once::SparseLDLT>::ordering(
  const vibroimpact::model::compiled_once::SparseMatrix &, const vibroimpact::model::compiled_once::SparseMatrix *&,
  vibroimpact::model::compiled_once::SparseMatrix &);
extern template void
Eigen::SimplicialCholeskyBase<vibroimpact::model::compiled_once::SparseLDLT>::analyzePattern_preordered(
  const vibroimpact::model::compiled_once::SparseMatrix &, bool);
extern template void Eigen::SimplicialCholeskyBase<vibroimpact::model::compiled_once::SparseLDLT>::factorize_preordered<
  true>(const vibroimpact::model::compiled_once::SparseMatrix &);
