// The one-step nonsmooth problem of the Moreau–Jean OSI: a small dense linear complementarity
// problem  w = M z + q,  0 <= z ⊥ w >= 0,  solved by Siconos numerics. The chosen solver is
// tried first and the others follow on failure; every answer is checked with
// lcp_compute_error, and a failure is reported, never hidden.
#pragma once

#include <Eigen/Dense>

#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::contact
{
  enum class LcpAlgorithm
  {
    lemke, // pivoting, exact for P-matrices (Delassus matrices of independent contacts)
    enumerative, // ENUM: tries every complementary basis, exact, for small problems
    pgs    // projected Gauss–Seidel, iterative
  };

  // The names of the algorithms: "lemke", "enum", "pgs" (the one table of them).
  const std::vector<std::pair<std::string, LcpAlgorithm>> &lcp_algorithm_names();
  // By name; throws std::invalid_argument otherwise.
  LcpAlgorithm lcp_algorithm_from_string(const std::string &name);
  std::string  to_string(LcpAlgorithm algorithm);

  struct LcpSolution
  {
    Eigen::VectorXd z; // the impulses
    Eigen::VectorXd w; // the complementary variable
    LcpAlgorithm    algorithm = LcpAlgorithm::lemke; // the one that succeeded (or was last tried)
    double          error     = 0.0;                 // lcp_compute_error of (z, w)
    unsigned int    attempts  = 0;                   // solvers tried
    bool            failed    = false;               // no solver reached the tolerance
    std::string     message;                         // what was tried, on fallback or failure
  };

  class LcpSolver
  {
  public:
    // tolerance: accepted lcp_compute_error (relative to ||q||, as Siconos defines it).
    explicit LcpSolver(LcpAlgorithm preferred = LcpAlgorithm::lemke, double tolerance = 1e-12);

    LcpSolution solve(const Eigen::MatrixXd &matrix, const Eigen::VectorXd &q) const;

    LcpAlgorithm preferred() const { return preferred_; }
    double       tolerance() const { return tolerance_; }

    // The preferred solver, then the others in the order lemke, enum, pgs.
    std::vector<LcpAlgorithm> order() const;

  private:
    LcpAlgorithm preferred_;
    double       tolerance_;
  };
} // namespace vibroimpact::contact
