// The Moreau–Jean time stepper as a registered solver ("moreau-jean"): the OSI of moreau_jean.h
// run from the model's initial state to the final time with the energy ledger, reporting a
// sample at every output time (and at every step with an energy correction, so that every β is
// in the history) and a contact event per contact episode.
#include <vibroimpact/integrators/energy_ledger.h>
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/integrators/solver_base.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>

#include <cmath>
#include <iostream>
#include <sstream>

namespace vibroimpact::integrators
{
  namespace
  {
    // The first non-finite quantity after a step, for the failure message.
    std::string non_finite_report(const unsigned long k, const double t, const State &state, const EnergyLedger &ledger)
    {
      std::ostringstream message;
      message << "step " << k << " (t = " << t << "): non-finite ";
      for (const auto &[name, field] : {std::pair<const char *, const Vector *>{"displacement", &state.u},
                                        std::pair<const char *, const Vector *>{"velocity", &state.v}})
        for (Eigen::Index i = 0; i < field->size(); ++i)
          if (!std::isfinite((*field)[i]))
            {
              message << name << " at DoF " << i << " (" << (*field)[i] << ")";
              return message.str();
            }
      const std::pair<const char *, double> terms[] = {{"kinetic energy", ledger.kinetic()},
                                                       {"potential energy", ledger.potential()},
                                                       {"external work", ledger.external_work()},
                                                       {"damping dissipation", ledger.damping_dissipation()},
                                                       {"impact dissipation", ledger.impact_dissipation()},
                                                       {"friction dissipation", ledger.friction_dissipation()},
                                                       {"numerical dissipation", ledger.numerical_dissipation()}};
      for (const auto &[name, value] : terms)
        if (!std::isfinite(value))
          {
            message << name << " (" << value << ")";
            return message.str();
          }
      message << "energy";
      return message.str();
    }

    // One contact episode of the stepper: consecutive steps with a positive impulse.
    struct Episode
    {
      bool          open  = false;
      unsigned long steps = 0;
      ContactEvent  impact;
      double        second_step_start = 0.0;
    };

    // What the spatial supports' contacts did, step by step: impulses since the last row, friction
    // and wear work since t = 0 (every step: rows are too coarse to integrate them), contact
    // episodes per candidate with their events (impact, tangential sticking, separation), and the
    // deepest penetration of each support.
    class SupportFollower
    {
    public:
      explicit SupportFollower(const model::StructuralModel &model)
        : model_(model)
        , samples_(model.spatial_supports.size())
      {
        for (const auto &support : model.spatial_supports)
          {
            episodes_.emplace_back(support.n_candidates());
            deepest_.push_back({0.0, 0.0});
          }
      }

      void follow(const StepReport &report, const double t_start, const double h, ResponseObserver &observer)
      {
        if (samples_.empty())
          return;
        std::vector<std::vector<bool>> touched;
        for (const auto &e : episodes_)
          touched.emplace_back(e.size(), false);
        for (const auto &c : report.spatial)
          {
            auto &s = samples_[c.support];
            s.normal_impulse += c.normal_impulse;
            s.tangential_impulse += std::hypot(c.tangential_impulse[0], c.tangential_impulse[1]);
            s.friction_work += c.friction_work;
            s.wear_work += c.wear_work;
            if (c.normal_impulse > 0)
              {
                touched[c.support][c.candidate] = true;
                follow_contact(c, t_start, h, observer);
              }
          }
        for (std::size_t k = 0; k < episodes_.size(); ++k)
          for (std::size_t j = 0; j < episodes_[k].size(); ++j)
            if (!touched[k][j] && episodes_[k][j].open)
              close(k, j, t_start, true, observer);
        for (Eigen::Index k = 0; k < report.support_gap.size(); ++k)
          if (report.support_gap[k] < deepest_[k].first)
            deepest_[k] = {report.support_gap[k], t_start + h};
      }

      void close_all(const double t, ResponseObserver &observer)
      {
        for (std::size_t k = 0; k < episodes_.size(); ++k)
          for (std::size_t j = 0; j < episodes_[k].size(); ++j)
            if (episodes_[k][j].open)
              close(k, j, t, false, observer);
      }

      // The row's samples: mean forces over its span; impulses restart at the next row.
      const std::vector<SupportSample> *row(const double span)
      {
        if (samples_.empty())
          return nullptr;
        for (auto &s : samples_)
          {
            s.normal_force     = span > 0 ? s.normal_impulse / span : 0.0;
            s.tangential_force = span > 0 ? s.tangential_impulse / span : 0.0;
          }
        shown_ = samples_;
        for (auto &s : samples_)
          s.normal_impulse = s.tangential_impulse = 0.0;
        return &shown_;
      }

      // Penetrations deeper than the fraction of the support's clearance (its smallest side).
      void warn(const double fraction, const double h, std::vector<std::string> &warnings) const
      {
        for (std::size_t k = 0; k < deepest_.size(); ++k)
          {
            const auto &support = model_.spatial_supports[k];
            double      scale   = support.clearance;
            for (const auto &side : support.sides)
              scale = scale > 0 ? std::min(scale, side.distance) : side.distance;
            if (deepest_[k].first < 0 && -deepest_[k].first > fraction * scale)
              {
                std::ostringstream w;
                w << "support " << support.name << ": penetration " << -deepest_[k].first << " at t = "
                  << deepest_[k].second << " is " << 100 * -deepest_[k].first / scale << " % of its clearance "
                  << scale << ": the time step h = " << h << " is too long for this support";
                warnings.push_back(w.str());
              }
          }
      }

      unsigned long impacts() const { return impacts_; }

    private:
      struct Episode
      {
        bool          open = false, sticking = false;
        unsigned long steps = 0;
        SupportEvent  impact;
      };

      void follow_contact(const SpatialContactReport &c, const double t_start, const double h,
                          ResponseObserver &observer)
      {
        Episode &e = episodes_[c.support][c.candidate];
        if (!e.open)
          {
            const double approach = -c.normal_velocity_before;
            e                     = Episode{};
            e.open                = true;
            e.impact.kind         = ContactEvent::Kind::impact;
            e.impact.time         = t_start + (approach > 0 ? std::clamp(c.gap / approach, 0.0, h) : 0.0);
            e.impact.support      = c.support;
            e.impact.candidate    = c.candidate;
            e.impact.angle        = c.angle;
            e.impact.pre_velocity = c.normal_velocity_before;
            e.impact.post_velocity = c.normal_velocity_after;
          }
        ++e.steps;
        e.impact.impulse += c.normal_impulse;
        // Tangential sticking: the contact's sliding velocity after the step is zero (to the
        // solver's round-off relative to the velocities in play).
        const double slip  = std::hypot(c.tangential_velocity_after[0], c.tangential_velocity_after[1]);
        const double speed = std::hypot(c.tangential_velocity_before[0], c.tangential_velocity_before[1]) +
                             std::abs(c.normal_velocity_before);
        const bool stuck = model_.spatial_supports[c.support].friction > 0 && slip <= 1e-9 * std::max(speed, 1e-300);
        if (stuck && !e.sticking)
          {
            SupportEvent stick = e.impact;
            stick.kind         = ContactEvent::Kind::sticking_start;
            stick.time         = t_start + h;
            stick.angle        = c.angle;
            stick.impulse = stick.pre_velocity = stick.post_velocity = 0.0;
            observer.support_event(stick);
          }
        e.sticking = stuck;
      }

      void close(const std::size_t k, const std::size_t j, const double t, const bool separated,
                 ResponseObserver &observer)
      {
        Episode &e = episodes_[k][j];
        observer.support_event(e.impact);
        ++impacts_;
        if (e.steps > 1 && separated)
          {
            SupportEvent separation = e.impact;
            separation.kind         = ContactEvent::Kind::separation;
            separation.time         = t;
            separation.impulse = separation.pre_velocity = separation.post_velocity = 0.0;
            observer.support_event(separation);
          }
        e = Episode{};
      }

      const model::StructuralModel           &model_;
      std::vector<SupportSample>              samples_, shown_;
      std::vector<std::vector<Episode>>       episodes_;
      std::vector<std::pair<double, double>>  deepest_; // gap, time
      unsigned long                           impacts_ = 0;
    };
  } // namespace

  void MoreauJeanSolver::check(const model::StructuralModel &model, const RunControl &control, const std::string &file) const
  {
    check_fixed_time_step(settings_.time_step, model, control, file, parameter_section());
  }

  namespace
  {
    // One run: the OSI's steps, the ledger, the rows and the contact episodes, and the warnings
    // the summary ends with.
    class MoreauJeanRun : SolverRun
    {
    public:
      MoreauJeanRun(const MoreauJeanSettings &settings, const model::StructuralModel &model, const RunControl &control,
                    ResponseObserver &observer)
        : SolverRun(control, observer, "steps")
        , model_(model)
        , osi_(model, settings)
        , state_(osi_.initial_state())
        , ledger_(osi_.kinetic_energy(state_.v), osi_.potential_energy(state_.u))
        , h_(settings.time_step)
        , n_steps_(static_cast<unsigned long>(std::llround(control.final_time / h_)))
        , n_contacts_(model.contacts.size())
        , impulse_since_row_(Vector::Zero(n_contacts_))
        , episodes_(n_contacts_)
        , rows_{control.output_interval, h_}
        , frames_{control.frame_interval, h_}
        , gap_before_(n_contacts_)
        , deepest_(n_contacts_)
        , travel_(n_contacts_, 0.0)
        , supports_(model)
      {}

      RunSummary run()
      {
        summary_.initial_energy = ledger_.total();
        record(control_.frame_interval > 0);
        for (std::size_t c = 0; c < n_contacts_; ++c)
          gap_before_[c] = model_.contacts[c].gap0 + model_.contacts[c].row.dot(state_.u);
        for (unsigned long k = 1; k <= n_steps_; ++k)
          {
            const double t_start = state_.t;
            const auto   report  = step(k);
            follow_episodes(report, t_start);
            supports_.follow(report, t_start, h_, observer_);
            account(k, t_start, report);
            record_if_due(k, report.corrected);
          }
        for (std::size_t c = 0; c < n_contacts_; ++c)
          if (episodes_[c].open)
            close_episode(c, state_.t, false);
        supports_.close_all(state_.t, observer_);
        return summarise();
      }

    private:
      // One step of the OSI; an LCP no solver could solve ends the run.
      StepReport step(const unsigned long k)
      {
        const double t_start = state_.t;
        auto         report  = osi_.step(state_);
        if (report.lcp_solved)
          {
            ++(report.friction_problem ? friction_solves_ : lcp_solves_);
            if (report.lcp_failed)
              {
                std::ostringstream message;
                message << "step " << k << " (t = " << t_start + h_ << "): " << report.lcp_message;
                throw NumericalFailure(message.str());
              }
            if (report.lcp_attempts > 1)
              {
                ++lcp_fallbacks_;
                std::cerr << "warning: step " << k << " (t = " << t_start + h_ << "): " << report.lcp_message
                          << "accepted with error " << report.lcp_error << "\n";
              }
          }
        return report;
      }

      // Contact episodes (consecutive steps with an impulse), the deepest penetration and how
      // far each contact point moved.
      void follow_episodes(const StepReport &report, const double t_start)
      {
        bool sticking = false;
        for (std::size_t c = 0; c < n_contacts_; ++c)
          {
            Episode &e = episodes_[c];
            if (report.impulse[c] > 0)
              {
                if (!e.open)
                  {
                    // The impact instant: the step start plus the time to close the gap at the
                    // pre-impact contact velocity (within the step).
                    const double approach = -report.velocity_before[c];
                    const double delay    = approach > 0 ? std::clamp(gap_before_[c] / approach, 0.0, h_) : 0.0;
                    e.open                 = true;
                    e.impact.kind          = ContactEvent::Kind::impact;
                    e.impact.time          = t_start + delay;
                    e.impact.contact       = static_cast<unsigned int>(c);
                    e.impact.pre_velocity  = report.velocity_before[c];
                    e.impact.post_velocity = report.velocity_after[c];
                  }
                else
                  sticking = true;
                if (++e.steps == 2)
                  e.second_step_start = t_start;
                e.impact.impulse += report.impulse[c];
              }
            else if (e.open)
              close_episode(c, t_start, true);
            gap_before_[c] = report.gap[c];
            if (report.gap[c] < deepest_[c].gap)
              deepest_[c] = {report.gap[c], state_.t};
            travel_[c] = std::max(travel_[c], std::abs(report.gap[c] - model_.contacts[c].gap0));
          }
        summary_.sticking_time += sticking ? h_ : 0.0;
      }

      // The impact (with the episode's impulse) and, for an episode of more than one step, a
      // sticking phase from its second step to the separation. An elastic contact has no impact:
      // its episode is the spring's closed phase, from its closing to the separation (as the
      // event-driven map reports it).
      void close_episode(const std::size_t c, const double end_time, const bool separated)
      {
        Episode   &e       = episodes_[c];
        const bool elastic = model_.contacts[c].elastic();
        if (!elastic)
          report(e.impact);
        if (e.steps > 1 || elastic)
          {
            ContactEvent stick = e.impact;
            stick.kind         = ContactEvent::Kind::sticking_start;
            stick.time         = elastic ? e.impact.time : e.second_step_start;
            stick.impulse = stick.pre_velocity = stick.post_velocity = 0.0;
            report(stick);
            if (separated)
              {
                ContactEvent separation = stick;
                separation.kind         = ContactEvent::Kind::separation;
                separation.time         = end_time;
                report(separation);
              }
          }
        e = Episode{};
      }

      // The step's energies into the ledger (a non-finite one ends the run), its impulse into the
      // next row, the time k h (not a sum of k rounded steps).
      void account(const unsigned long k, const double t_start, const StepReport &report)
      {
        if (report.corrected)
          {
            ++corrections_;
            largest_beta_ = std::max(largest_beta_, std::abs(report.energy.correction_beta));
          }
        ledger_.record(report.energy, osi_.kinetic_energy(state_.v), osi_.potential_energy(state_.u));
        if (!std::isfinite(ledger_.total() + ledger_.external_work() + ledger_.damping_dissipation() +
                           ledger_.impact_dissipation() + ledger_.friction_dissipation() +
                           ledger_.numerical_dissipation()))
          throw NumericalFailure(non_finite_report(k, t_start + h_, state_, ledger_));
        impulse_since_row_ += report.impulse;
        state_.t = k * h_;
        beta_    = report.energy.correction_beta;
      }

      // Every step with a correction gets its row, so that every β is in the history.
      void record_if_due(const unsigned long k, const bool corrected)
      {
        const bool frame = control_.frame_interval > 0 && (frames_.due(k) || k == n_steps_);
        if (rows_.due(k) || k == n_steps_ || corrected || frame)
          record(frame);
      }

      void record(const bool frame)
      {
        ResponseSample s;
        s.time                         = state_.t;
        s.u                            = &state_.u;
        s.v                            = &state_.v;
        s.impulse                      = &impulse_since_row_;
        s.frame                        = frame;
        s.energy.kinetic               = ledger_.kinetic();
        s.energy.potential             = ledger_.potential();
        s.energy.external_work         = ledger_.external_work();
        s.energy.damping_dissipation   = ledger_.damping_dissipation();
        s.energy.impact_dissipation    = ledger_.impact_dissipation();
        s.energy.friction_dissipation  = ledger_.friction_dissipation();
        s.supports                     = supports_.row(state_.t - last_row_time_);
        last_row_time_                 = state_.t;
        s.energy.numerical_dissipation = ledger_.numerical_dissipation();
        s.energy.correction_beta       = beta_;
        s.energy.correction_work       = ledger_.correction_work();
        s.energy.balance_error         = ledger_.balance_error();
        report(s);
        impulse_since_row_.setZero(); // every impulse reaches a row once
      }

      RunSummary summarise()
      {
        summary_.steps                  = n_steps_;
        summary_.final_energy           = ledger_.total();
        summary_.balance_error          = ledger_.balance_error();
        summary_.relative_balance_error = ledger_.relative_balance_error();
        count("LCP solves", double(lcp_solves_));
        count("LCP fallbacks", double(lcp_fallbacks_));
        if (!model_.spatial_supports.empty())
          {
            count("friction-contact solves", double(friction_solves_));
            count("friction dissipation", ledger_.friction_dissipation());
            supports_.warn(MoreauJeanSolver::penetration_warning_fraction, h_, summary_.warnings);
            summary_.impacts += supports_.impacts();
          }
        count("energy corrections", double(corrections_));
        count("largest |beta|", largest_beta_);
        if (lcp_fallbacks_ > 0)
          summary_.warnings.push_back(std::to_string(lcp_fallbacks_) + " LCP solves needed a fallback solver");
        warn_of_aliased_loads();
        warn_of_deep_penetration();
        return summary_;
      }

      // A harmonic load the step cannot sample (ω h > π) is aliased: the run answers another load.
      void warn_of_aliased_loads()
      {
        for (const auto &load : model_.loads)
          if (load.time.kind == model::TimeFunction::Kind::harmonic && load.time.omega * h_ > M_PI)
            {
              std::ostringstream warning;
              warning << "load " << load.name << ": omega h = " << load.time.omega * h_
                      << " > pi: the time step cannot sample its frequency (the forcing is aliased)";
              summary_.warnings.push_back(warning.str());
            }
      }

      // The velocity-level law lets a gap close within a step (penetration up to h |U−|); deeper
      // than a set fraction of the contact point's motion, the time step is too long for the contact.
      void warn_of_deep_penetration()
      {
        const double fraction = MoreauJeanSolver::penetration_warning_fraction;
        for (std::size_t c = 0; c < n_contacts_; ++c)
          {
            const double scale = std::max(travel_[c], std::abs(model_.contacts[c].gap0));
            if (model_.contacts[c].elastic())
              continue; // a spring's penetration is its physics, not the step's error
            if (-deepest_[c].gap > fraction * scale && deepest_[c].gap < 0)
              {
                std::ostringstream warning;
                warning << "contact " << model_.contacts[c].name << ": penetration " << -deepest_[c].gap
                        << " at t = " << deepest_[c].time << " is " << 100 * -deepest_[c].gap / scale
                        << " % of the contact point's largest motion " << scale << " (more than " << 100 * fraction
                        << " %): the time step h = " << h_ << " is too long for this contact";
                summary_.warnings.push_back(warning.str());
              }
          }
      }

      struct Penetration
      {
        double gap = 0.0, time = 0.0;
      };

      const model::StructuralModel &model_;
      const MoreauJean              osi_;
      State                         state_;
      EnergyLedger                  ledger_;
      const double                  h_;
      const unsigned long           n_steps_;
      const std::size_t             n_contacts_;
      Vector                        impulse_since_row_;
      double                        beta_ = 0.0; // of the step that ends at the next row
      std::vector<Episode>          episodes_;
      OutputSchedule                rows_, frames_;
      std::vector<double>           gap_before_;
      std::vector<Penetration>      deepest_;
      std::vector<double>           travel_; // largest |g − g0|: how far the contact point moved
      SupportFollower               supports_;
      double                        last_row_time_ = 0.0;
      unsigned long                 lcp_solves_ = 0, lcp_fallbacks_ = 0, corrections_ = 0, friction_solves_ = 0;
      double                        largest_beta_ = 0.0;
    };
  } // namespace

  RunSummary MoreauJeanSolver::run(const model::StructuralModel &model, const RunControl &control,
                                   ResponseObserver &observer) const
  {
    return MoreauJeanRun(settings_, model, control, observer).run();
  }

  namespace
  {
    const SolverRegistration<MoreauJeanSolver> moreau_jean_solver_registration(/* the default of Simulation/Solver */ true);
  } // namespace
} // namespace vibroimpact::integrators
