// The LCP solver (see contact/lcp_solver.h): Siconos numerics' Lemke and PGS/NSGS drivers behind
// one call, with the algorithm names of the case file.
#include <vibroimpact/contact/lcp_solver.h>
#include <vibroimpact/model/non_reentrant.h>

#include "siconos_attempt.h"

#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>

#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::contact
{
  const std::vector<std::pair<std::string, LcpAlgorithm>> &lcp_algorithm_names()
  {
    static const std::vector<std::pair<std::string, LcpAlgorithm>> names{
      {"lemke", LcpAlgorithm::lemke}, {"enum", LcpAlgorithm::enumerative}, {"pgs", LcpAlgorithm::pgs}};
    return names;
  }

  LcpAlgorithm lcp_algorithm_from_string(const std::string &name)
  {
    for (const auto &[text, algorithm] : lcp_algorithm_names())
      if (text == name)
        return algorithm;
    throw std::invalid_argument("unknown LCP solver '" + name + "' (lemke|enum|pgs)");
  }

  std::string to_string(const LcpAlgorithm algorithm)
  {
    for (const auto &[text, a] : lcp_algorithm_names())
      if (a == algorithm)
        return text;
    return "?";
  }

  namespace
  {
    int siconos_id(const LcpAlgorithm algorithm)
    {
      switch (algorithm)
        {
          case LcpAlgorithm::lemke:
            return SICONOS_LCP_LEMKE;
          case LcpAlgorithm::enumerative:
            return SICONOS_LCP_ENUM;
          case LcpAlgorithm::pgs:
            return SICONOS_LCP_PGS;
        }
      return SICONOS_LCP_LEMKE;
    }

    struct LcpAttempt
    {
      int    info  = 1;
      double error = 0.0;
      bool   valid = false;
    };

    LcpAttempt attempt(const LcpAlgorithm   algorithm,
                          const Eigen::MatrixXd &M,
                          Eigen::VectorXd       &q,
                          Eigen::VectorXd       &z,
                          Eigen::VectorXd       &w,
                          const double           tolerance)
    {
      const int n = static_cast<int>(q.size());
      // Held until the attempt's options are freed: Siconos' calls take turns (model/non_reentrant.h).
      const std::lock_guard<std::mutex> one_siconos(model::siconos_mutex());
      SiconosAttempt                    a;
      a.matrix = NM_create(NM_DENSE, n, n);
      // Eigen's default storage is column-major, as is matrix0.
      std::copy(M.data(), M.data() + static_cast<std::size_t>(n) * n, a.matrix->matrix0);

      LinearComplementarityProblem problem;
      problem.size = n;
      problem.M    = a.matrix;
      problem.q    = q.data();

      a.options = solver_options_create(siconos_id(algorithm));
      if (algorithm == LcpAlgorithm::pgs)
        {
          a.options->iparam[SICONOS_IPARAM_MAX_ITER] = 100000;
          a.options->dparam[SICONOS_DPARAM_TOL]      = 0.1 * tolerance;
        }
      else
        a.options->dparam[SICONOS_DPARAM_TOL] = 0.1 * tolerance;

      z.setZero();
      w.setZero();
      LcpAttempt result;
      result.info = linearComplementarity_driver(&problem, z.data(), w.data(), a.options);
      // The driver's own verdict is not trusted alone: the solution is checked here.
      result.valid = (lcp_compute_error(&problem, z.data(), w.data(), tolerance, &result.error) == 0);
      result.valid = result.valid && z.allFinite() && w.allFinite();
      problem.M = nullptr;
      problem.q = nullptr;
      return result;
    }
  } // namespace

  LcpSolver::LcpSolver(const LcpAlgorithm preferred, const double tolerance)
    : preferred_(preferred)
    , tolerance_(tolerance)
  {}

  std::vector<LcpAlgorithm> LcpSolver::order() const
  {
    std::vector<LcpAlgorithm> algorithms{preferred_};
    for (const auto a : {LcpAlgorithm::lemke, LcpAlgorithm::enumerative, LcpAlgorithm::pgs})
      if (a != preferred_)
        algorithms.push_back(a);
    return algorithms;
  }

  LcpSolution LcpSolver::solve(const Eigen::MatrixXd &matrix, const Eigen::VectorXd &q_in) const
  {
    const Eigen::Index n = q_in.size();
    if (matrix.rows() != n || matrix.cols() != n)
      throw std::invalid_argument("LcpSolver::solve: matrix and q sizes differ");

    LcpSolution solution;
    solution.z = Eigen::VectorXd::Zero(n);
    solution.w = q_in;
    if (n == 0)
      return solution;

    Eigen::VectorXd     q = q_in; // Siconos takes a non-const pointer
    std::ostringstream  log;
    for (const auto algorithm : order())
      {
        Eigen::VectorXd z(n), w(n);
        const auto      result = attempt(algorithm, matrix, q, z, w, tolerance_);
        ++solution.attempts;
        solution.algorithm = algorithm;
        solution.error     = result.error;
        solution.z         = z;
        solution.w         = w;
        if (result.valid)
          {
            solution.failed  = false;
            solution.message = log.str();
            return solution;
          }
        log << to_string(algorithm) << " failed (info " << result.info << ", error " << result.error
            << "); ";
      }
    solution.failed  = true;
    log << "no LCP solver reached the tolerance " << tolerance_;
    solution.message = log.str();
    return solution;
  }
} // namespace vibroimpact::contact
