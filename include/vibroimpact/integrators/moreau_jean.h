// The Moreau–Jean one-step integrator (OSI) on a StructuralModel: the θ-method in velocity–
// impulse form with Newton's impact law on the interactions whose predicted gap closes.
//
//   W v+ = M v − h K (u + θ(1−θ) h v) − (1−θ) h C v + h f_θ + Hᵀ p,   W = M + θhC + θ²h²K,
//   u+ = u + h v_θ,   v_θ = θ v+ + (1−θ) v,
//   contact i active when g_i + γ h U_i <= 0:   0 <= U_i+ + e_i U_i− ⊥ p_i >= 0;
//   an elastic contact (a unilateral spring k) at the θ-point: 0 <= p_i/(h k_i) + g_i,θ ⊥ p_i >= 0.
//
// W is factored once (sparse LDLᵀ; the low-rank modal damping B diag(c) Bᵀ enters implicitly
// through the Sherman–Morrison–Woodbury identity) and W⁻¹Hᵀ is kept for every contact, so a step
// costs a few sparse products and solves plus an LCP of the size of the active set. See
// doc/time_stepping.md for the derivations.
//
// Spatial supports (model::SpatialSupport, doc/time_stepping.md §7): each support's candidate
// contacts are framed at the step's start (model::contact_frames) and activated by the same rule
// on their normal row. Every frame row is a combination of the support's four kinematic rows
// (r1, r2, axial, twist), whose W⁻¹ is kept once, so a step's Delassus matrix is a small
// rotation of a stored block. Frictionless (every active μ = 0) the step is the LCP above over
// the normal rows; with friction it is a friction-contact problem solved by Siconos
// (contact::FrictionContactSolver), planar contacts joining it as frictionless ones.
#pragma once

#include <vibroimpact/contact/friction_contact_solver.h>
#include <vibroimpact/contact/lcp_solver.h>
#include <vibroimpact/integrators/energy_ledger.h>
#include <vibroimpact/integrators/moreau_jean_settings.h>
#include <vibroimpact/integrators/solver_base.h>
#include <vibroimpact/model/structural_model.h>

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace vibroimpact::integrators
{
  struct State
  {
    Vector u;
    Vector v;
    double t = 0.0;
  };

  // One contact of a spatial support that was active in a step (its frame is the step's).
  struct SpatialContactReport
  {
    unsigned int support = 0, candidate = 0;
    std::array<double, 2> outward{{1, 0}};   // ν of the frame the step used
    double       angle = 0.0;                 // of ν, atan2(ν2, ν1): where on the wall
    double       gap   = 0.0;                 // at the step's start
    double       normal_impulse = 0.0;        // p_n >= 0
    double       tangential_impulse[2] = {0, 0}; // (p_t circumferential, p_s axial)
    double       normal_velocity_before = 0.0, normal_velocity_after = 0.0; // U_n−, U_n+
    double       tangential_velocity_before[2] = {0, 0}, tangential_velocity_after[2] = {0, 0};
    double       friction_work = 0.0;         // −U_t+ · p_t >= 0 (Coulomb: μ p_n |U_t+|)
    double       wear_work     = 0.0;         // p_n |U_t+|: ∫ F_N |v_t| dt over the step
  };

  // What happened in one step.
  struct StepReport
  {
    std::vector<unsigned int> active;   // contacts in the LCP, in model order
    Vector impulse;                     // p, one entry per contact (0 when inactive)
    Vector gap;                         // g at the end of the step, per contact
    Vector velocity_before;             // U− = H v, per contact
    Vector velocity_after;              // U+ = H v+, per contact (after any correction)
    Vector velocity_free;               // H v_free, without impulses: the scale of the LCP's q
    Vector complementarity;             // U+ + max(e U−, U−) (elastic: g_θ + λ/k), per contact (meaningful on active ones)
    StepEnergy energy;

    bool        lcp_solved = false;     // an LCP was posed (active set not empty)
    bool        lcp_failed = false;     // no solver reached the tolerance
    unsigned    lcp_attempts = 0;       // solvers tried (1 without fallback)
    double      lcp_error    = 0.0;
    std::string lcp_message;
    bool        corrected = false;      // the energy correction was applied

    // Spatial supports: the active contacts, and each support's smallest gap at the step's end
    // (exact, not linearised). The nonsmooth problem's outcome is in lcp_* (also when it was a
    // friction-contact problem; then friction_problem is true and lcp_message names the solver).
    std::vector<SpatialContactReport> spatial;
    Vector                            support_gap;
    bool                              friction_problem = false;
  };

  // The root of a β² + b β + c = 0 (a > 0 >= c: real roots of opposite sign) of smaller |β|,
  // computed without cancellation: the energy correction's β.
  double energy_correction_root(double a, double b, double c);

  class MoreauJean
  {
  public:
    // The model must outlive the integrator. Throws NumericalFailure when W cannot be factored
    // and std::invalid_argument on bad settings.
    MoreauJean(const model::StructuralModel &model, const MoreauJeanSettings &settings);
    ~MoreauJean();
    MoreauJean(MoreauJean &&) noexcept;

    State initial_state() const;

    // One step from state (updated in place). Never throws on LCP failure: the report says so.
    StepReport step(State &state) const;

    // The flow map: n_steps steps, no I/O. Throws NumericalFailure if an LCP fails.
    void advance(State &state, unsigned int n_steps) const;

    // One step with a fixed active set, the impact law imposed as the equality U+ = −e U−
    // (no complementarity, no correction): an affine map (u, v) -> (u+, v+), for the
    // sensitivities of shooting methods.
    State step_with_active_set(const State &state, const std::vector<unsigned int> &active) const;

    // The linear part of step_with_active_set(before, active) applied to the columns of (dU, dV),
    // in place: the tangent map of the affine step (many right-hand sides through the one
    // factored W), for the exact Jacobian of the discrete flow along recorded active sets.
    void tangent_step(Eigen::MatrixXd &dU, Eigen::MatrixXd &dV, const State &before,
                      const std::vector<unsigned int> &active) const;

    double kinetic_energy(const Vector &v) const;
    double potential_energy(const Vector &u) const;

    const MoreauJeanSettings     &settings() const { return settings_; }
    const model::StructuralModel &model() const { return model_; }
    // Delassus matrix H W⁻¹ Hᵀ of all contacts (small: contacts × contacts).
    const Eigen::MatrixXd &delassus() const { return delassus_; }

  private:
    Vector solve_w(const Vector &rhs) const;
    Vector free_velocity(const State &state, const Vector &f_theta) const;
    Vector direction(const Vector &v_plus, const std::vector<unsigned int> &active) const;
    StepEnergy step_energy(const State &before, const State &after, const Vector &f_theta) const;
    // The velocity the impact law asks of an active contact: U+ + target ⊥ p.
    double impact_target(unsigned int contact, double U_minus) const;
    // The impulses' work split into impact dissipation and the θ-scheme's share (rigid contacts).
    void add_impulse_work(StepEnergy &energy, const StepReport &report, const Vector &U_plus) const;
    // Elastic contacts: the spring energy's change against the impulses' work, the θ-scheme's share.
    void add_spring_work(StepEnergy &energy, const StepReport &report, const State &before, const State &after) const;
    // g_θ of each elastic contact without the step's impulses (0 for rigid contacts).
    Vector free_spring_gap(const State &state, const StepReport &report) const;
    // The part of contact i's g_θ that the step's velocity does not change: g0 + H u + θ(1−θ)h U−.
    double spring_gap_before_impulses(unsigned int i, const Vector &u, double U_minus) const;
    // 1/(θ²h²k): the spring's compliance in the LCP scaled to impulses.
    double compliance(unsigned int contact) const;
    // The step's LCP over the active contacts (rigid: Newton's law; elastic: the spring's law with
    // compliance), v+ updated with its impulses.
    void solve_contacts(StepReport &report, const Vector &spring_free, Vector &v_plus) const;
    // Adds to the active set the elastic contacts the impulses stretch; whether any was added.
    bool add_stretched_springs(StepReport &report, const Vector &spring_free) const;

    void correct_energy(const State &before, State &after, const Vector &f_theta, StepReport &report,
                        StepEnergy &energy, Vector &U_plus, double normal_loss) const;

    // Spatial supports (spatial_contacts.cc).
    struct LocalProblem;
    void        setup_spatial_supports();
    // The step's problem when a spatial contact is active (then also over the active planar
    // contacts), v+ updated with its impulses; false when none is active.
    bool        spatial_step(const State &state, StepReport &report, Vector &v_plus) const;
    LocalProblem spatial_problem(const State &state, const Vector &v_free, StepReport &report) const;
    void        solve_with_spatial(LocalProblem &problem, StepReport &report, Vector &v_plus) const;
    void        solve_local_lcp(LocalProblem &problem, StepReport &report) const;
    void        solve_local_friction(LocalProblem &problem, StepReport &report) const;
    // U+ of the spatial contacts, their impact and friction work, and the θ-scheme's share;
    // returns the part of the impact dissipation Newton's law took in the normal rows.
    double add_spatial_work(StepEnergy &energy, StepReport &report, const Vector &v_plus) const;
    void   record_support_gaps(StepReport &report, const Vector &u) const;

    const model::StructuralModel &model_;
    MoreauJeanSettings            settings_;
    contact::LcpSolver            lcp_;

    struct Factorization;
    std::unique_ptr<Factorization> factorization_;

    // contacts × n, rows H_i: row-major, so that H v and H_i costs their nonzeros, not n
    Eigen::SparseMatrix<double, Eigen::RowMajor> H_;
    Eigen::MatrixXd                Y_;        // W⁻¹ Hᵀ, n × contacts
    Eigen::MatrixXd                delassus_; // H W⁻¹ Hᵀ
    std::vector<std::vector<Eigen::Index>> contact_dofs_; // support of each row

    // Spatial supports: four kinematic rows each (r1, r2, axial, twist; an absent one is empty),
    // W⁻¹ of them, and the Delassus blocks of all interaction rows [H; S] together.
    contact::FrictionContactSolver         friction_;
    Eigen::SparseMatrix<double>            S_;        // 4 supports × n
    Eigen::MatrixXd                        YS_;       // W⁻¹ Sᵀ
    Eigen::MatrixXd                        G_;        // [H; S] W⁻¹ [H; S]ᵀ
    std::vector<std::vector<Eigen::Index>> support_dofs_;
  };

  // The OSI run from the model's initial state to the final time, registered as "moreau-jean":
  // the energy ledger, a sample at every output time (and at every step with an energy
  // correction, so that every β is in the history), one impact event per contact episode
  // (consecutive steps with an impulse: its time the step start plus the time to close the gap
  // at the pre-impact velocity, its impulse the episode's sum), and for an episode of more than
  // one step a sticking phase from its second step to the separation.
  class MoreauJeanSolver : public SolverBase<MoreauJeanSolver, MoreauJeanSettings>
  {
  public:
    using SolverBase::SolverBase;

    static constexpr SolverIdentity identity{
      "moreau-jean", "the θ-method with Newton impacts on the FE model, LCPs by Siconos, optional energy correction",
      "Moreau-Jean"};

    // Rejects a time step longer than the final time, a final time that is not a whole number of
    // steps (the last step must end at it), and runs of more than max_fixed_steps steps.
    void check(const model::StructuralModel &model, const RunControl &control, const std::string &file) const override;
    bool takes_spatial_supports() const override { return true; }
    bool takes_elastic_contacts() const override { return true; }

    RunSummary run(const model::StructuralModel &model, const RunControl &control,
                   ResponseObserver &observer) const override;

    // A run whose deepest penetration of a contact exceeds this fraction of the contact point's
    // largest motion ends with a warning in its summary.
    static constexpr double penetration_warning_fraction = 0.01;
  };
} // namespace vibroimpact::integrators
