// The modal CoR solver (modal_restitution.h): the sticking law, the impact map, and a run as
// named stages (free flight between events, the event, the sticking phases, the summary).
#include <vibroimpact/integrators/event_locator.h>
#include <vibroimpact/integrators/modal_restitution.h>
#include <vibroimpact/integrators/solver_base.h>

#include <boost/numeric/odeint.hpp>

#include <Eigen/Cholesky>

#include <algorithm>
#include <limits>
#include <sstream>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace vibroimpact::integrators
{
  namespace
  {
    namespace odeint = boost::numeric::odeint;

    using OdeState = std::vector<double>;
    using Dopri    = odeint::runge_kutta_dopri5<OdeState>;
    using Stepper  = odeint::result_of::make_dense_output<Dopri>::type;

    constexpr double infinity = std::numeric_limits<double>::infinity();

    // The rows of `rows` listed in `set`.
    Eigen::MatrixXd select_rows(const Eigen::MatrixXd &rows, const std::vector<unsigned int> &set)
    {
      Eigen::MatrixXd out(set.size(), rows.cols());
      for (std::size_t i = 0; i < set.size(); ++i)
        out.row(i) = rows.row(set[i]);
      return out;
    }

    // Solves (B B^T) x = r for a few contacts; throws when the rows are (numerically) dependent.
    Eigen::VectorXd solve_gram(const Eigen::MatrixXd &B, const Eigen::VectorXd &r)
    {
      const Eigen::MatrixXd        G = B * B.transpose();
      Eigen::LDLT<Eigen::MatrixXd> ldlt(G);
      if (ldlt.info() != Eigen::Success || !ldlt.isPositive() ||
          ldlt.vectorD().minCoeff() <= 1e-12 * G.diagonal().maxCoeff()) // scale-free: rows of a heavy structure are small
        throw NumericalFailure("modal restitution: the modal rows of the active contacts are linearly dependent "
                               "(more active contacts than the modes can hold)");
      return ldlt.solve(r);
    }

    // The sticking law: q'' = a_free + B_Sᵀ λ with the multipliers of the stuck set S from
    // B_S q'' = 0 (eq. 33 generalised): λ = −(B_S B_Sᵀ)⁻¹ B_S a_free.
    struct ModalSystem
    {
      const ModalProjection *projection;
      Eigen::MatrixXd        stuck_rows;  // B_S (empty: free flight)
      Eigen::MatrixXd        stuck_solve; // (B_S B_S^T)^{-1} B_S

      ModalSystem(const ModalProjection &p, const Eigen::MatrixXd &B_S)
        : projection(&p)
        , stuck_rows(B_S)
      {
        if (B_S.rows() > 0)
          {
            const Eigen::MatrixXd        G = B_S * B_S.transpose();
            Eigen::LDLT<Eigen::MatrixXd> ldlt(G);
            stuck_solve = ldlt.solve(B_S);
          }
      }

      // Multipliers of the stuck contacts (order of stuck_rows); empty when free.
      Eigen::VectorXd multipliers(const Eigen::Ref<const Eigen::VectorXd> &q, const Eigen::Ref<const Eigen::VectorXd> &v,
                                  const double t) const
      {
        if (stuck_rows.rows() == 0)
          return Eigen::VectorXd();
        return -stuck_solve * projection->free_acceleration(q, v, t);
      }

      void operator()(const OdeState &x, OdeState &dxdt, const double t) const
      {
        const Eigen::Index                N = projection->size();
        Eigen::Map<const Eigen::VectorXd> q(x.data(), N), v(x.data() + N, N);
        Eigen::Map<Eigen::VectorXd>       dq(dxdt.data(), N), dv(dxdt.data() + N, N);
        dq                = v;
        Eigen::VectorXd a = projection->free_acceleration(q, v, t);
        if (stuck_rows.rows() > 0)
          a -= stuck_rows.transpose() * (stuck_solve * a);
        dv = a;
      }
    };

    // How each contact is watched in a segment.
    enum class Watch
    {
      gap,       // free, watched through g(t)
      divided,   // free, at the stop at the segment start: (g(t) - g(t0)) / (t - t0)
      multiplier // stuck: lambda(t)
    };
  } // namespace


  std::vector<double> restitution_map(const std::vector<double> &b, const std::vector<double> &modal_velocity,
                                      const double restitution)
  {
    if (b.size() != modal_velocity.size())
      throw std::invalid_argument("restitution_map: b and the modal velocity differ in size");
    double bb = 0, U = 0;
    for (std::size_t j = 0; j < b.size(); ++j)
      {
        bb += b[j] * b[j];
        U += b[j] * modal_velocity[j];
      }
    if (bb <= 0)
      throw std::invalid_argument("restitution_map: the contact row is zero in modal coordinates");
    std::vector<double> out(modal_velocity);
    for (std::size_t j = 0; j < b.size(); ++j)
      out[j] -= (1 + restitution) * U * b[j] / bb;
    return out;
  }


  ModalRestitution::ModalRestitution(const model::StructuralModel &model, ModalRestitutionSettings settings)
    : ModalIntegrator(model, std::move(settings))
  {
    const auto &s = settings_;
    if (!(s.epsilon >= 0) || !(s.absolute_tolerance > 0) || !(s.relative_tolerance >= 0) || s.samples_per_step == 0 ||
        !(s.max_step >= 0))
      throw std::invalid_argument("modal restitution: epsilon, tolerances and samples per step must be positive");
    if (!s.restitution.empty() && s.restitution.size() != model.contacts.size())
      throw std::invalid_argument("modal restitution: " + std::to_string(s.restitution.size()) +
                                  " restitution values for " + std::to_string(model.contacts.size()) + " contacts");
    const std::size_t nc = model.contacts.size();
    restitution_.resize(nc);
    for (std::size_t i = 0; i < nc; ++i)
      {
        restitution_[i] = s.restitution.empty() ? model.contacts[i].restitution : s.restitution[i];
        if (!(restitution_[i] >= 0 && restitution_[i] <= 1))
          throw std::invalid_argument("modal restitution: restitution of contact '" + model.contacts[i].name +
                                      "' must be in [0, 1]");
        if (projection_.contact_rows().row(i).norm() == 0)
          throw std::invalid_argument("modal restitution: contact '" + model.contacts[i].name +
                                      "' does not move in the retained modes");
      }
  }


  namespace
  {
    // One run of the modal CoR solver: free-flight segments of Dormand–Prince between events
    // (impacts, releases), the impact law and the sticking set at each event.
    class RestitutionRun : SolverRun
    {
    public:
      RestitutionRun(const ModalRestitutionSettings &settings, const ModalProjection &projection,
                     const Eigen::VectorXd &restitution, const RunControl &control, ResponseObserver &observer);

      RunSummary run()
      {
        classify_initial_state();
        record_initial_state();
        while (t_ < T_)
          {
            const std::optional<Event> event = advance_to_next_event();
            if (!event)
              break;
            apply(*event);
          }
        report_sticking_phases();
        return summarise();
      }

    private:
      // The event that ended a segment: contact c impacts, or (stuck) releases.
      struct Event
      {
        unsigned int contact = 0;
        bool         release = false;
      };

      Eigen::Map<const Eigen::VectorXd> q_of(const OdeState &y) const { return {y.data(), N_}; }
      Eigen::Map<const Eigen::VectorXd> v_of(const OdeState &y) const { return {y.data() + N_, N_}; }
      double gap(const OdeState &y, unsigned int i) const { return P_.gap(i, q_of(y)); }
      double contact_velocity(const OdeState &y, unsigned int i) const { return B_.row(i).dot(v_of(y)); }
      ModalSystem make_system() const { return ModalSystem(P_, select_rows(B_, stuck_)); }

      void          classify_initial_state();
      void          record_initial_state();
      std::optional<Event> advance_to_next_event();
      void                 check_step(const OdeState &y, double from, double to) const;
      void          apply(const Event &event);
      void          report_sticking_phases();
      RunSummary    summarise();

      void emit(double t, const OdeState &y, const ModalSystem &system);
      void emit_until(double t_end, const std::function<void(double, OdeState &)> &state_at, const ModalSystem &system);
      void count_event();
      void start_phase(unsigned int c, double t);
      void end_phase(unsigned int c, double t);
      void project_onto_stop(OdeState &y, const std::vector<unsigned int> &active) const;
      void settle_stuck_set(OdeState &y, double t);
      void impact(unsigned int c, double tt);

      const ModalRestitutionSettings &s_;
      const ModalProjection          &P_;
      const Eigen::VectorXd          &restitution_;
      const Eigen::Index              N_;
      const unsigned int              nc_;
      const Eigen::MatrixXd          &B_;
      const double                    T_;
      const double                    output_interval_;
      double                          gap_tolerance_ = 0.0;

      OdeState                   x_;                // q, q̇
      double                     t_  = 0.0;
      double                     dt_ = 0.0;         // the last ODE step, the next segment's first
      std::vector<unsigned int>  stuck_;            // the stuck set S, in the order of B_S
      std::vector<bool>          at_stop_;          // at the stop at the segment start
      std::vector<double>        last_impact_;
      std::vector<std::size_t>   open_phase_;       // index into phases_ while stuck
      std::vector<StickingPhase> phases_;
      double                     dissipated_ = 0;
      unsigned long              ode_steps_  = 0;
      unsigned long              n_events_   = 0;

      // Output
      bool            conservative_ = false;
      double          e0_           = 0.0;
      Eigen::VectorXd impulse_since_row_;
      double          previous_output_ = 0.0;
      unsigned long   next_output_     = 0;
    };

    RestitutionRun::RestitutionRun(const ModalRestitutionSettings &settings, const ModalProjection &projection,
                                   const Eigen::VectorXd &restitution, const RunControl &control,
                                   ResponseObserver &observer)
      : SolverRun(control, observer, "ODE steps")
      , s_(settings)
      , P_(projection)
      , restitution_(restitution)
      , N_(projection.size())
      , nc_(static_cast<unsigned int>(projection.contact_rows().rows()))
      , B_(projection.contact_rows())
      , T_(control.final_time)
      , output_interval_(control.output_interval > 0 ? control.output_interval : control.final_time / 1000)
    {
      if (!(T_ > 0))
        throw std::invalid_argument("modal restitution: the final time must be positive");

      // The ODE steps resolve the highest retained mode: a run of more than max_periods of it
      // would not end in any useful time (a final time of 1e308); say so before starting.
      const double periods = T_ * P_.omegas().maxCoeff() / (2 * M_PI);
      if (periods > s_.max_periods)
        {
          std::ostringstream message;
          message << "modal restitution: the final time " << T_ << " spans " << periods
                  << " periods of the highest retained mode (" << P_.omegas().maxCoeff() << " rad/s), more than "
                  << s_.max_periods << ": shorten Simulation/Final time or retain fewer modes";
          throw NumericalFailure(message.str());
        }

      // Displacement scale, for the tolerance that decides "at the stop".
      double scale = 0;
      for (unsigned int i = 0; i < nc_; ++i)
        scale = std::max(scale, std::abs(P_.gap0()[i]) + B_.row(i).cwiseAbs().dot(P_.initial_displacement().cwiseAbs()));
      gap_tolerance_ = std::max(10 * s_.absolute_tolerance, 1e-12 * std::max(scale, 1.0));

      x_.resize(2 * N_);
      Eigen::Map<Eigen::VectorXd>(x_.data(), N_)      = P_.initial_displacement();
      Eigen::Map<Eigen::VectorXd>(x_.data() + N_, N_) = P_.initial_velocity();
      at_stop_.assign(nc_, false);
      last_impact_.assign(nc_, -infinity);
      open_phase_.assign(nc_, 0);

      conservative_      = P_.unforced() && P_.undamped();
      e0_                = P_.kinetic_energy(P_.initial_velocity()) + P_.potential_energy(P_.initial_displacement());
      impulse_since_row_ = Eigen::VectorXd::Zero(nc_);
    }

    // Penetration is bad input; contacts resting on the stop are classified.
    void RestitutionRun::classify_initial_state()
    {
      bool changed = false;
      for (unsigned int i = 0; i < nc_; ++i)
        {
          const double g = gap(x_, i);
          if (g < -gap_tolerance_)
            throw std::invalid_argument("modal restitution: the initial state penetrates contact " +
                                        std::to_string(i) + " (gap " + std::to_string(g) + ")");
          if (g <= gap_tolerance_)
            {
              at_stop_[i] = true;
              if (contact_velocity(x_, i) < 0)
                impact(i, 0.0); // arriving at t = 0
              else if (contact_velocity(x_, i) == 0)
                {
                  // Resting at t = 0: held if the free dynamics push it in.
                  stuck_.push_back(i);
                  start_phase(i, 0.0);
                  changed = true;
                }
            }
        }
      if (changed)
        settle_stuck_set(x_, 0.0);
    }

    void RestitutionRun::record_initial_state()
    {
      dt_                      = 1e-2 / std::max(P_.omegas().maxCoeff(), 1.0 / T_);
      const ModalSystem system = make_system();
      emit_until(0.0, [&](double, OdeState &y) { y = x_; }, system);
    }

    // A step that leaves a non-finite state, or advances time by a few units in its last place
    // only, ends the run: an overflow (a load or a parameter far out of range) makes the step
    // control shrink its steps below the resolution of t, where a run would stand still for
    // minutes (a force of 1e308 on examples/impact_oscillator: 42 s before it failed).
    void RestitutionRun::check_step(const OdeState &y, const double from, const double to) const
    {
      const bool finite = std::all_of(y.begin(), y.end(), [](const double v) { return std::isfinite(v); });
      if (finite && (to >= T_ || to - from > 8 * std::numeric_limits<double>::epsilon() * std::abs(to)))
        return; // (a last step to the final time may be as short as what is left)
      double largest = 0; // of the modal displacements
      for (unsigned int j = 0; j < N_; ++j)
        largest = std::max(largest, std::abs(y[j]));
      std::ostringstream message;
      message << "modal restitution: at t = " << to << " of " << T_ << " the ";
      if (finite)
        message << "ODE step fell to " << to - from << ", below the resolution of t";
      else
        message << "modal state became non-finite";
      message << " (largest modal displacement " << largest << "): an overflow? (a load or a parameter out of range)";
      throw NumericalFailure(message.str());
    }

    // One segment of free flight (with the stuck set held): ODE steps until the first event or
    // the final time, emitting every output time on the way. Empty at the final time.
    std::optional<RestitutionRun::Event> RestitutionRun::advance_to_next_event()
    {
      const ModalSystem system = make_system();
      Stepper stepper = s_.max_step > 0 ?
                          odeint::make_dense_output(s_.absolute_tolerance, s_.relative_tolerance, s_.max_step, Dopri()) :
                          odeint::make_dense_output(s_.absolute_tolerance, s_.relative_tolerance, Dopri());
      stepper.initialize(x_, t_, std::min(dt_, T_ - t_));

      // How each contact is watched in this segment, with the values at the segment start.
      const double        t0 = t_;
      std::vector<Watch>  watch(nc_, Watch::gap);
      std::vector<double> g0(nc_), U0(nc_);
      std::vector<int>    stuck_index(nc_, -1);
      for (std::size_t k = 0; k < stuck_.size(); ++k)
        stuck_index[stuck_[k]] = static_cast<int>(k);
      for (unsigned int i = 0; i < nc_; ++i)
        {
          g0[i]    = gap(x_, i);
          U0[i]    = contact_velocity(x_, i);
          watch[i] = stuck_index[i] >= 0 ? Watch::multiplier : at_stop_[i] ? Watch::divided : Watch::gap;
        }
      auto state_at = [&](double tau, OdeState &yy) {
        yy.resize(2 * N_);
        if (tau == t0)
          yy = x_;
        else
          stepper.calc_state(tau, yy);
      };
      std::vector<EventLocator::Watched> watched(nc_);
      for (unsigned int i = 0; i < nc_; ++i)
        {
          auto &w = watched[i];
          switch (watch[i])
            {
              case Watch::gap:
                w.value = [&, i](double, const OdeState &y) { return gap(y, i); };
                break;
              case Watch::divided:
                w.value = [&, i](double tau, const OdeState &y) {
                  return tau == t0 ? U0[i] : (gap(y, i) - g0[i]) / (tau - t0);
                };
                break;
              case Watch::multiplier:
                w.value = [&, i](double tau, const OdeState &y) {
                  return system.multipliers(q_of(y), v_of(y), tau)[stuck_index[i]];
                };
                w.late_side = true; // released where lambda <= 0
                break;
            }
          if (watch[i] != Watch::multiplier)
            w.rate = [&, i](double, const OdeState &y) { return contact_velocity(y, i); };
        }
      EventLocator locator(std::move(watched), state_at, t0, x_);

      while (true)
        {
          const auto interval = stepper.do_step(system);
          if (++ode_steps_ > s_.max_steps)
            {
              std::ostringstream message;
              message << "modal restitution: more than " << s_.max_steps << " ODE steps by t = " << interval.second
                      << " of " << T_ << " (highest retained mode " << P_.omegas().maxCoeff()
                      << " rad/s): shorten Simulation/Final time or retain fewer modes";
              throw NumericalFailure(message.str());
            }
          const double tb = std::min(interval.second, T_);
          dt_             = stepper.current_time_step();
          check_step(stepper.current_state(), interval.first, interval.second);
          const std::optional<EventLocator::Found> found = locator.scan(interval.first, tb, s_.samples_per_step);

          emit_until(found ? found->time : tb, state_at, system);
          if (found)
            {
              state_at(found->time, x_);
              t_ = found->time;
              return Event{found->index, watch[found->index] == Watch::multiplier};
            }
          if (tb >= T_)
            {
              state_at(T_, x_);
              t_ = T_;
              return std::nullopt;
            }
        }
    }

    void RestitutionRun::apply(const Event &event)
    {
      count_event();
      std::fill(at_stop_.begin(), at_stop_.end(), false);
      const unsigned int c = event.contact;
      if (event.release)
        {
          // Release: lambda_c changed sign.
          end_phase(c, t_);
          stuck_.erase(std::find(stuck_.begin(), stuck_.end(), c));
          at_stop_[c]     = true;
          last_impact_[c] = -infinity;
          settle_stuck_set(x_, t_);
        }
      else
        impact(c, t_); // with the stuck set held (U = 0 kept on S)
      for (unsigned int k : stuck_)
        at_stop_[k] = true;
    }

    // Zero-length phases (a contact that could not stick) are not phases.
    void RestitutionRun::report_sticking_phases()
    {
      for (const auto &phase : phases_)
        if (!(phase.released && phase.end <= phase.start))
          {
            ContactEvent event;
            event.contact = phase.contact;
            event.kind    = ContactEvent::Kind::sticking_start;
            event.time    = phase.start;
            report(event);
            summary_.sticking_time += phase.end - phase.start;
            if (phase.released)
              {
                event.kind = ContactEvent::Kind::separation;
                event.time = phase.end;
                report(event);
              }
          }
    }

    RunSummary RestitutionRun::summarise()
    {
      summary_.steps          = ode_steps_;
      summary_.initial_energy = e0_;
      summary_.final_energy   = P_.kinetic_energy(v_of(x_)) + P_.potential_energy(q_of(x_));
      if (conservative_)
        {
          summary_.balance_error          = summary_.final_energy - e0_ + dissipated_;
          summary_.relative_balance_error = e0_ > 0 ? summary_.balance_error / e0_ : summary_.balance_error;
        }
      count("modes", double(N_));
      count("impact dissipation", dissipated_);
      return summary_;
    }

    void RestitutionRun::emit(const double t, const OdeState &y, const ModalSystem &system)
    {
      const auto            q = q_of(y), v = v_of(y);
      const Eigen::VectorXd lambda = system.multipliers(q, v, t);
      Eigen::VectorXd       force  = Eigen::VectorXd::Zero(nc_);
      for (std::size_t k = 0; k < stuck_.size(); ++k)
        {
          impulse_since_row_[stuck_[k]] += lambda[k] * (t - previous_output_);
          force[stuck_[k]] = lambda[k];
        }
      const Eigen::VectorXd u = P_.shapes() * q, w = P_.shapes() * v;
      ResponseSample        sample;
      sample.time                      = t;
      sample.u                         = &u;
      sample.v                         = &w;
      sample.set_contacts(&impulse_since_row_, &force);
      sample.energy.kinetic            = P_.kinetic_energy(v);
      sample.energy.potential          = P_.potential_energy(q);
      sample.energy.impact_dissipation = dissipated_;
      if (conservative_)
        {
          sample.energy.external_work       = 0.0;
          sample.energy.damping_dissipation = 0.0;
          sample.energy.balance_error       = sample.energy.total() - e0_ + dissipated_;
        }
      if (control_.frame_interval > 0)
        {
          const double frames = t / control_.frame_interval;
          sample.frame        = std::abs(frames - std::round(frames)) < 1e-9 * std::max(1.0, frames) || t >= T_;
        }
      report(sample);
      impulse_since_row_.setZero();
      previous_output_ = t;
    }

    // Emits every output time up to and including t_end (state from the dense output).
    void RestitutionRun::emit_until(const double t_end, const std::function<void(double, OdeState &)> &state_at,
                                    const ModalSystem &system)
    {
      const auto output_time = [&](unsigned long k) { return std::min(T_, k * output_interval_); };
      OdeState   y(2 * N_);
      while (true)
        {
          const double to = output_time(next_output_);
          if (to > t_end || (next_output_ > 0 && output_time(next_output_ - 1) >= T_))
            break;
          state_at(to, y);
          emit(to, y, system);
          ++next_output_;
        }
    }

    void RestitutionRun::count_event()
    {
      if (++n_events_ > s_.max_events)
        throw NumericalFailure("modal restitution: more than " + std::to_string(s_.max_events) +
                               " events (a Zeno sequence that epsilon does not stop?)");
    }

    void RestitutionRun::start_phase(const unsigned int c, const double t)
    {
      open_phase_[c] = phases_.size();
      phases_.push_back({c, t, T_, false});
    }

    void RestitutionRun::end_phase(const unsigned int c, const double t)
    {
      phases_[open_phase_[c]].end      = t;
      phases_[open_phase_[c]].released = true;
    }

    // The contacts of `active` are brought to the stop: minimal mass-norm corrections so that
    // their gaps (position projection) and contact velocities (R = 0 map) vanish.
    void RestitutionRun::project_onto_stop(OdeState &y, const std::vector<unsigned int> &active) const
    {
      if (active.empty())
        return;
      const Eigen::MatrixXd BA = select_rows(B_, active);
      Eigen::VectorXd       g(active.size()), U(active.size());
      for (std::size_t k = 0; k < active.size(); ++k)
        {
          g[k] = gap(y, active[k]);
          U[k] = contact_velocity(y, active[k]);
        }
      Eigen::Map<Eigen::VectorXd>(y.data(), N_) -= BA.transpose() * solve_gram(BA, g);
      Eigen::Map<Eigen::VectorXd>(y.data() + N_, N_) -= BA.transpose() * solve_gram(BA, U);
    }

    // Contacts at rest on the stop stay in the stuck set while their multiplier is positive;
    // those with lambda <= 0 leave it.
    void RestitutionRun::settle_stuck_set(OdeState &y, const double t)
    {
      while (!stuck_.empty())
        {
          project_onto_stop(y, stuck_);
          const ModalSystem     system = make_system();
          const Eigen::VectorXd lambda = system.multipliers(q_of(y), v_of(y), t);
          Eigen::Index          worst;
          if (lambda.minCoeff(&worst) > 0)
            return;
          const unsigned int c = stuck_[worst];
          end_phase(c, t);
          stuck_.erase(stuck_.begin() + worst);
          at_stop_[c] = true;
        }
    }

    // Impact of contact c at time tt with the stuck set held (U = 0 kept on S): the CoR map of
    // eq. (28) generalised to the active set; R = 0 (chatter) starts sticking.
    void RestitutionRun::impact(const unsigned int c, const double tt)
    {
      const double U_minus = contact_velocity(x_, c);
      if (!(U_minus < 0))
        {
          // Touching without approaching (grazing): watch it from the stop.
          at_stop_[c] = true;
          return;
        }
      const bool   chatter = tt - last_impact_[c] < s_.epsilon;
      const double R       = chatter ? 0.0 : restitution_[c];
      last_impact_[c]      = tt;

      std::vector<unsigned int> active = stuck_;
      active.push_back(c);
      const Eigen::MatrixXd BA = select_rows(B_, active);
      Eigen::VectorXd       target(active.size());
      for (std::size_t k = 0; k < active.size(); ++k)
        target[k] = -contact_velocity(x_, active[k]); // stuck contacts: back to U = 0
      target[active.size() - 1] = -(1 + R) * U_minus;
      const Eigen::VectorXd p              = solve_gram(BA, target);
      const double          kinetic_before = P_.kinetic_energy(v_of(x_));
      Eigen::Map<Eigen::VectorXd>(x_.data() + N_, N_) += BA.transpose() * p;
      dissipated_ += kinetic_before - P_.kinetic_energy(v_of(x_));

      ContactEvent event;
      event.kind          = ContactEvent::Kind::impact;
      event.time          = tt;
      event.contact       = c;
      event.pre_velocity  = U_minus;
      event.post_velocity = contact_velocity(x_, c);
      event.impulse       = p[p.size() - 1];
      report(event);
      impulse_since_row_[c] += event.impulse;

      if (chatter || R == 0)
        {
          // Brought to rest at the stop: held if the multiplier is positive.
          stuck_.push_back(c);
          start_phase(c, tt);
          settle_stuck_set(x_, tt);
        }
      at_stop_[c] = true;
    }
  } // namespace

  RunSummary ModalRestitution::run(const RunControl &control, ResponseObserver &observer) const
  {
    return RestitutionRun(settings_, projection_, restitution_, control, observer).run();
  }
} // namespace vibroimpact::integrators
