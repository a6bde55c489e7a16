// Natural frequencies and modes of a model (see model/modal_analysis.h): a dense generalised
// eigensolve (Eigen) for small models, ARPACK shift-invert for large ones; unit-peak shapes.
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/model/non_reentrant.h>

#include <deal.II/lac/arpack_solver.h>
#include <deal.II/lac/solver_control.h>
#include <deal.II/lac/vector.h>

#include <Eigen/SparseCholesky>

#include <algorithm>
#include <complex>
#include <functional>
#include <random>
#include <stdexcept>

namespace vibroimpact::model
{
  namespace
  {
    using DealVector = dealii::Vector<double>;

    // Adapters that let ARPACK (through deal.II) apply Eigen's sparse operators.
    struct SparseOperator
    {
      const SparseMatrix &matrix;
      void vmult(DealVector &dst, const DealVector &src) const
      {
        Eigen::Map<const Vector> x(src.begin(), src.size());
        Eigen::Map<Vector>       y(dst.begin(), dst.size());
        y = matrix * x;
      }
    };

    struct ShiftedInverse
    {
      const Eigen::SimplicialLDLT<SparseMatrix> &factor;
      // Modes already found (M-orthonormal, with M times them), projected out of every result so
      // that they have eigenvalue 0 (deflation); empty: none.
      const Eigen::MatrixXd *found = nullptr, *mass_found = nullptr;
      void vmult(DealVector &dst, const DealVector &src) const
      {
        Eigen::Map<const Vector> x(src.begin(), src.size());
        Eigen::Map<Vector>       y(dst.begin(), dst.size());
        y = factor.solve(x);
        if (found != nullptr && found->cols() > 0)
          y -= *found * (mass_found->transpose() * y);
      }
    };

    double omega_from_eigenvalue(const double lambda)
    {
      // Rigid-body modes come out as round-off around zero.
      return std::sqrt(std::max(lambda, 0.0));
    }

    // 2 U(φ) = φᵀ K φ: from the strains where the model can (no cancellation), else from K.
    using StrainEnergy = std::function<double(const Vector &)>;

    void normalise_and_sort(ModalBasis &basis, const SparseMatrix &mass, const SparseMatrix &stiffness,
                            const StrainEnergy &strain_energy = {})
    {
      const Eigen::Index m = basis.omegas.size();
      std::vector<Eigen::Index> order(m);
      for (Eigen::Index j = 0; j < m; ++j)
        order[j] = j;
      std::sort(order.begin(), order.end(), [&](auto a, auto b) {
        return basis.omegas[a] < basis.omegas[b];
      });
      ModalBasis sorted{Vector(m), Eigen::MatrixXd(basis.shapes.rows(), m), basis.method};
      for (Eigen::Index j = 0; j < m; ++j)
        {
          Vector phi = basis.shapes.col(order[j]);
          phi /= std::sqrt(phi.dot(mass * phi));
          // The Rayleigh quotient of the eigenvector is accurate to the square of the vector's
          // error, where the eigensolvers' eigenvalues of fine beam meshes carry the round-off
          // of cond(K) ~ N^4 (4e-6 against 4e-8 at 1000 elements).
          basis.omegas[order[j]] =
            omega_from_eigenvalue(strain_energy ? 2 * strain_energy(phi) : phi.dot(stiffness * phi));
          // A reproducible sign: the largest entry positive.
          Eigen::Index imax;
          phi.cwiseAbs().maxCoeff(&imax);
          if (phi[imax] < 0)
            phi = -phi;
          sorted.omegas[j]     = basis.omegas[order[j]];
          sorted.shapes.col(j) = phi;
        }
      basis = std::move(sorted);
    }


    // A shift just below zero keeps K - sigma M positive definite even with rigid-body modes,
    // and is small against the spectrum.
    double shift_below_zero(const SparseMatrix &mass, const SparseMatrix &stiffness)
    {
      return -1e-10 * stiffness.diagonal().maxCoeff() / mass.diagonal().maxCoeff();
    }

    // Both solvers work on the inverted problem M phi = mu (K - sigma M) phi, mu = 1/(lambda -
    // sigma): its largest eigenvalues are the lowest modes, computed to a precision relative to
    // themselves. Solving K phi = lambda M phi directly loses the lowest frequencies of fine
    // meshes to round-off relative to the highest (cond(K) ~ N^4 for beams).
    ModalBasis dense_modes(const SparseMatrix &mass,
                           const SparseMatrix &stiffness,
                           const unsigned int  n_modes)
    {
      const double          sigma = shift_below_zero(mass, stiffness);
      const Eigen::MatrixXd M(mass), shifted(stiffness - sigma * mass);
      Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> solver(M, shifted);
      if (solver.info() != Eigen::Success)
        throw std::runtime_error("dense generalised eigensolver failed (is M positive definite?)");
      const auto         n = M.rows();
      const unsigned int m = std::min<unsigned int>(n_modes, n);
      ModalBasis         basis;
      basis.method = "dense (Eigen, all eigenpairs, inverted problem)";
      basis.omegas.resize(m);
      basis.shapes.resize(n, m);
      for (unsigned int j = 0; j < m; ++j) // mu ascending: the lowest modes come last
        {
          basis.omegas[j]     = omega_from_eigenvalue(sigma + 1.0 / solver.eigenvalues()[n - 1 - j]);
          basis.shapes.col(j) = solver.eigenvectors().col(n - 1 - j);
        }
      return basis;
    }

    ModalBasis arpack_modes(const SparseMatrix &mass,
                            const SparseMatrix &stiffness,
                            const unsigned int  n_modes,
                            const Eigen::MatrixXd *found = nullptr,
                            const unsigned int     seed  = 0)
    {
      const Eigen::Index n = mass.rows();
      const double sigma = shift_below_zero(mass, stiffness);
      const SparseMatrix                  shifted = stiffness - sigma * mass;
      Eigen::SimplicialLDLT<SparseMatrix> factor(shifted);
      if (factor.info() != Eigen::Success)
        throw std::runtime_error("sparse LDL^T of K - sigma M failed");
      const Eigen::MatrixXd mass_found = found != nullptr ? Eigen::MatrixXd(mass * *found) : Eigen::MatrixXd();

      const unsigned int n_arnoldi =
        std::min<unsigned int>(n - 1, std::max<unsigned int>(2 * n_modes + 2, 30));
      dealii::SolverControl control(10000, 1e-12);
      dealii::ArpackSolver  solver(control,
                                  dealii::ArpackSolver::AdditionalData(
                                    n_arnoldi, dealii::ArpackSolver::largest_magnitude, true));
      solver.set_shift(sigma);
      // deal.II starts Lanczos from (1, ..., 1), which has equal parts in a tube's two planes and
      // so never reaches the modes with opposite parts: a seeded pseudo-random start does.
      if (seed != 0)
        {
          std::mt19937_64                        generator(seed);
          std::uniform_real_distribution<double> uniform(-1.0, 1.0);
          DealVector                             start(n);
          for (auto &entry : start)
            entry = uniform(generator);
          solver.set_initial_vector(start);
        }

      std::vector<std::complex<double>> eigenvalues(n_modes);
      std::vector<DealVector>           eigenvectors(n_modes, DealVector(n));
      // ARPACK keeps its Lanczos state in Fortran SAVE variables: one eigensolve at a time.
      const std::lock_guard<std::mutex> one_arpack(arpack_mutex());
      solver.solve(SparseOperator{stiffness},
                   SparseOperator{mass},
                   ShiftedInverse{factor, found, &mass_found},
                   eigenvalues,
                   eigenvectors,
                   n_modes);

      ModalBasis basis;
      basis.method = "ARPACK shift-invert (deal.II ArpackSolver, sparse LDL^T)";
      basis.omegas.resize(n_modes);
      basis.shapes.resize(n, n_modes);
      for (unsigned int j = 0; j < n_modes; ++j)
        {
          basis.omegas[j]     = omega_from_eigenvalue(eigenvalues[j].real());
          basis.shapes.col(j) = Eigen::Map<const Vector>(eigenvectors[j].begin(), n);
        }
      return basis;
    }

    // Lanczos (ARPACK) finds one vector of each eigenspace its starting vector reaches: of a
    // tube's pairs of equal bending frequencies (one in each plane) it finds one. Further runs
    // on the operator with the modes found so far projected out (deflation) find the partners;
    // the lowest n_modes of all are kept, until a run finds nothing below the highest kept.
    ModalBasis arpack_modes_with_multiplicity(const SparseMatrix &mass, const SparseMatrix &stiffness,
                                              const unsigned int n_modes)
    {
      ModalBasis basis = arpack_modes(mass, stiffness, n_modes, nullptr, 1);
      for (unsigned int pass = 0; pass < 8; ++pass)
        {
          normalise_and_sort(basis, mass, stiffness); // M-orthonormal, ascending
          if (basis.shapes.cols() >= mass.rows() - 2)
            break;
          const auto   more    = std::min<Eigen::Index>(n_modes, mass.rows() - 2 - basis.shapes.cols());
          ModalBasis   further = arpack_modes(mass, stiffness, static_cast<unsigned int>(more), &basis.shapes, pass + 2);
          const double highest = basis.omegas[n_modes - 1];
          if (further.omegas.minCoeff() >= highest * (1 - 1e-10))
            break;
          ModalBasis merged{Vector(basis.omegas.size() + further.omegas.size()),
                            Eigen::MatrixXd(mass.rows(), basis.omegas.size() + further.omegas.size()), basis.method};
          merged.omegas << basis.omegas, further.omegas;
          merged.shapes << basis.shapes, further.shapes;
          normalise_and_sort(merged, mass, stiffness);
          basis = ModalBasis{merged.omegas.head(n_modes), merged.shapes.leftCols(n_modes),
                             "ARPACK shift-invert with deflation (repeated frequencies)"};
        }
      return basis;
    }

    // A body bending in two planes has its frequencies in pairs: its model needs the deflated runs.
    bool may_repeat_frequencies(const StructuralModel &model)
    {
      for (const auto &body : model.continuum.bodies)
        if (body.repeated_frequencies)
          return true;
      return false;
    }
  } // namespace

  ModalBasis compute_modes(const SparseMatrix &mass,
                           const SparseMatrix &stiffness,
                           const unsigned int  n_modes,
                           const unsigned int  dense_limit)
  {
    if (mass.rows() == 0 || n_modes == 0)
      return ModalBasis{};
    if (Eigen::Index(n_modes) > mass.rows()) // the eigensolvers would write past their storage
      throw std::invalid_argument("asked for " + std::to_string(n_modes) + " modes of a model with " +
                                  std::to_string(mass.rows()) + " DoFs");
    ModalBasis basis = (mass.rows() < dense_limit || n_modes + 2 >= mass.rows()) ?
                         dense_modes(mass, stiffness, n_modes) :
                         arpack_modes(mass, stiffness, n_modes);
    normalise_and_sort(basis, mass, stiffness);
    return basis;
  }

  ModalBasis compute_modes(const StructuralModel &model, const unsigned int n_modes, const unsigned int dense_limit)
  {
    if (model.mass.rows() == 0 || n_modes == 0)
      return ModalBasis{};
    if (Eigen::Index(n_modes) > model.mass.rows()) // the eigensolvers would write past their storage
      throw std::invalid_argument("asked for " + std::to_string(n_modes) + " modes of a model with " +
                                  std::to_string(model.mass.rows()) + " DoFs");
    ModalBasis basis = (model.mass.rows() < dense_limit || n_modes + 2 >= model.mass.rows()) ?
                         dense_modes(model.mass, model.stiffness, n_modes) :
                       may_repeat_frequencies(model) ?
                         arpack_modes_with_multiplicity(model.mass, model.stiffness, n_modes) :
                         arpack_modes(model.mass, model.stiffness, n_modes);
    normalise_and_sort(basis, model.mass, model.stiffness, model.strain_energy);
    return basis;
  }
} // namespace vibroimpact::model

namespace vibroimpact::model
{
  namespace
  {
    // The scalar displacement of each drawn point along its body's motion direction.
    Vector along_motion(const OutputGeometry &geometry, const Vector &u)
    {
      const Vector sampled = geometry.displacement_map * u;
      Vector       scalar(geometry.points.size());
      for (std::size_t p = 0; p < geometry.points.size(); ++p)
        {
          const auto &d = geometry.body_directions[geometry.point_body[p]];
          scalar[p]     = d[0] * sampled[3 * p] + d[1] * sampled[3 * p + 1] + d[2] * sampled[3 * p + 2];
        }
      return scalar;
    }

    // Whether the mode's largest 3-D displacement is its largest displacement along the bodies'
    // motion directions: always for beams, rods and masses (their points move along it), not for
    // a tube's modes in its e2 plane, its twist or a pair turned between its planes.
    bool moves_along_motion(const OutputGeometry &geometry, const Vector &u, const double peak_along)
    {
      const Vector sampled = geometry.displacement_map * u;
      double       largest = 0;
      for (std::size_t p = 0; p < geometry.points.size(); ++p)
        largest = std::max(largest, sampled.segment<3>(3 * p).norm());
      return peak_along > 0 && peak_along >= largest * (1 - 1e-12);
    }

    // A tube's mode drawn along the direction its largest displacement takes (e2 for a mode in the
    // e2 plane); a twist mode, which moves no drawn point, is scaled by its largest DoF and drawn 0.
    double along_largest_motion(const OutputGeometry &geometry, const Vector &u, Vector &drawn, Eigen::Index &at_peak)
    {
      const Vector sampled = geometry.displacement_map * u;
      Eigen::Index largest = 0;
      for (std::size_t p = 0; p < geometry.points.size(); ++p)
        if (sampled.segment<3>(3 * p).norm() > sampled.segment<3>(3 * largest).norm())
          largest = static_cast<Eigen::Index>(p);
      const double norm = geometry.points.empty() ? 0.0 : sampled.segment<3>(3 * largest).norm();
      if (!(norm > 0))
        {
          drawn.setZero();
          at_peak = 0;
          return u.cwiseAbs().maxCoeff();
        }
      const Eigen::Vector3d direction = sampled.segment<3>(3 * largest) / norm;
      for (std::size_t p = 0; p < geometry.points.size(); ++p)
        drawn[p] = direction.dot(sampled.segment<3>(3 * p));
      at_peak = largest;
      return std::abs(drawn[largest]);
    }
  } // namespace

  DrawnModes unit_peak_modes(const ModalBasis &modes, const OutputGeometry &geometry)
  {
    const Eigen::Index m = modes.shapes.cols();
    DrawnModes         out;
    out.shapes.resize(modes.shapes.rows(), m);
    out.drawn.resize(geometry.points.size(), m);
    for (Eigen::Index j = 0; j < m; ++j)
      {
        Vector       drawn = along_motion(geometry, modes.shapes.col(j));
        Eigen::Index at_peak;
        double       peak = drawn.cwiseAbs().maxCoeff(&at_peak);
        if (!moves_along_motion(geometry, modes.shapes.col(j), peak))
          peak = along_largest_motion(geometry, modes.shapes.col(j), drawn, at_peak);
        const double sign = drawn[at_peak] > 0 ? 1.0 : -1.0;
        out.shapes.col(j) = modes.shapes.col(j) / (sign * peak);
        out.drawn.col(j)  = drawn / (sign * peak);
        out.generalised_mass.push_back(1.0 / (peak * peak));
      }
    return out;
  }
} // namespace vibroimpact::model
