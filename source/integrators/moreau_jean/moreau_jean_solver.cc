// The Moreau–Jean time stepper as a registered solver ("moreau-jean"): the OSI of moreau_jean.h
// run from the model's initial state to the final time with the energy ledger, reporting a
// sample at every output time (and at every step with an energy correction, so that every β is
// in the history) and a contact event per contact episode.
#include <vibroimpact/integrators/energy_ledger.h>
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/io/progress_bar.h>

#include <cmath>
#include <iostream>
#include <sstream>

namespace vibroimpact::integrators
{
  namespace
  {
    // Whether step k (t = k h) is due for a row of period `interval` (0: every step), and the
    // index of the next one.
    struct Schedule
    {
      double        interval;
      double        h;
      unsigned long next = 1;

      bool due(const unsigned long k)
      {
        if (interval <= 0)
          return true;
        if (k * h < next * interval - 1e-9 * h)
          return false;
        next = static_cast<unsigned long>(std::floor(k * h / interval + 1e-9)) + 1;
        return true;
      }
    };

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

  } // namespace

  std::string MoreauJeanSolver::description() const
  {
    return "the θ-method with Newton impacts on the FE model, LCPs by Siconos, optional energy correction";
  }

  void MoreauJeanSolver::bind_parameters(io::ParameterSection &section)
  {
    bind_moreau_jean_parameters(section, settings_);
  }

  void MoreauJeanSolver::check(const model::StructuralModel &model, const RunControl &control, const std::string &file) const
  {
    const double h = settings_.time_step, T = control.final_time, steps = T / h;
    check_load_bandwidth(model, h, file, parameter_section() + "/Time step");
    std::ostringstream reason;
    if (h > T)
      {
        reason << "h = " << h << " is longer than Simulation/Final time = " << T;
        throw io::InputError(file, parameter_section() + "/Time step", reason.str());
      }
    if (steps > max_steps)
      {
        reason << T << " / h = " << steps << " steps, more than the " << max_steps << " a run may take";
        throw io::InputError(file, "Simulation/Final time", reason.str());
      }
    // The scheme steps with one h (W is factored once): the last step must end at T.
    if (std::abs(steps - std::round(steps)) > 1e-6 * std::max(1.0, steps))
      {
        reason << "the final time " << T << " is not a whole number of steps of h = " << h << " (T/h = " << steps
               << ")";
        throw io::InputError(file, parameter_section() + "/Time step", reason.str());
      }
  }

  RunSummary MoreauJeanSolver::run(const model::StructuralModel &model, const RunControl &control,
                                   ResponseObserver &observer) const
  {
    const MoreauJean osi(model, settings_);
    State            state = osi.initial_state();
    EnergyLedger     ledger(osi.kinetic_energy(state.v), osi.potential_energy(state.u));

    const double h          = settings_.time_step;
    const auto   n_steps    = static_cast<unsigned long>(std::llround(control.final_time / h));
    const auto   n_contacts = model.contacts.size();

    Vector impulse_since_row = Vector::Zero(n_contacts); // every impulse reaches a row once
    double beta              = 0.0;
    const auto report_sample = [&](const bool frame) {
      ResponseSample s;
      s.time                           = state.t;
      s.u                              = &state.u;
      s.v                              = &state.v;
      s.impulse                        = &impulse_since_row;
      s.frame                          = frame;
      s.energy.kinetic                 = ledger.kinetic();
      s.energy.potential               = ledger.potential();
      s.energy.external_work           = ledger.external_work();
      s.energy.damping_dissipation     = ledger.damping_dissipation();
      s.energy.impact_dissipation      = ledger.impact_dissipation();
      s.energy.numerical_dissipation   = ledger.numerical_dissipation();
      s.energy.correction_beta         = beta;
      s.energy.correction_work         = ledger.correction_work();
      s.energy.balance_error           = ledger.balance_error();
      observer.sample(s);
      impulse_since_row.setZero();
    };

    RunSummary summary;
    summary.initial_energy = ledger.total();
    report_sample(control.frame_interval > 0);

    unsigned long lcp_solves = 0, lcp_fallbacks = 0, corrections = 0;
    double        largest_beta = 0.0;
    std::vector<Episode> episodes(n_contacts);
    const auto close_episode = [&](const std::size_t c, const double end_time, const bool separated) {
      Episode &e = episodes[c];
      observer.event(e.impact);
      if (e.steps > 1)
        {
          ContactEvent stick = e.impact;
          stick.kind         = ContactEvent::Kind::sticking_start;
          stick.time         = e.second_step_start;
          stick.impulse = stick.pre_velocity = stick.post_velocity = 0.0;
          observer.event(stick);
          if (separated)
            {
              ContactEvent separation = stick;
              separation.kind         = ContactEvent::Kind::separation;
              separation.time         = end_time;
              observer.event(separation);
            }
        }
      e = Episode{};
    };

    Schedule        rows{control.output_interval, h}, frames{control.frame_interval, h};
    io::ProgressBar progress("simulate", control.final_time, control.quiet);
    std::vector<double> gap_before(n_contacts);
    struct Penetration
    {
      double gap = 0.0, time = 0.0;
    };
    std::vector<Penetration> deepest(n_contacts);
    std::vector<double>      travel(n_contacts, 0.0); // largest |g − g0|: how far the contact point moved
    for (std::size_t c = 0; c < n_contacts; ++c)
      gap_before[c] = model.contacts[c].gap0 + model.contacts[c].row.dot(state.u);
    for (unsigned long k = 1; k <= n_steps; ++k)
      {
        const double t_start = state.t;
        const auto   report  = osi.step(state);
        if (report.lcp_solved)
          {
            ++lcp_solves;
            if (report.lcp_failed)
              {
                std::ostringstream message;
                message << "step " << k << " (t = " << t_start + h << "): " << report.lcp_message;
                throw NumericalFailure(message.str());
              }
            if (report.lcp_attempts > 1)
              {
                ++lcp_fallbacks;
                std::cerr << "warning: step " << k << " (t = " << t_start + h << "): " << report.lcp_message
                          << "accepted with error " << report.lcp_error << "\n";
              }
          }
        bool sticking = false;
        for (std::size_t c = 0; c < n_contacts; ++c)
          {
            Episode &e = episodes[c];
            if (report.impulse[c] > 0)
              {
                if (!e.open)
                  {
                    // The impact instant: the step start plus the time to close the gap at the
                    // pre-impact contact velocity (within the step).
                    const double approach = -report.velocity_before[c];
                    const double delay    = approach > 0 ? std::clamp(gap_before[c] / approach, 0.0, h) : 0.0;
                    e.open                 = true;
                    e.impact.kind          = ContactEvent::Kind::impact;
                    e.impact.time          = t_start + delay;
                    e.impact.contact       = static_cast<unsigned int>(c);
                    e.impact.pre_velocity  = report.velocity_before[c];
                    e.impact.post_velocity = report.velocity_after[c];
                    ++summary.impacts;
                  }
                else
                  sticking = true;
                if (++e.steps == 2)
                  e.second_step_start = t_start;
                e.impact.impulse += report.impulse[c];
              }
            else if (e.open)
              close_episode(c, t_start, true);
            gap_before[c] = report.gap[c];
            if (report.gap[c] < deepest[c].gap)
              deepest[c] = {report.gap[c], state.t};
            travel[c] = std::max(travel[c], std::abs(report.gap[c] - model.contacts[c].gap0));
          }
        summary.sticking_time += sticking ? h : 0.0;
        if (report.corrected)
          {
            ++corrections;
            largest_beta = std::max(largest_beta, std::abs(report.energy.correction_beta));
          }
        ledger.record(report.energy, osi.kinetic_energy(state.v), osi.potential_energy(state.u));
        if (!std::isfinite(ledger.total() + ledger.external_work() + ledger.damping_dissipation() +
                           ledger.impact_dissipation() + ledger.numerical_dissipation()))
          throw NumericalFailure(non_finite_report(k, t_start + h, state, ledger));
        impulse_since_row += report.impulse;
        state.t = k * h; // not a sum of k rounded steps
        beta    = report.energy.correction_beta;
        const bool frame = control.frame_interval > 0 && (frames.due(k) || k == n_steps);
        // Every step with a correction gets its row, so that every β is in the history.
        if (rows.due(k) || k == n_steps || report.corrected || frame)
          report_sample(frame);
        progress.update(state.t);
      }
    progress.finish();
    for (std::size_t c = 0; c < n_contacts; ++c)
      if (episodes[c].open)
        close_episode(c, state.t, false);

    summary.step_name              = "steps";
    summary.steps                  = n_steps;
    summary.final_energy           = ledger.total();
    summary.balance_error          = ledger.balance_error();
    summary.relative_balance_error = ledger.relative_balance_error();
    summary.counters = {{"LCP solves", double(lcp_solves)},
                        {"LCP fallbacks", double(lcp_fallbacks)},
                        {"energy corrections", double(corrections)},
                        {"largest |beta|", largest_beta}};
    if (lcp_fallbacks > 0)
      summary.warnings.push_back(std::to_string(lcp_fallbacks) + " LCP solves needed a fallback solver");
    // A harmonic load the step cannot sample (ω h > π) is aliased: the run answers another load.
    for (const auto &load : model.loads)
      if (load.time.kind == model::TimeFunction::Kind::harmonic && load.time.omega * h > M_PI)
        {
          std::ostringstream warning;
          warning << "load " << load.name << ": omega h = " << load.time.omega * h
                  << " > pi: the time step cannot sample its frequency (the forcing is aliased)";
          summary.warnings.push_back(warning.str());
        }
    // The velocity-level law lets a gap close within a step (penetration up to h |U−|); deeper
    // than a set fraction of the contact point's motion, the time step is too long for the contact.
    for (std::size_t c = 0; c < n_contacts; ++c)
      {
        const double scale = std::max(travel[c], std::abs(model.contacts[c].gap0));
        if (-deepest[c].gap > penetration_warning_fraction * scale && deepest[c].gap < 0)
          {
            std::ostringstream warning;
            warning << "contact " << model.contacts[c].name << ": penetration " << -deepest[c].gap << " at t = "
                    << deepest[c].time << " is " << 100 * -deepest[c].gap / scale
                    << " % of the contact point's largest motion " << scale << " (more than "
                    << 100 * penetration_warning_fraction << " %): the time step h = " << h
                    << " is too long for this contact";
            summary.warnings.push_back(warning.str());
          }
      }
    return summary;
  }

  namespace
  {
    const SolverRegistration<MoreauJeanSolver> registration;
  } // namespace
} // namespace vibroimpact::integrators
