// The Hunt–Crossley penalty solver (Antunes et al. 2017, eq. 20), registered as "modal-penalty":
// the modal equations and velocity-Verlet of the modal Udwadia–Kalaba solver with a force law
// instead of constraints. Derivation of its restitution: doc/udwadia_kalaba.md.
#include <vibroimpact/integrators/penalty.h>
#include <vibroimpact/integrators/solver_base.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "../modal_recorder.h"
#include "spatial_penalty.h"

namespace vibroimpact::integrators
{
  void bind_settings(io::ParameterSection &section, ModalPenaltySettings &s)
  {
    bind_modal_stepping_parameters(section, s);
    io::Bounds stiffness = io::positive();
    section.add("Stiffness", s.stiffness, stiffness,
                "k_p: contact force per unit penetration (the paper: 1e6 N/m); the contact time scales as "
                "k_p^(-1/2): h must resolve it.");
    section.add("Damping", s.damping, io::non_negative(),
                "mu_p of the Hunt-Crossley force k_p delta (1 + mu_p d(delta)/dt), per unit penetration "
                "velocity (the paper: 0.1 s/m); restitution e = 1 - (2/3) mu_p v0 to first order.");
    section.add("Tangential stiffness", s.tangential_stiffness, io::positive(),
                "k_t of the Coulomb stick spring at spatial supports with friction: while |k_t s| <= mu F_N "
                "the contact sticks with an elastic drift s <= mu F_N / k_t, else it slides at mu F_N; "
                "the stick time scale is (m / k_t)^(1/2): h must resolve it.");
  }

  ModalPenalty::ModalPenalty(const model::StructuralModel &model, ModalPenaltySettings settings)
    : ModalIntegrator(model, std::move(settings))
  {
    if (!(settings_.time_step > 0) || !(settings_.stiffness > 0) || !(settings_.damping >= 0) ||
        !(settings_.tangential_stiffness > 0))
      throw std::invalid_argument("modal penalty: the time step, k_p and k_t must be positive, mu_p non-negative");
    if (!model.spatial_supports.empty())
      spatial_ = std::make_shared<const SpatialPenalty>(model, projection_, settings_);
  }

  ModalPenalty::~ModalPenalty() = default;

  namespace
  {
    // One contact episode (consecutive steps with penetration): its impact event, built as it goes.
    struct PenaltyEpisode
    {
      bool         open       = false;
      bool         rebounding = false; // the penetration has started to decrease
      bool         persistent = false; // ... and to increase again without the gap opening
      ContactEvent impact;
    };

  } // namespace

  namespace
  {
    // One run: velocity-Verlet steps with the penalty forces, the contact episodes they make.
    class PenaltyRun : ModalSteppingRun
    {
    public:
      PenaltyRun(const ModalPenaltySettings &settings, const ModalProjection &projection,
                 const SpatialPenalty *spatial, const RunControl &control, ResponseObserver &observer)
        : ModalSteppingRun(projection, settings.time_step, control, observer, "modal penalty")
        , kp_(nc_)
        , mu_(nc_)
        , rigid_(nc_)
        , force_(nc_)
        , episodes_(nc_)
      {
        // An elastic contact is its own unilateral spring: the linear law (exponent 1, no damping)
        // with its stiffness, its energy stored (the recorder's potential), not dissipated.
        const Eigen::VectorXd &k = projection.contact_stiffness();
        for (unsigned int i = 0; i < nc_; ++i)
          {
            kp_[i]    = k[i] > 0 ? k[i] : settings.stiffness;
            mu_[i]    = k[i] > 0 ? 0.0 : settings.damping;
            rigid_[i] = k[i] > 0 ? 0.0 : 1.0;
          }
        if (spatial)
          {
            spatial_.emplace(*spatial);
            recorder_.watch_supports(spatial->supports());
          }
      }

      RunSummary run()
      {
        start();
        for (unsigned long k = 1; k <= n_; ++k)
          {
            const double t = time_of(k);
            step(t);
            follow_episodes(t);
            if (spatial_)
              spatial_->finish_step(v_, t, h_, recorder_, observer_);
            recorder_.record(k, q_, v_, force_);
          }
        close_open_episodes();
        if (spatial_)
          spatial_->close_open_episodes(control_.final_time, observer_);
        return summarise();
      }

    private:
      // Eq. (20): λ = k_p δ (1 + μ_p δ'), δ = −g > 0, never tensile; returns Bᵀλ.
      Eigen::VectorXd contact_forces(const Eigen::VectorXd &q, const Eigen::VectorXd &v)
      {
        for (unsigned int i = 0; i < nc_; ++i)
          {
            const double delta = -P_.gap(i, q), rate = -B_.row(i).dot(v);
            force_[i]          = delta > 0 ? std::max(0.0, kp_[i] * delta * (1 + mu_[i] * rate)) : 0.0;
          }
        return B_.transpose() * force_;
      }

      void start()
      {
        a_ = P_.free_acceleration(q_, v_, 0.0) + contact_forces(q_, v_);
        if (spatial_)
          spatial_->add_forces(q_, v_, nullptr, a_);
        recorder_.initial_energy = recorder_.energy(q_, v_);
        recorder_.record(0, q_, v_, force_);
        gap_start_   = P_.gap0() + B_ * q_;
        rate_start_  = B_ * v_;
        force_start_ = force_;
      }

      // One velocity-Verlet step to t; the gaps and contact velocities at its end.
      void step(const double t)
      {
        verlet_step(t, [this](Eigen::VectorXd &a_end, const Eigen::VectorXd &v_predicted) {
          a_end += contact_forces(q_, v_predicted);
          if (spatial_)
            spatial_->add_forces(q_, v_predicted, &dq_, a_end);
        });

        // The rigid contacts' work on the structure, −∫ λ·U dt, is what they took: stored in the
        // penalty springs while in contact, dissipated once they open. (An elastic contact's
        // spring energy is in the potential energy.)
        gap_  = P_.gap0() + B_ * q_;
        rate_ = B_ * v_;
        recorder_.impact_dissipation -= 0.5 * h_ * (force_start_.cwiseProduct(rigid_).dot(rate_start_) +
                                                    force_.cwiseProduct(rigid_).dot(rate_));
        recorder_.impulse_since_row += 0.5 * h_ * (force_start_ + force_);
      }

      // Opens, extends and closes the contact episodes over the step that ends at t.
      void follow_episodes(const double t)
      {
        for (unsigned int c = 0; c < nc_; ++c)
          {
            PenaltyEpisode &e = episodes_[c];
            if (gap_[c] < 0)
              {
                deepest_ = std::max(deepest_, -gap_[c]);
                if (!e.open)
                  {
                    // Entry: the crossing of g = 0 within the step, the contact velocity there.
                    const double s = zero_crossing_fraction(gap_start_[c], gap_[c]);
                    e.open                 = true;
                    e.impact.kind          = ContactEvent::Kind::impact;
                    e.impact.contact       = c;
                    e.impact.time          = t - h_ + s * h_;
                    e.impact.pre_velocity  = rate_start_[c] + s * (rate_[c] - rate_start_[c]);
                    e.impact.impulse       = 0.0;
                    ++n_episodes_;
                  }
                e.impact.impulse += 0.5 * h_ * (force_start_[c] + force_[c]);
                // The penetration turns from growing to shrinking (the rebound) and, if it grows
                // again before the gap opens, the contact is persistent: a sticking phase.
                if (rate_[c] > 0)
                  e.rebounding = true;
                else if (e.rebounding && rate_[c] < 0 && !e.persistent && rigid_[c] != 0.0)
                  {
                    e.persistent = true;
                    ContactEvent stick;
                    stick.kind    = ContactEvent::Kind::sticking_start;
                    stick.contact = c;
                    stick.time    = t;
                    report(stick);
                  }
                summary_.sticking_time += e.persistent ? h_ : 0.0;
              }
            else if (e.open)
              {
                const double s         = zero_crossing_fraction(gap_start_[c], gap_[c]);
                e.impact.post_velocity = rate_start_[c] + s * (rate_[c] - rate_start_[c]);
                e.impact.impulse += 0.5 * h_ * (force_start_[c] + force_[c]);
                close_episode(c, t - h_ + s * h_);
              }
          }
        gap_start_   = gap_;
        rate_start_  = rate_;
        force_start_ = force_;
      }

      // The impact (with the episode's impulse) and, for a persistent contact, its separation.
      // An elastic contact has no impact: its episode is the spring's closed phase, from its
      // closing to the separation (as the event-driven map reports it).
      void close_episode(const unsigned int c, const double t, const bool separated = true)
      {
        PenaltyEpisode &e = episodes_[c];
        if (rigid_[c] == 0.0)
          {
            ContactEvent closing = e.impact;
            closing.kind         = ContactEvent::Kind::sticking_start;
            closing.impulse = closing.pre_velocity = closing.post_velocity = 0.0;
            report(closing);
            e.persistent = separated;
          }
        else
          report(e.impact);
        if (e.persistent)
          {
            ContactEvent separation = e.impact;
            separation.kind         = ContactEvent::Kind::separation;
            separation.time         = t;
            separation.impulse = separation.pre_velocity = separation.post_velocity = 0.0;
            report(separation);
          }
        e = PenaltyEpisode{};
      }

      // Still in contact at the end: the event reports the state so far, with no separation.
      void close_open_episodes()
      {
        for (unsigned int c = 0; c < nc_; ++c)
          if (episodes_[c].open)
            {
              episodes_[c].impact.post_velocity = rate_start_[c];
              episodes_[c].persistent           = false;
              close_episode(c, control_.final_time, false);
            }
      }

      RunSummary summarise()
      {
        finish_summary();
        count("contact episodes", double(n_episodes_));
        count("deepest penetration", deepest_);
        count("impact dissipation", recorder_.impact_dissipation);
        if (spatial_)
          {
            count("support contact episodes", double(spatial_->episodes()));
            count("deepest support penetration", spatial_->deepest());
            count("friction dissipation", recorder_.friction_dissipation);
            count("support sticking time", spatial_->sticking_time()); // tangential (Coulomb) sticking
            summary_.impacts += spatial_->episodes();
          }
        return summary_;
      }

      Eigen::VectorXd      kp_, mu_;                        // per contact
      Eigen::VectorXd      rigid_;                          // 1 for a rigid contact, 0 for an elastic one
      Eigen::VectorXd      force_;                          // λ per contact, at the step end
      Eigen::VectorXd      gap_, rate_;                     // at the step end
      Eigen::VectorXd      gap_start_, rate_start_, force_start_; // at the step start
      std::vector<PenaltyEpisode> episodes_;
      std::optional<SpatialPenalty> spatial_; // the spatial supports' contacts, if any
      unsigned long        n_episodes_ = 0;
      double               deepest_    = 0.0;
    };
  } // namespace

  RunSummary ModalPenalty::run(const RunControl &control, ResponseObserver &observer) const
  {
    return PenaltyRun(settings_, projection_, spatial_.get(), control, observer).run();
  }

  namespace
  {
    class ModalPenaltySolver : public IntegratorSolverBase<ModalPenaltySolver, ModalPenaltySettings, ModalPenalty>
    {
    public:
      static constexpr SolverIdentity identity{
        "modal-penalty", "modal Hunt-Crossley penalty contacts, velocity-Verlet (Antunes et al.)", "Modal penalty"};

      void check(const model::StructuralModel &model, const RunControl &control, const std::string &file) const override
      {
        check_modal_stepping(settings_, model, control, file, parameter_section());
        // The ParameterSection bounds catch these in a case file; a solver set up in code is checked here.
        if (!(settings_.stiffness > 0))
          throw io::InputError(file, parameter_section() + "/Stiffness", "k_p must be positive");
        if (!(settings_.damping >= 0))
          throw io::InputError(file, parameter_section() + "/Damping", "mu_p must not be negative");
        if (!(settings_.tangential_stiffness > 0))
          throw io::InputError(file, parameter_section() + "/Tangential stiffness", "k_t must be positive");
      }

      bool takes_spatial_supports() const override { return true; }
      bool takes_elastic_contacts() const override { return true; }
    };

    const SolverRegistration<ModalPenaltySolver> modal_penalty_solver_registration;
  } // namespace
} // namespace vibroimpact::integrators
