// The Moreau–Jean one-step integrator (see integrators/moreau_jean.h): the θ-scheme step with its
// contact LCP, the energy correction, and the moreau-jean solver that runs it.
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/io/parameter_section.h>

#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace vibroimpact::integrators
{
  void bind_settings(io::ParameterSection &section, MoreauJeanSettings &s)
  {
    const io::Choices<CorrectionDirection> directions{{"non-contact", CorrectionDirection::non_contact},
                                                      {"values", CorrectionDirection::values},
                                                      {"velocity", CorrectionDirection::velocity}};
    section.add("Theta", s.theta, io::in_range(0.5, 1),
                "θ in [0.5, 1]: 0.5 conserves energy between impacts; above 0.5 damps high frequencies "
                "(numerical dissipation, reported in history.csv).");
    section.add("Gamma", s.gamma, io::in_range(0, 1),
                "γ in [0, 1]: a contact enters the LCP when g + γ h U <= 0 (Siconos' rule).");
    section.add("Time step", s.time_step, io::positive(), "h > 0.");
    section.add("LCP solver", s.lcp_solver, contact::lcp_algorithm_names(),
                "Tried first; the others follow if it fails.");
    io::Bounds below_one = io::in_range(0, 1);
    below_one.open_low = below_one.open_high = true;
    section.add("LCP tolerance", s.lcp_tolerance, below_one,
                "Accepted lcp_compute_error of a solution (relative to |q|).");
    section.add("Friction tolerance", s.friction_tolerance, below_one,
                "Spatial supports with friction: accepted residual of Siconos' friction-contact solvers and of "
                "our own check of the Coulomb law (relative).");
    section.add("Annular normal", s.annular_normal,
                io::Choices<AnnularNormal>{{"start", AnnularNormal::start},
                                           {"mid-step", AnnularNormal::mid_step},
                                           {"predicted", AnnularNormal::predicted}},
                "Annular supports: where a step takes its contact normal: at its start, at u + h v/2, or at the "
                "predicted u + h v/(2θ), which makes the step's chord the wall's (no drift of the penetration in "
                "permanent contact; doc/theory.md §10).");
    section.add("Energy correction", s.energy_correction,
                "Restore, after each inelastic impact, the energy it dissipated by adding β I to the velocity "
                "(seed 001, slide 10).");
    section.add("Correction direction", s.correction_direction, directions,
                "I: non-contact (1 on every DoF not in contact: the seed's choice), values (1 on deflections, "
                "axial and lumped DoFs, 0 on beam slopes), velocity (the velocity of the DoFs not in contact).");
  }

  double energy_correction_root(const double a, const double b, const double c)
  {
    // q = −(b + sign(b)√Δ)/2 has no cancellation; the roots are q/a and c/q, and |c/q| <= |q/a|.
    const double disc = b * b - 4 * a * c;
    const double q    = -0.5 * (b + (b >= 0 ? 1.0 : -1.0) * std::sqrt(disc));
    return q != 0.0 ? c / q : 0.0;
  }

  // W = W0 + B D Bᵀ with W0 = M + θhC + θ²h²K sparse and B D Bᵀ the modal damping (D = θh c):
  // W⁻¹x = y − Y_B (I + D BᵀY_B)⁻¹ D Bᵀ y,  y = W0⁻¹x,  Y_B = W0⁻¹B  (Woodbury, no n×n matrix).
  struct MoreauJean::Factorization
  {
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;
    Eigen::MatrixXd                                    basis;    // B, n × m
    Eigen::MatrixXd                                    y_basis;  // W0⁻¹B
    Eigen::VectorXd                                    d;        // θ h c
    Eigen::PartialPivLU<Eigen::MatrixXd>               capacitance;
    // The free step's right-hand side, fused once: W v_free = R_u u + R_v v (+ the loads and the
    // modal damping), R_u = −hK, R_v = M − θ(1−θ)h²K − (1−θ)hC (free_velocity).
    Eigen::SparseMatrix<double> rhs_u, rhs_v;

    Vector solve(const Vector &x) const
    {
      Vector y = ldlt.solve(x);
      if (d.size() > 0)
        y -= y_basis * capacitance.solve(d.asDiagonal() * (basis.transpose() * y));
      return y;
    }
  };

  MoreauJean::MoreauJean(const model::StructuralModel &model, const MoreauJeanSettings &settings)
    : model_(model)
    , settings_(settings)
    , lcp_(settings.lcp_solver, settings.lcp_tolerance)
    , factorization_(std::make_unique<Factorization>())
    , friction_(settings.friction_tolerance)
  {
    const double h = settings.time_step, theta = settings.theta;
    if (!(h > 0))
      throw std::invalid_argument("time step must be positive");
    if (!(theta >= 0.5 && theta <= 1.0))
      throw std::invalid_argument("theta must lie in [0.5, 1]");

    const Eigen::Index n = model.n_dofs();
    Eigen::SparseMatrix<double> W = model.mass + (theta * h) * model.damping +
                                    (theta * theta * h * h) * model.stiffness;
    W.makeCompressed();
    factorization_->rhs_u = -h * model.stiffness;
    factorization_->rhs_v = model.mass - (theta * (1 - theta) * h * h) * model.stiffness - ((1 - theta) * h) * model.damping;
    factorization_->rhs_u.makeCompressed();
    factorization_->rhs_v.makeCompressed();
    factorization_->ldlt.compute(W);
    if (factorization_->ldlt.info() != Eigen::Success)
      throw NumericalFailure("the iteration matrix W = M + θhC + θ²h²K could not be factored");
    if (!model.modal_damping.empty())
      {
        auto &f   = *factorization_;
        f.basis   = model.modal_damping.basis;
        f.d       = (theta * h) * model.modal_damping.coefficients;
        f.y_basis = f.ldlt.solve(f.basis);
        const Eigen::Index m = f.d.size();
        f.capacitance.compute(Eigen::MatrixXd::Identity(m, m) +
                              f.d.asDiagonal() * (f.basis.transpose() * f.y_basis));
      }

    // Interactions: H (contacts × n) and W⁻¹Hᵀ once; every Delassus block is a sub-block.
    const auto n_contacts = static_cast<Eigen::Index>(model.contacts.size());
    H_.resize(n_contacts, n);
    std::vector<Eigen::Triplet<double>> entries;
    contact_dofs_.resize(n_contacts);
    for (Eigen::Index i = 0; i < n_contacts; ++i)
      for (model::SparseRow::InnerIterator it(model.contacts[i].row); it; ++it)
        {
          entries.emplace_back(i, it.index(), it.value());
          contact_dofs_[i].push_back(it.index());
        }
    H_.setFromTriplets(entries.begin(), entries.end());
    Y_.resize(n, n_contacts);
    for (Eigen::Index i = 0; i < n_contacts; ++i)
      Y_.col(i) = solve_w(Vector(H_.row(i).transpose()));
    delassus_ = H_ * Y_;
    delassus_ = 0.5 * (delassus_ + delassus_.transpose()).eval();
    setup_spatial_supports();
  }

  MoreauJean::~MoreauJean()                      = default;
  MoreauJean::MoreauJean(MoreauJean &&) noexcept = default;

  Vector MoreauJean::solve_w(const Vector &rhs) const
  {
    return factorization_->solve(rhs);
  }

  double MoreauJean::kinetic_energy(const Vector &v) const
  {
    return 0.5 * v.dot(model_.mass * v);
  }

  double MoreauJean::potential_energy(const Vector &u) const
  {
    return model_.potential_energy(u); // strain and the elastic contacts' springs
  }

  State MoreauJean::initial_state() const
  {
    State s;
    const Eigen::Index n = model_.n_dofs();
    s.u = model_.initial_displacement.size() == n ? model_.initial_displacement : Vector(Vector::Zero(n));
    s.v = model_.initial_velocity.size() == n ? model_.initial_velocity : Vector(Vector::Zero(n));
    s.t = 0.0;
    return s;
  }

  // W⁻¹ (M v − hK(u + θ(1−θ)hv) − (1−θ)hCv + h f_θ): the velocity without impulses.
  // W v_free = M v − hK(u + θ(1−θ)h v) − (1−θ)h C v + h f_θ, the first three as two products with
  // the matrices fused in the constructor (the bare step's cost: doc/performance.md).
  Vector MoreauJean::free_velocity(const State &s, const Vector &f_theta) const
  {
    const double h = settings_.time_step, theta = settings_.theta;
    Vector       rhs(s.v.size());
    rhs.noalias() = factorization_->rhs_u * s.u;
    rhs.noalias() += factorization_->rhs_v * s.v;
    if (theta < 1.0 && !model_.modal_damping.empty())
      rhs -= ((1 - theta) * h) * model_.modal_damping.apply(s.v);
    if (f_theta.size() > 0)
      rhs += h * f_theta;
    return solve_w(rhs);
  }

  StepEnergy MoreauJean::step_energy(const State &before, const State &after, const Vector &f_theta) const
  {
    const double h = settings_.time_step, theta = settings_.theta;
    StepEnergy   e;
    const Vector v_theta = theta * after.v + (1 - theta) * before.v;
    if (f_theta.size() > 0) // unloaded: no work
      e.external_work = h * v_theta.dot(f_theta);
    if (model_.damping.nonZeros() > 0 || !model_.modal_damping.empty()) // undamped: none
      e.damping_dissipation = h * v_theta.dot(model_.damping_force(v_theta));
    if (theta != 0.5)
      {
        const Vector dv = after.v - before.v, du = after.u - before.u;
        e.numerical_dissipation =
          (theta - 0.5) * (dv.dot(model_.mass * dv) + du.dot(model_.stiffness * du));
      }
    return e;
  }

  double MoreauJean::impact_target(const unsigned int contact, const double U_minus) const
  {
    // Newton's e U− for an approaching contact; a contact active by its predicted gap while
    // already separating (U− > 0) may at most have its velocity reversed (U+ ≥ −U−), so that
    // its impulse does no positive work: D_imp = p (target − U−)/2 ≥ 0 (doc/time_stepping.md §2).
    return std::max(model_.contacts[contact].restitution * U_minus, U_minus);
  }

  void MoreauJean::add_impulse_work(StepEnergy &energy, const StepReport &report, const Vector &U_plus) const
  {
    // U_θᵀp = U_midᵀp + (θ−½)ΔUᵀp: the first is the impact's (≥ 0 dissipated by the law above),
    // the second joins the θ-scheme's numerical term, so that a rigid impact's whole energy
    // loss ½m(1−e²)U−² is counted as impact dissipation for every θ.
    const double theta = settings_.theta;
    for (const auto i : report.active)
      {
        if (model_.contacts[i].elastic())
          continue; // add_spring_work
        const double p = report.impulse[i], U_minus = report.velocity_before[i];
        energy.impact_dissipation -= 0.5 * p * (U_plus[i] + U_minus);
        energy.numerical_dissipation -= (theta - 0.5) * p * (U_plus[i] - U_minus);
      }
  }

  void MoreauJean::add_spring_work(StepEnergy &energy, const StepReport &report, const State &before,
                                   const State &after) const
  {
    // The spring's impulse does the work U_θ·p = λ (g+ − g) on the structure (h U_θ = g+ − g), and
    // its energy changes by V(g+) − V(g). Their sum vanishes where the θ-point law is exact (θ = ½,
    // spring closed over the whole step); what is left is the scheme's: (θ − ½) k Δg² with the
    // spring closed, and at most ½ k g² of the step's first or last gap where it switches.
    // Every elastic contact, active or not: a spring left out of the step (g_θ >= 0) may still be
    // stretched at its start or end.
    const double theta = settings_.theta;
    for (unsigned int i = 0; i < model_.contacts.size(); ++i)
      {
        const auto &c = model_.contacts[i];
        if (!c.elastic())
          continue;
        const double g0 = c.gap0 + H_.row(i).dot(before.u), g1 = c.gap0 + H_.row(i).dot(after.u);
        const double U_theta = H_.row(i).dot(theta * after.v + (1 - theta) * before.v);
        energy.numerical_dissipation -= report.impulse[i] * U_theta + c.spring_energy(g1) - c.spring_energy(g0);
      }
  }

  Vector MoreauJean::direction(const Vector &v_plus, const std::vector<unsigned int> &active) const
  {
    const Eigen::Index n = model_.n_dofs();
    Vector             I(n);
    switch (settings_.correction_direction)
      {
        case CorrectionDirection::non_contact:
          I.setOnes();
          break;
        case CorrectionDirection::values:
          for (Eigen::Index j = 0; j < n; ++j)
            I[j] = (j < static_cast<Eigen::Index>(model_.dof_kinds.size()) &&
                    model_.dof_kinds[j] == model::DofKind::slope) ? 0.0 : 1.0;
          break;
        case CorrectionDirection::velocity:
          I = v_plus;
          break;
      }
    // Zero on the DoFs of the active contacts: their contact velocities (and the impact law)
    // stay as the LCP left them.
    for (const auto i : active)
      for (const auto j : contact_dofs_[i])
        I[j] = 0.0;
    return I;
  }

  Vector MoreauJean::free_spring_gap(const State &state, const StepReport &report) const
  {
    // g_θ = g0 + H(θ u+ + (1−θ) u) with u+ = u + h(θ v+ + (1−θ) v) and v+ = v_free + W⁻¹Hᵀp:
    // g_θ = [g0 + H u + θ(1−θ)h U− + θ²h H v_free] + θ²h D p (doc/time_stepping.md §8).
    const double h = settings_.time_step, theta = settings_.theta;
    const auto   n_contacts = static_cast<Eigen::Index>(model_.contacts.size());
    Vector       g          = Vector::Zero(n_contacts);
    for (Eigen::Index i = 0; i < n_contacts; ++i)
      if (model_.contacts[i].elastic())
        g[i] = spring_gap_before_impulses(static_cast<unsigned int>(i), state.u, report.velocity_before[i]) +
               theta * theta * h * report.velocity_free[i];
    return g;
  }

  double MoreauJean::spring_gap_before_impulses(const unsigned int i, const Vector &u, const double U_minus) const
  {
    const double h = settings_.time_step, theta = settings_.theta;
    return model_.contacts[i].gap0 + H_.row(i).dot(u) + theta * (1 - theta) * h * U_minus;
  }

  double MoreauJean::compliance(const unsigned int contact) const
  {
    const double h = settings_.time_step, theta = settings_.theta;
    return 1.0 / (theta * theta * h * h * model_.contacts[contact].stiffness);
  }

  void MoreauJean::solve_contacts(StepReport &report, const Vector &spring_free, Vector &v_plus) const
  {
    const double h = settings_.time_step, theta = settings_.theta;
    // Rigid rows: w = U+ + e U− = (U_free + e U−) + D p (velocity level). Elastic rows, the
    // spring's law 0 <= λ ⊥ g_θ + λ/k >= 0 with p = h λ, divided by θ²h: w = g_θ^free/(θ²h) +
    // (D + 1/(θ²h²k)) p. One symmetric positive definite LCP; an elastic contact left out whose
    // spring the others' impulses stretch joins it and the problem is solved again.
    for (unsigned int round = 0;; ++round)
      {
        const auto      m = static_cast<Eigen::Index>(report.active.size());
        Eigen::MatrixXd D(m, m);
        Vector          q(m);
        for (Eigen::Index a = 0; a < m; ++a)
          {
            const auto i = report.active[a];
            const bool elastic = model_.contacts[i].elastic();
            q[a] = elastic ? spring_free[i] / (theta * theta * h) :
                             report.velocity_free[i] + impact_target(i, report.velocity_before[i]);
            for (Eigen::Index b = 0; b < m; ++b)
              D(a, b) = delassus_(i, report.active[b]);
            if (elastic)
              D(a, a) += compliance(i);
          }
        const auto solution = lcp_.solve(D, q);
        report.lcp_solved   = true;
        report.lcp_failed   = solution.failed;
        report.lcp_attempts = solution.attempts;
        report.lcp_error    = solution.error;
        report.lcp_message  = solution.message;
        report.impulse.setZero();
        for (Eigen::Index a = 0; a < m; ++a) // Lemke may return −0 or −1e-17: p >= 0 holds exactly
          report.impulse[report.active[a]] = std::max(0.0, solution.z[a]);
        if (solution.failed || !add_stretched_springs(report, spring_free) || round == 8)
          break;
      }
    for (const auto i : report.active)
      if (report.impulse[i] != 0.0)
        v_plus += report.impulse[i] * Y_.col(i);
  }

  bool MoreauJean::add_stretched_springs(StepReport &report, const Vector &spring_free) const
  {
    const double h = settings_.time_step, theta = settings_.theta;
    const Vector Dp    = delassus_ * report.impulse;
    bool         added = false;
    for (unsigned int i = 0; i < model_.contacts.size(); ++i)
      if (model_.contacts[i].elastic() && spring_free[i] + theta * theta * h * Dp[i] < 0 &&
          std::find(report.active.begin(), report.active.end(), i) == report.active.end())
        {
          report.active.insert(std::upper_bound(report.active.begin(), report.active.end(), i), i);
          added = true;
        }
    return added;
  }

  StepReport MoreauJean::step(State &state) const
  {
    const double h = settings_.time_step, theta = settings_.theta, gamma = settings_.gamma;
    const auto   n_contacts = static_cast<Eigen::Index>(model_.contacts.size());

    StepReport report;
    report.impulse         = Vector::Zero(n_contacts);
    report.velocity_before = H_ * state.v;
    report.complementarity = Vector::Zero(n_contacts);

    // Unloaded: f_θ empty, and no product with it (step_energy, free_velocity, correct_energy).
    const Vector f_theta =
      model_.loads.empty() ? Vector() : Vector(theta * model_.load(state.t + h) + (1 - theta) * model_.load(state.t));
    Vector       v_plus  = free_velocity(state, f_theta);
    report.velocity_free = H_ * v_plus;

    // Activation (Siconos' MoreauJeanOSI): the gap predicted half a step ahead closes. An elastic
    // contact enters where its spring would be stretched at the θ-point without impulses.
    const Vector gap         = H_ * state.u;
    const Vector spring_free = free_spring_gap(state, report);
    for (Eigen::Index i = 0; i < n_contacts; ++i)
      if (model_.contacts[i].elastic() ? spring_free[i] < 0 :
                                         model_.contacts[i].gap0 + gap[i] + gamma * h * report.velocity_before[i] <= 0)
        report.active.push_back(static_cast<unsigned int>(i));

    // Spatial supports active in the step take every active contact into their problem.
    const bool spatial = !model_.spatial_supports.empty() && spatial_step(state, report, v_plus);
    if (!spatial && !report.active.empty())
      solve_contacts(report, spring_free, v_plus);

    State after;
    after.v = std::move(v_plus);
    after.u = state.u + h * (theta * after.v + (1 - theta) * state.v);
    after.t = state.t + h;

    Vector     U_plus = H_ * after.v;
    StepEnergy energy = step_energy(state, after, f_theta);
    add_impulse_work(energy, report, U_plus);
    add_spring_work(energy, report, state, after);
    // The correction restores Newton's normal loss only, never friction's nor the tangential
    // jump's (doc/time_stepping.md §7).
    const double tangential_jump = add_spatial_work(energy, report, after.v);

    // Energy correction (seed 001, eq. 6): restore the energy an inelastic impact took.
    if (settings_.energy_correction)
      correct_energy(state, after, f_theta, report, energy, U_plus, energy.impact_dissipation - tangential_jump);

    report.velocity_after = U_plus;
    report.gap            = H_ * after.u;
    for (Eigen::Index i = 0; i < n_contacts; ++i)
      {
        report.gap[i] += model_.contacts[i].gap0;
        if (model_.contacts[i].elastic()) // g_θ = g+ − (1−θ) h U_θ, and λ/k
          report.complementarity[i] =
            report.gap[i] - (1 - theta) * h * (theta * U_plus[i] + (1 - theta) * report.velocity_before[i]) +
            report.impulse[i] / (h * model_.contacts[i].stiffness);
        else
          report.complementarity[i] = U_plus[i] + impact_target(i, report.velocity_before[i]);
      }
    if (!model_.spatial_supports.empty())
      record_support_gaps(report, after.u);
    report.energy = energy;
    state         = std::move(after);
    return report;
  }

  // The energy correction of one step (seed 001, eq. 6; doc/time_stepping.md §4): v+ += β I with
  // β the root that gives back `normal_loss`, Newton's share of the impact dissipation.
  void MoreauJean::correct_energy(const State &state, State &after, const Vector &f_theta, StepReport &report,
                                  StepEnergy &energy, Vector &U_plus, const double normal_loss) const
  {
    const double h = settings_.time_step, theta = settings_.theta;
    bool inelastic = false;
    for (const auto i : report.active)
      inelastic = inelastic || (report.impulse[i] > 0 && model_.contacts[i].restitution < 1.0);
    for (const auto &c : report.spatial)
      inelastic = inelastic || (c.normal_impulse > 0 && model_.spatial_supports[c.support].restitution < 1.0);
    if (inelastic && normal_loss > 0)
      {
        Vector I = direction(after.v, report.active);
        for (const auto &c : report.spatial)
          for (const auto j : support_dofs_[c.support])
            I[j] = 0.0;
        if (I.squaredNorm() > 0)
          {
            const Vector MI = model_.mass * I, KI = model_.stiffness * I, CI = model_.damping_force(I);
            const Vector v_theta = theta * after.v + (1 - theta) * state.v;
            const Vector dv = after.v - state.v, du = after.u - state.u;
            const double a = theta * I.dot(MI) + theta * theta * theta * h * h * I.dot(KI) +
                             h * theta * theta * I.dot(CI);
            const double b = MI.dot(after.v) + h * theta * KI.dot(after.u) +
                             2 * (theta - 0.5) * (MI.dot(dv) + h * theta * KI.dot(du)) +
                             2 * h * theta * CI.dot(v_theta) - h * theta * (f_theta.size() > 0 ? I.dot(f_theta) : 0.0);
            const double c = -normal_loss;
            const double beta = energy_correction_root(a, b, c);
            after.v += beta * I;
            after.u += (h * theta * beta) * I;
            U_plus                    = H_ * after.v; // unchanged on the active contacts (H I = 0)
            energy                    = step_energy(state, after, f_theta);
            add_impulse_work(energy, report, U_plus);
            add_spring_work(energy, report, state, after);
            add_spatial_work(energy, report, after.v);
            energy.correction_beta    = beta;
            energy.correction_work    = a * beta * beta + b * beta;
            report.corrected          = true;
          }
      }

  }

  void MoreauJean::advance(State &state, const unsigned int n_steps) const
  {
    for (unsigned int k = 0; k < n_steps; ++k)
      {
        const auto report = step(state);
        if (report.lcp_failed)
          {
            std::ostringstream message;
            message << "LCP failed at t = " << state.t << ": " << report.lcp_message;
            throw NumericalFailure(message.str());
          }
      }
  }

  State MoreauJean::step_with_active_set(const State &state, const std::vector<unsigned int> &active) const
  {
    const double h = settings_.time_step, theta = settings_.theta;
    const Vector f_theta = theta * model_.load(state.t + h) + (1 - theta) * model_.load(state.t);
    Vector       v_plus  = free_velocity(state, f_theta);
    if (!active.empty())
      {
        const auto      m = static_cast<Eigen::Index>(active.size());
        Eigen::MatrixXd D(m, m);
        Vector          rhs(m);
        for (Eigen::Index a = 0; a < m; ++a)
          {
            const auto   i       = active[a];
            const double U_minus = H_.row(i).dot(state.v), U_free = H_.row(i).dot(v_plus);
            for (Eigen::Index b = 0; b < m; ++b)
              D(a, b) = delassus_(i, active[b]);
            if (model_.contacts[i].elastic()) // the spring's law as an equality, g_θ + λ/k = 0
              {
                D(a, a) += compliance(i);
                rhs[a] = -spring_gap_before_impulses(i, state.u, U_minus) / (theta * theta * h) - U_free;
              }
            else
              rhs[a] = -impact_target(i, U_minus) - U_free;
          }
        const Vector p = D.ldlt().solve(rhs);
        for (Eigen::Index a = 0; a < m; ++a)
          v_plus += p[a] * Y_.col(active[a]);
      }
    State after;
    after.u = state.u + h * (theta * v_plus + (1 - theta) * state.v);
    after.v = std::move(v_plus);
    after.t = state.t + h;
    return after;
  }

  void MoreauJean::tangent_step(Eigen::MatrixXd &dU, Eigen::MatrixXd &dV, const State &before,
                                const std::vector<unsigned int> &active) const
  {
    const double h = settings_.time_step, theta = settings_.theta;
    Eigen::MatrixXd dV_plus(dV.rows(), dV.cols());
    State           column; // the free step is linear in (u, v): its unloaded part
    for (Eigen::Index k = 0; k < dV.cols(); ++k)
      {
        column.u       = dU.col(k);
        column.v       = dV.col(k);
        dV_plus.col(k) = free_velocity(column, Vector());
      }
    if (!active.empty())
      {
        const auto      m = static_cast<Eigen::Index>(active.size());
        Eigen::MatrixXd D(m, m), rhs(m, dV.cols());
        for (Eigen::Index a = 0; a < m; ++a)
          {
            const auto i = active[a];
            for (Eigen::Index b = 0; b < m; ++b)
              D(a, b) = delassus_(i, active[b]);
            if (model_.contacts[i].elastic()) // ∂ of g_θ^free/(θ²h) + (D + compliance) p = 0
              {
                D(a, a) += compliance(i);
                rhs.row(a) = -(H_.row(i) * dU + (theta * (1 - theta) * h) * (H_.row(i) * dV)) / (theta * theta * h) -
                             H_.row(i) * dV_plus;
                continue;
              }
            // impact_target is e U− for an approaching contact, U− otherwise: its slope in U−.
            const double U_minus = H_.row(i).dot(before.v);
            const double slope   = U_minus < 0 ? model_.contacts[i].restitution : 1.0;
            rhs.row(a)           = -slope * (H_.row(i) * dV) - H_.row(i) * dV_plus;
          }
        const Eigen::MatrixXd dP = D.ldlt().solve(rhs);
        for (Eigen::Index a = 0; a < m; ++a)
          dV_plus += Y_.col(active[a]) * dP.row(a);
      }
    dU += h * (theta * dV_plus + (1 - theta) * dV);
    dV = std::move(dV_plus);
  }
} // namespace vibroimpact::integrators
