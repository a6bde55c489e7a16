// The one-step nonsmooth problem of the Moreau–Jean OSI with Coulomb friction: a small dense
// friction-contact problem (Siconos' "reduced" form)
//     u = W r + q,   per contact i in its local frame (n, t[, s]):
//     K_μi ∋ r_i  ⊥  ũ_i ∈ K*_μi,   ũ_i = (u_n + μ_i |u_t|, u_t)   (De Saxcé's complementarity),
// K_μ = {|r_t| <= μ r_n} the Coulomb cone, solved by Siconos numerics: fc3d_driver (NSGS with its
// local solver, then the nonsmooth Newton NSN_AC, then ADMM) for contacts with two tangents, and
// fc2d_driver (NSGS, then Lemke, then enumeration) where there is one. Every answer is checked
// twice: Siconos' residual must reach the tolerance, and our own natural-map residual
// |r − P_K(r − ρ ũ)| (the Coulomb law and the complementarity in one number, computed here with
// Eigen) must too. A failure is reported with what was tried, never hidden.
#pragma once

#include <Eigen/Dense>

#include <string>

namespace vibroimpact::contact
{
  struct FrictionContactSolution
  {
    Eigen::VectorXd r;                 // impulses, contact by contact (n, t[, s])
    Eigen::VectorXd u;                 // local velocities u = W r + q
    std::string     algorithm;         // the one that succeeded (or was last tried)
    double          siconos_error = 0; // Siconos' residual of that attempt
    double          law_error     = 0; // our natural-map residual, relative (see coulomb_law_error)
    unsigned int    attempts      = 0; // solvers tried
    bool            failed        = false;
    std::string     message;           // what was tried, on fallback or failure
  };

  // The relative natural-map residual of (r, u) for the Coulomb law with De Saxcé's modified
  // velocity: |r − P_K(r − ρ ũ)| / max(|r|, |ρ q|, tiny), ρ_i = 1/W_nn of contact i so that both
  // terms are impulses. Zero exactly when r is in the cone, ũ in its dual, and r ⊥ ũ: sticking
  // (u_t = 0, |r_t| <= μ r_n), sliding (r_t = −μ r_n u_t/|u_t|, u_n = 0) or separation (r = 0).
  double coulomb_law_error(int dimension, const Eigen::MatrixXd &W, const Eigen::VectorXd &q,
                           const Eigen::VectorXd &mu, const Eigen::VectorXd &r, const Eigen::VectorXd &u);

  class FrictionContactSolver
  {
  public:
    // tolerance: asked of Siconos (its dparam TOL) and accepted of coulomb_law_error.
    explicit FrictionContactSolver(double tolerance = 1e-10);

    // dimension 2 (n, t) or 3 (n, t, s); W is (dimension × contacts) square, mu one per contact.
    // Throws std::invalid_argument on inconsistent sizes or μ < 0.
    FrictionContactSolution solve(int dimension, const Eigen::MatrixXd &W, const Eigen::VectorXd &q,
                                  const Eigen::VectorXd &mu) const;

    double tolerance() const { return tolerance_; }

  private:
    double tolerance_;
  };
} // namespace vibroimpact::contact
