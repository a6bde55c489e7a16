// The friction-contact solver (see contact/friction_contact_solver.h): Siconos numerics'
// fc3d_driver / fc2d_driver behind one call, with a fallback chain and our own check of the
// Coulomb law on every answer.
#include <vibroimpact/contact/friction_contact_solver.h>
#include <vibroimpact/model/non_reentrant.h>

#include "siconos_attempt.h"

#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace vibroimpact::contact
{
  namespace
  {
    // Projection onto the Coulomb cone {|x_t| <= μ x_n} (μ = 0: the ray x_t = 0, x_n >= 0).
    Eigen::VectorXd project_on_cone(const Eigen::VectorXd &x, const double mu)
    {
      const double    xn = x[0];
      const double    s  = x.tail(x.size() - 1).norm();
      Eigen::VectorXd p  = Eigen::VectorXd::Zero(x.size());
      if (s <= mu * xn)
        return x;
      if (mu * s <= -xn)
        return p;
      const double pn = (xn + mu * s) / (1 + mu * mu);
      p[0]            = pn;
      if (s > 0)
        p.tail(x.size() - 1) = (mu * pn / s) * x.tail(x.size() - 1);
      return p;
    }

    struct FrictionContactAttempt
    {
      int    info          = 1;
      double siconos_error = 0.0;
      double law_error     = 0.0;
      bool   valid         = false;
    };

    const std::vector<std::pair<std::string, int>> &algorithms(const int dimension)
    {
      static const std::vector<std::pair<std::string, int>> three{{"fc3d NSGS", SICONOS_FRICTION_3D_NSGS},
                                                                  {"fc3d NSN_AC", SICONOS_FRICTION_3D_NSN_AC},
                                                                  {"fc3d ADMM", SICONOS_FRICTION_3D_ADMM}};
      static const std::vector<std::pair<std::string, int>> two{{"fc2d NSGS", SICONOS_FRICTION_2D_NSGS},
                                                                {"fc2d Lemke", SICONOS_FRICTION_2D_LEMKE},
                                                                {"fc2d Enum", SICONOS_FRICTION_2D_ENUM}};
      return dimension == 3 ? three : two;
    }

    FrictionContactAttempt attempt(const int dimension, const int id, const Eigen::MatrixXd &W, Eigen::VectorXd &q,
                          Eigen::VectorXd &mu, Eigen::VectorXd &r, Eigen::VectorXd &u, const double tolerance)
    {
      const int n = static_cast<int>(q.size());
      // Held until the attempt's options are freed: fc3d's one-contact Newton solvers keep their
      // functions in file-scope statics (model/non_reentrant.h).
      const std::lock_guard<std::mutex> one_siconos(model::siconos_mutex());
      SiconosAttempt                    a;
      a.matrix = NM_create(NM_DENSE, n, n);
      std::copy(W.data(), W.data() + static_cast<std::size_t>(n) * n, a.matrix->matrix0); // column-major both

      FrictionContactProblem problem;
      problem.dimension        = dimension;
      problem.numberOfContacts = n / dimension;
      problem.M                = a.matrix;
      problem.q                = q.data();
      problem.mu               = mu.data();

      a.options                                  = solver_options_create(id);
      a.options->dparam[SICONOS_DPARAM_TOL]      = tolerance;
      a.options->iparam[SICONOS_IPARAM_MAX_ITER] = 10000;

      r.setZero();
      u.setZero();
      FrictionContactAttempt result;
      result.info          = dimension == 3 ? fc3d_driver(&problem, r.data(), u.data(), a.options) :
                                              fc2d_driver(&problem, r.data(), u.data(), a.options);
      result.siconos_error = a.options->dparam[SICONOS_DPARAM_RESIDU];
      // Siconos' verdict is not trusted alone: u is recomputed and the law checked here.
      if (r.allFinite())
        {
          u               = W * r + q;
          result.law_error = coulomb_law_error(dimension, W, q, mu, r, u);
        }
      else
        result.law_error = std::numeric_limits<double>::infinity();
      result.valid = result.info == 0 && result.law_error <= tolerance;
      return result;
    }
  } // namespace

  double coulomb_law_error(const int dimension, const Eigen::MatrixXd &W, const Eigen::VectorXd &q,
                           const Eigen::VectorXd &mu, const Eigen::VectorXd &r, const Eigen::VectorXd &u)
  {
    const Eigen::Index nc = mu.size();
    double             residual = 0.0, scale_r = 0.0, scale_q = 0.0;
    for (Eigen::Index i = 0; i < nc; ++i)
      {
        const Eigen::Index at  = i * dimension;
        const double       rho = W(at, at) > 0 ? 1.0 / W(at, at) : 1.0;
        Eigen::VectorXd    ri = r.segment(at, dimension), ui = u.segment(at, dimension);
        ui[0] += mu[i] * ui.tail(dimension - 1).norm(); // De Saxcé's modified normal velocity
        residual += (ri - project_on_cone(ri - rho * ui, mu[i])).squaredNorm();
        scale_r += ri.squaredNorm();
        scale_q += rho * rho * q.segment(at, dimension).squaredNorm();
      }
    return std::sqrt(residual) / std::max({std::sqrt(scale_r), std::sqrt(scale_q), 1e-300});
  }

  FrictionContactSolver::FrictionContactSolver(const double tolerance)
    : tolerance_(tolerance)
  {}

  FrictionContactSolution FrictionContactSolver::solve(const int dimension, const Eigen::MatrixXd &W,
                                                       const Eigen::VectorXd &q_in, const Eigen::VectorXd &mu_in) const
  {
    const Eigen::Index n = q_in.size();
    if ((dimension != 2 && dimension != 3) || W.rows() != n || W.cols() != n || n != dimension * mu_in.size())
      throw std::invalid_argument("FrictionContactSolver::solve: sizes of W, q and mu do not agree");
    if ((mu_in.array() < 0).any())
      throw std::invalid_argument("FrictionContactSolver::solve: a friction coefficient is negative");

    FrictionContactSolution solution;
    solution.r = Eigen::VectorXd::Zero(n);
    solution.u = q_in;
    if (n == 0)
      return solution;

    Eigen::VectorXd    q = q_in, mu = mu_in; // Siconos takes non-const pointers
    std::ostringstream log;
    for (const auto &[name, id] : algorithms(dimension))
      {
        Eigen::VectorXd r(n), u(n);
        const auto      result = attempt(dimension, id, W, q, mu, r, u, tolerance_);
        ++solution.attempts;
        solution.algorithm     = name;
        solution.siconos_error = result.siconos_error;
        solution.law_error     = result.law_error;
        solution.r             = r;
        solution.u             = u;
        if (result.valid)
          {
            solution.message = log.str();
            return solution;
          }
        log << name << " failed (info " << result.info << ", Siconos residual " << result.siconos_error
            << ", Coulomb-law residual " << result.law_error << "); ";
      }
    solution.failed = true;
    log << "no friction-contact solver reached the tolerance " << tolerance_;
    solution.message = log.str();
    return solution;
  }
} // namespace vibroimpact::contact
