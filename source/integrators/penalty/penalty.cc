// The Hunt–Crossley penalty solver (Antunes et al. 2017, eq. 20), registered as "modal-penalty":
// the modal equations and velocity-Verlet of the modal Udwadia–Kalaba solver with a force law
// instead of constraints. Derivation of its restitution: doc/udwadia_kalaba.md.
#include <vibroimpact/integrators/penalty.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>

#include <algorithm>
#include <stdexcept>

#include "../modal_recorder.h"

namespace vibroimpact::integrators
{
  void bind_modal_penalty_parameters(io::ParameterSection &section, ModalPenaltySettings &s)
  {
    bind_modal_stepping_parameters(section, s);
    io::Bounds stiffness = io::positive();
    section.add("Stiffness", s.stiffness, stiffness,
                "k_p: contact force per unit penetration (the paper: 1e6 N/m); the contact time scales as "
                "k_p^(-1/2): h must resolve it.");
    section.add("Damping", s.damping, io::non_negative(),
                "mu_p of the Hunt-Crossley force k_p delta (1 + mu_p d(delta)/dt), per unit penetration "
                "velocity (the paper: 0.1 s/m); restitution e = 1 - (2/3) mu_p v0 to first order.");
  }

  ModalPenalty::ModalPenalty(const model::StructuralModel &model, ModalPenaltySettings settings)
    : settings_(std::move(settings))
    , projection_(model, settings_.n_modes, settings_.damping_ratios, settings_.mode_source)
  {
    if (!(settings_.time_step > 0) || !(settings_.stiffness > 0) || !(settings_.damping >= 0))
      throw std::invalid_argument("modal penalty: the time step and k_p must be positive, mu_p non-negative");
  }

  namespace
  {
    // One contact episode (consecutive steps with penetration): its impact event, built as it goes.
    struct Episode
    {
      bool         open       = false;
      bool         rebounding = false; // the penetration has started to decrease
      bool         persistent = false; // ... and to increase again without the gap opening
      ContactEvent impact;
    };

    // Where a quantity that goes from x0 to x1 over a step crosses zero, as a fraction of the step.
    double crossing(const double x0, const double x1)
    {
      return x0 == x1 ? 1.0 : std::clamp(x0 / (x0 - x1), 0.0, 1.0);
    }
  } // namespace

  RunSummary ModalPenalty::run(const RunControl &control, ResponseObserver &observer) const
  {
    const ModalProjection &P  = projection_;
    const Eigen::MatrixXd &B  = P.contact_rows();
    const auto             nc = static_cast<unsigned int>(B.rows());
    const double           h = settings_.time_step, kp = settings_.stiffness, mu = settings_.damping;
    const unsigned long    n = modal_step_count(h, control.final_time);
    if (n == 0)
      throw std::invalid_argument("modal penalty: the final time is shorter than a step");

    // Eq. (20): λ = k_p δ (1 + μ_p δ'), δ = −g > 0, never tensile.
    Eigen::VectorXd force(nc);
    const auto contact_forces = [&](const Eigen::VectorXd &q, const Eigen::VectorXd &v) {
      for (unsigned int i = 0; i < nc; ++i)
        {
          const double delta = -P.gap(i, q), rate = -B.row(i).dot(v);
          force[i]           = delta > 0 ? std::max(0.0, kp * delta * (1 + mu * rate)) : 0.0;
        }
      return B.transpose() * force;
    };

    Eigen::VectorXd q = P.initial_displacement(), v = P.initial_velocity();
    Eigen::VectorXd f = P.load(0.0);
    Eigen::VectorXd a = P.free_acceleration(q, v, 0.0) + contact_forces(q, v);
    ModalRecorder   recorder(P, control, h, n, observer);
    recorder.initial_energy = recorder.energy(q, v);
    recorder.record(0, q, v, force);

    RunSummary           summary;
    std::vector<Episode> episodes(nc);
    unsigned long        n_episodes = 0;
    double               deepest    = 0.0;
    const auto           close_episode = [&](unsigned int c, const double t) {
      Episode &e = episodes[c];
      observer.event(e.impact);
      if (e.persistent)
        {
          ContactEvent separation = e.impact;
          separation.kind         = ContactEvent::Kind::separation;
          separation.time         = t;
          separation.impulse = separation.pre_velocity = separation.post_velocity = 0.0;
          observer.event(separation);
        }
      e = Episode{};
    };

    Eigen::VectorXd gap_start = P.gap0() + B * q, rate_start = B * v, force_start = force;
    for (unsigned long k = 1; k <= n; ++k)
      {
        const double t = k == n ? control.final_time : k * h;
        q += h * v + 0.5 * h * h * a;
        const Eigen::VectorXd v_predicted = v + h * a; // for the velocity-dependent forces
        const Eigen::VectorXd f_end       = P.load(t);
        const Eigen::VectorXd a_end =
          f_end - P.damping().cwiseProduct(v_predicted) - P.omegas().cwiseAbs2().cwiseProduct(q) +
          contact_forces(q, v_predicted);
        const Eigen::VectorXd v_start = v;
        v += 0.5 * h * (a + a_end);
        recorder.add_step_work(v_start, f, v, f_end);

        // The contacts' work on the structure, −∫ λ·U dt, is what they took: stored in the
        // penalty springs while in contact, dissipated once they open.
        const Eigen::VectorXd gap = P.gap0() + B * q, rate = B * v;
        recorder.impact_dissipation -= 0.5 * h * (force_start.dot(rate_start) + force.dot(rate));
        recorder.impulse_since_row += 0.5 * h * (force_start + force);

        for (unsigned int c = 0; c < nc; ++c)
          {
            Episode &e = episodes[c];
            if (gap[c] < 0)
              {
                deepest = std::max(deepest, -gap[c]);
                if (!e.open)
                  {
                    // Entry: the crossing of g = 0 within the step, the contact velocity there.
                    const double s = crossing(gap_start[c], gap[c]);
                    e.open                 = true;
                    e.impact.kind          = ContactEvent::Kind::impact;
                    e.impact.contact       = c;
                    e.impact.time          = t - h + s * h;
                    e.impact.pre_velocity  = rate_start[c] + s * (rate[c] - rate_start[c]);
                    e.impact.impulse       = 0.0;
                    ++summary.impacts;
                    ++n_episodes;
                  }
                e.impact.impulse += 0.5 * h * (force_start[c] + force[c]);
                // The penetration turns from growing to shrinking (the rebound) and, if it grows
                // again before the gap opens, the contact is persistent: a sticking phase.
                if (rate[c] > 0)
                  e.rebounding = true;
                else if (e.rebounding && rate[c] < 0 && !e.persistent)
                  {
                    e.persistent = true;
                    ContactEvent stick;
                    stick.kind    = ContactEvent::Kind::sticking_start;
                    stick.contact = c;
                    stick.time    = t;
                    observer.event(stick);
                  }
                summary.sticking_time += e.persistent ? h : 0.0;
              }
            else if (e.open)
              {
                const double s         = crossing(gap_start[c], gap[c]);
                e.impact.post_velocity = rate_start[c] + s * (rate[c] - rate_start[c]);
                e.impact.impulse += 0.5 * h * (force_start[c] + force[c]);
                close_episode(c, t - h + s * h);
              }
          }
        gap_start   = gap;
        rate_start  = rate;
        force_start = force;
        a           = a_end;
        f           = f_end;
        recorder.record(k, q, v, force);
      }
    for (unsigned int c = 0; c < nc; ++c)
      if (episodes[c].open)
        {
          // Still in contact at the end: the event reports the state so far, with no separation.
          episodes[c].impact.post_velocity = rate_start[c];
          episodes[c].persistent           = false;
          close_episode(c, control.final_time);
        }
    recorder.finish(summary, q, v);
    summary.step_name = "steps";
    summary.counters  = {{"modes", double(P.size())},
                        {"contact episodes", double(n_episodes)},
                        {"deepest penetration", deepest},
                        {"impact dissipation", recorder.impact_dissipation}};
    return summary;
  }

  namespace
  {
    class ModalPenaltySolver : public Solver
    {
    public:
      std::string name() const override { return "modal-penalty"; }
      std::string description() const override
      {
        return "modal Hunt-Crossley penalty contacts, velocity-Verlet (Antunes et al.)";
      }
      std::string parameter_section() const override { return "Modal penalty"; }
      void bind_parameters(io::ParameterSection &section) override { bind_modal_penalty_parameters(section, settings_); }
      std::unique_ptr<Solver> clone() const override { return std::make_unique<ModalPenaltySolver>(*this); }

      std::optional<double>       time_step() const override { return settings_.time_step; }
      void                        set_time_step(double h) override { settings_.time_step = h; }
      std::optional<unsigned int> number_of_modes() const override { return settings_.n_modes; }
      void set_number_of_modes(const unsigned int n) override { settings_.n_modes = n; }

      void check(const model::StructuralModel &model, const RunControl &control, const std::string &file) const override
      {
        check_modal_stepping(settings_, model, control, file, parameter_section());
        // The ParameterSection bounds catch these in a case file; a solver set up in code is checked here.
        if (!(settings_.stiffness > 0))
          throw io::InputError(file, parameter_section() + "/Stiffness", "k_p must be positive");
        if (!(settings_.damping >= 0))
          throw io::InputError(file, parameter_section() + "/Damping", "mu_p must not be negative");
      }

      RunSummary run(const model::StructuralModel &model, const RunControl &control,
                     ResponseObserver &observer) const override
      {
        return ModalPenalty(model, settings_).run(control, observer);
      }

    private:
      ModalPenaltySettings settings_;
    };

    const SolverRegistration<ModalPenaltySolver> registration;
  } // namespace
} // namespace vibroimpact::integrators
