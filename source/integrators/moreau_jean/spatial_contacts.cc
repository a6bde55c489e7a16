// Spatial supports in the Moreau–Jean step (see integrators/moreau_jean.h and
// doc/time_stepping.md §7): the kinematic rows of every support and their W⁻¹ once; per step the
// candidate contacts framed by model::contact_frames, activated by the γ rule on their normal,
// and one nonsmooth problem over every active contact (planar ones included): Siconos' LCP when
// all of them are frictionless, a friction-contact problem otherwise; then the impulses' work
// split into impact, friction and the θ-scheme's share.
#include <vibroimpact/integrators/moreau_jean.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace vibroimpact::integrators
{
  namespace
  {
    constexpr Eigen::Index rows_per_support = 4; // r1, r2, axial, twist
  } // namespace

  // The active contacts of a step as rows over all interaction rows [H; S], `dimension` rows
  // each: the normal, then (with friction) the tangents; a tangent a contact lacks (planar
  // contacts, supports without an axial field) is a zero row, decoupled in the problem.
  struct MoreauJean::LocalProblem
  {
    std::vector<unsigned int> planar; // active planar contacts, model order
    int                       dimension = 1;
    Eigen::MatrixXd           A;      // (contacts × dimension) × (contacts + 4 supports)
    Vector                    U_minus_all, U_free_all; // [H; S] v, [H; S] v_free
    Vector                    target;                  // per local contact: ε of the impact law
    Vector                    mu;
    Vector                    impulse;                 // the solution, dimension per contact
  };

  void MoreauJean::setup_spatial_supports()
  {
    const auto        &supports = model_.spatial_supports;
    const Eigen::Index n = model_.n_dofs(), n_s = static_cast<Eigen::Index>(supports.size());
    const auto         n_c = static_cast<Eigen::Index>(model_.contacts.size());
    if (n_s == 0)
      return;
    S_.resize(rows_per_support * n_s, n);
    YS_ = Eigen::MatrixXd::Zero(n, rows_per_support * n_s);
    std::vector<Eigen::Triplet<double>> entries;
    support_dofs_.resize(n_s);
    for (Eigen::Index s = 0; s < n_s; ++s)
      {
        const auto                          &sp = supports[s];
        const model::SparseRowVector *const rows[] = {&sp.transverse[0], &sp.transverse[1], &sp.axial, &sp.twist};
        for (Eigen::Index k = 0; k < rows_per_support; ++k)
          {
            for (model::SparseRowVector::InnerIterator it(*rows[k]); it; ++it)
              {
                entries.emplace_back(rows_per_support * s + k, it.index(), it.value());
                support_dofs_[s].push_back(it.index());
              }
            if (rows[k]->nonZeros() > 0) // an absent row keeps a zero column
              YS_.col(rows_per_support * s + k) = solve_w(Vector(*rows[k]));
          }
      }
    S_.setFromTriplets(entries.begin(), entries.end());
    G_.resize(n_c + S_.rows(), n_c + S_.rows());
    G_.topLeftCorner(n_c, n_c)             = delassus_;
    G_.topRightCorner(n_c, S_.rows())      = H_ * YS_;
    G_.bottomLeftCorner(S_.rows(), n_c)    = G_.topRightCorner(n_c, S_.rows()).transpose();
    G_.bottomRightCorner(S_.rows(), S_.rows()) = S_ * YS_;
    G_ = 0.5 * (G_ + G_.transpose()).eval();
  }

  bool MoreauJean::spatial_step(const State &state, StepReport &report, Vector &v_plus) const
  {
    auto problem = spatial_problem(state, v_plus, report);
    if (report.spatial.empty())
      return false;
    solve_with_spatial(problem, report, v_plus);
    return true;
  }

  // Frames every support's candidates, keeps those the γ rule activates, and forms their rows.
  MoreauJean::LocalProblem MoreauJean::spatial_problem(const State &state, const Vector &v_free,
                                                       StepReport &report) const
  {
    const double h = settings_.time_step, gamma = settings_.gamma;
    const auto   n_c = static_cast<Eigen::Index>(model_.contacts.size());
    LocalProblem problem;
    problem.U_minus_all.resize(G_.rows());
    problem.U_free_all.resize(G_.rows());
    problem.U_minus_all << report.velocity_before, S_ * state.v;
    problem.U_free_all << report.velocity_free, S_ * v_free;

    std::vector<Eigen::Matrix<double, 3, 4>> frames;
    bool                                     friction = false, axial = false;
    // The annular normal at the predicted position (doc/theory.md §10): with v+ ⊥ n the step moves
    // along h v_θ, at angle θα from v if n is turned by α; the wall's chord needs θα = φ/2 (φ the
    // arc angle, ≈ h|v|/c), i.e. n at u + h v/(2θ).
    const double lead  = settings_.annular_normal == AnnularNormal::predicted ? h / (2 * settings_.theta) :
                         settings_.annular_normal == AnnularNormal::mid_step  ? 0.5 * h : 0.0;
    const Vector u_mid = lead > 0 ? Vector(state.u + lead * state.v) : Vector();
    for (unsigned int s = 0; s < model_.spatial_supports.size(); ++s)
      {
        const auto &support = model_.spatial_supports[s];
        const auto  start   = model::contact_frames(support, state.u);
        const bool  curved  = support.shape == model::SpatialSupport::Shape::annular && u_mid.size() > 0;
        const auto  normals = curved ? model::contact_frames(support, u_mid) : start;
        for (std::size_t k = 0; k < start.size(); ++k)
          {
            SpatialContactReport c;
            c.support    = s;
            c.candidate  = start[k].candidate;
            c.gap        = start[k].gap;
            c.outward = normals[k].outward;
            c.angle      = normals[k].angle;
            const auto coefficients = model::frame_coefficients(support, c.outward);
            const Eigen::Matrix<double, 3, 1> U = coefficients * problem.U_minus_all.segment<4>(n_c + 4 * s);
            if (c.gap + gamma * h * U[0] > 0)
              continue;
            c.normal_velocity_before        = U[0];
            c.tangential_velocity_before[0] = U[1], c.tangential_velocity_before[1] = U[2];
            friction = friction || support.friction > 0;
            axial    = axial || support.three_dimensional();
            report.spatial.push_back(c);
            frames.push_back(coefficients);
          }
      }
    if (report.spatial.empty())
      return problem;

    problem.planar    = report.active;
    problem.dimension = friction ? (axial ? 3 : 2) : 1;
    const int          d = problem.dimension;
    const Eigen::Index m = static_cast<Eigen::Index>(problem.planar.size() + report.spatial.size());
    problem.A            = Eigen::MatrixXd::Zero(m * d, G_.rows());
    problem.target.resize(m);
    problem.mu = Vector::Zero(m);
    for (std::size_t a = 0; a < problem.planar.size(); ++a)
      {
        const auto i = problem.planar[a];
        problem.A(a * d, i) = 1.0;
        problem.target[a]   = impact_target(i, report.velocity_before[i]);
      }
    for (std::size_t k = 0; k < report.spatial.size(); ++k)
      {
        const auto        &c       = report.spatial[k];
        const auto        &support = model_.spatial_supports[c.support];
        const Eigen::Index a       = static_cast<Eigen::Index>(problem.planar.size() + k);
        problem.A.block(a * d, n_c + 4 * c.support, d, 4) = frames[k].topRows(d);
        const double U = c.normal_velocity_before;
        problem.target[a] = std::max(support.restitution * U, U); // Newton, as impact_target (§2)
        problem.mu[a]     = support.friction;
      }
    return problem;
  }

  // The step's nonsmooth problem over every active contact, and v+ with its impulses.
  void MoreauJean::solve_with_spatial(LocalProblem &problem, StepReport &report, Vector &v_plus) const
  {
    if (problem.dimension == 1)
      solve_local_lcp(problem, report);
    else
      solve_local_friction(problem, report);
    report.lcp_solved = true;

    const int          d   = problem.dimension;
    const auto         n_c = static_cast<Eigen::Index>(model_.contacts.size());
    const Vector       rows_impulse = problem.A.transpose() * problem.impulse; // on [H; S]
    for (std::size_t a = 0; a < problem.planar.size(); ++a)
      report.impulse[problem.planar[a]] = problem.impulse[a * d];
    for (std::size_t k = 0; k < report.spatial.size(); ++k)
      {
        const Eigen::Index at = static_cast<Eigen::Index>(problem.planar.size() + k) * d;
        auto              &c  = report.spatial[k];
        c.normal_impulse      = problem.impulse[at];
        for (int j = 1; j < d; ++j)
          c.tangential_impulse[j - 1] = problem.impulse[at + j];
      }
    if (n_c > 0)
      v_plus += Y_ * rows_impulse.head(n_c);
    v_plus += YS_ * rows_impulse.tail(S_.rows());
  }

  void MoreauJean::solve_local_lcp(LocalProblem &problem, StepReport &report) const
  {
    const Eigen::MatrixXd D = problem.A * G_ * problem.A.transpose();
    const Vector          q = problem.A * problem.U_free_all + problem.target;
    const auto            solution = lcp_.solve(D, q);
    report.lcp_failed              = solution.failed;
    report.lcp_attempts            = solution.attempts;
    report.lcp_error               = solution.error;
    report.lcp_message             = solution.message;
    problem.impulse                = solution.z.cwiseMax(0.0); // Lemke's −0 or −1e-17 (as the planar step)
  }

  void MoreauJean::solve_local_friction(LocalProblem &problem, StepReport &report) const
  {
    const int          d = problem.dimension;
    const Eigen::Index m = problem.mu.size();
    Eigen::MatrixXd    D = problem.A * G_ * problem.A.transpose();
    Vector             q = problem.A * problem.U_free_all;
    double             scale = 0.0;
    for (Eigen::Index a = 0; a < m; ++a)
      {
        q[a * d] += problem.target[a];
        scale += D(a * d, a * d) / m;
      }
    // A tangent the contact lacks: decoupled, u = scale r with q = 0, so Coulomb's law gives
    // r = 0 on it (sliding: r ∥ −u = −scale r; sticking: u = 0) and the problem stays definite.
    std::vector<bool> absent(D.rows(), false);
    for (Eigen::Index j = 0; j < D.rows(); ++j)
      if (problem.A.row(j).squaredNorm() == 0.0)
        absent[j] = true, D(j, j) = scale;
    const auto solution     = friction_.solve(d, D, q, problem.mu);
    report.friction_problem = true;
    report.lcp_failed       = solution.failed;
    report.lcp_attempts     = solution.attempts;
    report.lcp_error        = solution.law_error;
    std::ostringstream message;
    message << solution.message << (solution.failed ? "" : solution.algorithm + " ");
    report.lcp_message = message.str();
    problem.impulse    = solution.r;
    for (Eigen::Index j = 0; j < D.rows(); ++j)
      if (absent[j])
        problem.impulse[j] = 0.0;
    for (Eigen::Index a = 0; a < m; ++a)
      problem.impulse[a * d] = std::max(0.0, problem.impulse[a * d]);
  }

  // U_θᵀp = U_midᵀp + (θ−½)ΔUᵀp on every row (doc/time_stepping.md §7): the normal rows' U_midᵀp
  // is Newton's impact dissipation as for planar contacts; on the tangents
  //   −U_mid,t·p_t = −U_t+·p_t + ½ΔU_t·p_t,
  // Coulomb's dissipation at the velocity the law constrains (≥ 0: μ p_n |U_t+|) and the
  // kinetic energy of the tangential velocity jump (½ p_tᵀ W_tt p_t ≥ 0 for a lone contact), which
  // is booked as impact dissipation. Returns that tangential-jump part.
  double MoreauJean::add_spatial_work(StepEnergy &energy, StepReport &report, const Vector &v_plus) const
  {
    const double theta = settings_.theta;
    double       jump  = 0.0;
    if (report.spatial.empty())
      return jump;
    const Vector U_S = S_ * v_plus;
    for (auto &c : report.spatial)
      {
        const auto  &support = model_.spatial_supports[c.support];
        const Eigen::Matrix<double, 3, 1> U =
          model::frame_coefficients(support, c.outward) * U_S.segment<4>(4 * c.support);
        c.normal_velocity_after        = U[0];
        c.tangential_velocity_after[0] = U[1], c.tangential_velocity_after[1] = U[2];
        const double pn = c.normal_impulse, Un = c.normal_velocity_before;
        energy.impact_dissipation -= 0.5 * pn * (U[0] + Un);
        energy.numerical_dissipation -= (theta - 0.5) * pn * (U[0] - Un);
        double friction = 0.0, slip = 0.0, jump_c = 0.0;
        for (int j = 0; j < 2; ++j)
          {
            const double pt = c.tangential_impulse[j], before = c.tangential_velocity_before[j], after = U[1 + j];
            friction -= after * pt;
            jump_c += 0.5 * (after - before) * pt;
            energy.numerical_dissipation -= (theta - 0.5) * pt * (after - before);
            slip += after * after;
          }
        c.friction_work = friction;
        c.wear_work     = pn * std::sqrt(slip);
        energy.friction_dissipation += friction;
        energy.impact_dissipation += jump_c;
        jump += jump_c;
      }
    return jump;
  }

  void MoreauJean::record_support_gaps(StepReport &report, const Vector &u) const
  {
    const auto &supports = model_.spatial_supports;
    report.support_gap.resize(static_cast<Eigen::Index>(supports.size()));
    for (std::size_t s = 0; s < supports.size(); ++s)
      {
        double smallest = std::numeric_limits<double>::infinity();
        for (const auto &frame : model::contact_frames(supports[s], u))
          smallest = std::min(smallest, frame.gap);
        report.support_gap[static_cast<Eigen::Index>(s)] = smallest;
      }
  }
} // namespace vibroimpact::integrators
