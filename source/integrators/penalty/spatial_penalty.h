// Internal to the modal penalty solver: its spatial supports with Hunt–Crossley normal
// forces and regularised Coulomb friction, doc/udwadia_kalaba.md "Penalty contacts in space".
//
// Per candidate contact (model::contact_frames' gap and frame, on the modal rows of
// modal_supports.h), with penetration δ = −g > 0:
//   F_N = max(0, k_p δ (1 + μ_p δ̇)),
//   tangential: an elastic–plastic stick spring (Code_Aster DYNA_VIBRA's CHOC): the spring's
//   elongation s (circumferential, axial) takes the step's tangential displacement Δ; the trial
//   force −k_t (s + Δ) is kept if |·| ≤ μ F_N (stick: a bounded elastic drift |s| ≤ μ F_N / k_t),
//   else capped at μ F_N along it and the excess (|trial| − μ F_N) / k_t is slip.
// Friction dissipation μ F_N |slip| ≥ 0 and wear work F_N |slip| (= ∫ F_N |v_t| dt; frictionless
// supports: F_N |Δ|) are accumulated at every step; the contact work the structure loses over a
// step (trapezoidal, −∫ F·U dt) less that dissipation goes to the impact term, which therefore
// holds the normal and tangential springs' stored energy while a contact is closed, as for the
// planar penalty.
#pragma once

#include <vibroimpact/integrators/penalty.h>

#include <algorithm>
#include <vector>

#include "../modal_recorder.h"
#include "../modal_supports.h"

namespace vibroimpact::integrators
{
  // Where a quantity that goes from x0 to x1 over a step crosses zero, as a fraction of the step.
  inline double zero_crossing_fraction(const double x0, const double x1)
  {
    return x0 == x1 ? 1.0 : std::clamp(x0 / (x0 - x1), 0.0, 1.0);
  }

  class SpatialPenalty
  {
  public:
    SpatialPenalty(const model::StructuralModel &model, const ModalProjection &projection,
                   const ModalPenaltySettings &settings);

    bool        empty() const { return supports_.empty(); }
    std::size_t size() const { return supports_.size(); }
    const std::vector<ModalSupport> &supports() const { return supports_; }

    // Adds Σ (normal F_N + tangentᵀ F_t) on the modes to `generalized`, at the modal state (q, v)
    // (v: the velocity the damping reads). dq: the step's displacement increment, which loads
    // the tangential springs and is committed; null at t = 0 (nothing moves).
    void add_forces(const Eigen::VectorXd &q, const Eigen::VectorXd &v, const Eigen::VectorXd *dq,
                    Eigen::VectorXd &generalized);

    // After a step that ends at t with velocity v: the contacts' work into the recorder's ledger,
    // the supports' samples, and the contact episodes with their events.
    void finish_step(const Eigen::VectorXd &v, double t, double h, ModalRecorder &recorder,
                     ResponseObserver &observer);

    // Episodes still open at the end: their impacts, with no separation.
    void close_open_episodes(double t, ResponseObserver &observer);

    unsigned long episodes() const { return n_episodes_; }
    double        deepest() const { return deepest_; }
    double        sticking_time() const { return sticking_time_; }

  private:
    struct Contact
    {
      unsigned int      support = 0;
      ModalContactFrame frame;                          // at the last force evaluation
      double            fn = 0.0, fn_start = 0.0;       // F_N at the step's end and start
      Eigen::Vector2d   ft = Eigen::Vector2d::Zero(), ft_start = Eigen::Vector2d::Zero();
      double            un_start = 0.0;                 // U_n at the step's start
      Eigen::Vector2d   ut_start = Eigen::Vector2d::Zero();
      Eigen::Vector2d   spring   = Eigen::Vector2d::Zero(); // s, the stick spring's elongation
      double            slip     = 0.0;                 // |slip| of the last step
      bool              stuck    = false;               // the last step stuck (μ > 0, F_N > 0)
      double            gap_start = 1.0;
      // The episode: consecutive steps with penetration.
      bool          open = false, sticking = false, slipped = false; // slipped: in this episode
      unsigned long steps = 0;
      SupportEvent  impact;
    };

    void tangential_force(Contact &c, const ModalSupport &s, const Eigen::Matrix<double, 4, 1> &drows);
    void follow_episode(Contact &c, double gap, double un, double t, double h, ResponseObserver &observer);
    void report_change(const Contact &c, ContactEvent::Kind kind, double t, ResponseObserver &observer);
    void close(Contact &c, double t, bool separated, ResponseObserver &observer);

    const double                 kp_, mu_p_, kt_;
    std::vector<ModalSupport>    supports_;
    std::vector<Contact>         contacts_; // every candidate of every support, support by support
    Eigen::Matrix<double, 4, 1>  rows_q_, rows_v_;
    unsigned long                n_episodes_ = 0;
    double                       deepest_ = 0.0, sticking_time_ = 0.0;
  };
} // namespace vibroimpact::integrators
