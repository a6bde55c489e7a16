#include <vibroimpact/integrators/event_locator.h>
#include <vibroimpact/integrators/modal_restitution.h>

#include <boost/numeric/odeint.hpp>

#include <Eigen/Cholesky>

#include <algorithm>
#include <sstream>
#include <cmath>
#include <limits>
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
    : settings_(std::move(settings))
    , projection_(model, settings_.n_modes, settings_.damping_ratios, settings_.mode_source)
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


  RunSummary ModalRestitution::run(const RunControl &control, ResponseObserver &observer) const
  {
    const auto            &s  = settings_;
    const ModalProjection &P  = projection_;
    const Eigen::Index     N  = P.size();
    const unsigned int     nc = static_cast<unsigned int>(P.contact_rows().rows());
    const Eigen::MatrixXd &B  = P.contact_rows();
    const double           T  = control.final_time;
    const double output_interval = control.output_interval > 0 ? control.output_interval : T / 1000;
    if (!(T > 0))
      throw std::invalid_argument("modal restitution: the final time must be positive");

    // The ODE steps resolve the highest retained mode: a run of more than max_periods of it
    // would not end in any useful time (a final time of 1e308); say so before starting.
    const double periods = T * P.omegas().maxCoeff() / (2 * M_PI);
    if (periods > s.max_periods)
      {
        std::ostringstream message;
        message << "modal restitution: the final time " << T << " spans " << periods
                << " periods of the highest retained mode (" << P.omegas().maxCoeff() << " rad/s), more than "
                << s.max_periods << ": shorten Simulation/Final time or retain fewer modes";
        throw NumericalFailure(message.str());
      }

    RunSummary summary;
    summary.step_name = "ODE steps";

    // Displacement scale, for the tolerance that decides "at the stop".
    double scale = 0;
    for (unsigned int i = 0; i < nc; ++i)
      scale = std::max(scale, std::abs(P.gap0()[i]) + B.row(i).cwiseAbs().dot(P.initial_displacement().cwiseAbs()));
    const double gap_tolerance = std::max(10 * s.absolute_tolerance, 1e-12 * std::max(scale, 1.0));

    OdeState x(2 * N);
    Eigen::Map<Eigen::VectorXd>(x.data(), N)     = P.initial_displacement();
    Eigen::Map<Eigen::VectorXd>(x.data() + N, N) = P.initial_velocity();
    auto q_of = [N](const OdeState &y) { return Eigen::Map<const Eigen::VectorXd>(y.data(), N); };
    auto v_of = [N](const OdeState &y) { return Eigen::Map<const Eigen::VectorXd>(y.data() + N, N); };
    auto gap  = [&](const OdeState &y, unsigned int i) { return P.gap(i, q_of(y)); };
    auto cvel = [&](const OdeState &y, unsigned int i) { return B.row(i).dot(v_of(y)); };

    std::vector<unsigned int>  stuck;              // the stuck set S, in the order of B_S
    std::vector<bool>          at_stop(nc, false); // at the stop at the segment start
    std::vector<double>        last_impact(nc, -infinity);
    std::vector<std::size_t>   open_phase(nc, 0);  // index into phases while stuck
    std::vector<StickingPhase> phases;
    double                     dissipated = 0;
    unsigned long              ode_steps  = 0;

    auto make_system = [&]() { return ModalSystem(P, select_rows(B, stuck)); };

    // ---- output
    const bool      conservative = P.unforced() && P.undamped();
    const double    e0           = P.kinetic_energy(P.initial_velocity()) + P.potential_energy(P.initial_displacement());
    Eigen::VectorXd impulse_since_row = Eigen::VectorXd::Zero(nc);
    double          previous_output   = 0.0;
    unsigned long   next_output       = 0;
    auto output_time = [&](unsigned long k) { return std::min(T, k * output_interval); };
    auto emit        = [&](const double t, const OdeState &y, const ModalSystem &system) {
      const auto            q = q_of(y), v = v_of(y);
      const Eigen::VectorXd lambda = system.multipliers(q, v, t);
      Eigen::VectorXd       force  = Eigen::VectorXd::Zero(nc);
      for (std::size_t k = 0; k < stuck.size(); ++k)
        {
          impulse_since_row[stuck[k]] += lambda[k] * (t - previous_output);
          force[stuck[k]] = lambda[k];
        }
      const Eigen::VectorXd u = P.shapes() * q, w = P.shapes() * v;
      ResponseSample        sample;
      sample.time                     = t;
      sample.u                        = &u;
      sample.v                        = &w;
      sample.impulse                  = &impulse_since_row;
      sample.contact_force            = &force;
      sample.energy.kinetic           = P.kinetic_energy(v);
      sample.energy.potential         = P.potential_energy(q);
      sample.energy.impact_dissipation = dissipated;
      if (conservative)
        {
          sample.energy.external_work       = 0.0;
          sample.energy.damping_dissipation = 0.0;
          sample.energy.balance_error       = sample.energy.total() - e0 + dissipated;
        }
      if (control.frame_interval > 0)
        {
          const double frames = t / control.frame_interval;
          sample.frame        = std::abs(frames - std::round(frames)) < 1e-9 * std::max(1.0, frames) || t >= T;
        }
      observer.sample(sample);
      impulse_since_row.setZero();
      previous_output = t;
    };
    // Emits every output time up to and including t_end (state from the dense output).
    auto emit_until = [&](const double t_end, const std::function<void(double, OdeState &)> &state_at,
                          const ModalSystem &system) {
      OdeState y(2 * N);
      while (true)
        {
          const double to = output_time(next_output);
          if (to > t_end || (next_output > 0 && output_time(next_output - 1) >= T))
            break;
          state_at(to, y);
          emit(to, y, system);
          ++next_output;
        }
    };

    // ---- events
    unsigned long n_events = 0;
    auto count_event = [&]() {
      if (++n_events > s.max_events)
        throw NumericalFailure("modal restitution: more than " + std::to_string(s.max_events) +
                               " events (a Zeno sequence that epsilon does not stop?)");
    };
    auto start_phase = [&](unsigned int c, double t) {
      open_phase[c] = phases.size();
      phases.push_back({c, t, T, false});
    };
    auto end_phase = [&](unsigned int c, double t) {
      phases[open_phase[c]].end      = t;
      phases[open_phase[c]].released = true;
    };

    // The contacts of `active` are brought to the stop: minimal mass-norm corrections so that
    // their gaps (position projection) and contact velocities (R = 0 map) vanish.
    auto project_onto_stop = [&](OdeState &y, const std::vector<unsigned int> &active) {
      if (active.empty())
        return;
      const Eigen::MatrixXd BA = select_rows(B, active);
      Eigen::VectorXd       g(active.size()), U(active.size());
      for (std::size_t k = 0; k < active.size(); ++k)
        {
          g[k] = gap(y, active[k]);
          U[k] = cvel(y, active[k]);
        }
      Eigen::Map<Eigen::VectorXd>(y.data(), N) -= BA.transpose() * solve_gram(BA, g);
      Eigen::Map<Eigen::VectorXd>(y.data() + N, N) -= BA.transpose() * solve_gram(BA, U);
    };

    // Contacts at rest on the stop stay in the stuck set while their multiplier is positive;
    // those with lambda <= 0 leave it.
    auto settle_stuck_set = [&](OdeState &y, double t) {
      while (!stuck.empty())
        {
          project_onto_stop(y, stuck);
          const ModalSystem     system = make_system();
          const Eigen::VectorXd lambda = system.multipliers(q_of(y), v_of(y), t);
          Eigen::Index          worst;
          if (lambda.minCoeff(&worst) > 0)
            return;
          const unsigned int c = stuck[worst];
          end_phase(c, t);
          stuck.erase(stuck.begin() + worst);
          at_stop[c] = true;
        }
    };

    // Impact of contact c at time tt with the stuck set held (U = 0 kept on S): the CoR map of
    // eq. (28) generalised to the active set; R = 0 (chatter) starts sticking.
    auto impact = [&](unsigned int c, double tt) {
      const double U_minus = cvel(x, c);
      if (!(U_minus < 0))
        {
          // Touching without approaching (grazing): watch it from the stop.
          at_stop[c] = true;
          return;
        }
      const bool   chatter = tt - last_impact[c] < s.epsilon;
      const double R       = chatter ? 0.0 : restitution_[c];
      last_impact[c]       = tt;

      std::vector<unsigned int> active = stuck;
      active.push_back(c);
      const Eigen::MatrixXd BA = select_rows(B, active);
      Eigen::VectorXd       target(active.size());
      for (std::size_t k = 0; k < active.size(); ++k)
        target[k] = -cvel(x, active[k]); // stuck contacts: back to U = 0
      target[active.size() - 1] = -(1 + R) * U_minus;
      const Eigen::VectorXd p              = solve_gram(BA, target);
      const double          kinetic_before = P.kinetic_energy(v_of(x));
      Eigen::Map<Eigen::VectorXd>(x.data() + N, N) += BA.transpose() * p;
      dissipated += kinetic_before - P.kinetic_energy(v_of(x));

      ContactEvent event;
      event.kind          = ContactEvent::Kind::impact;
      event.time          = tt;
      event.contact       = c;
      event.pre_velocity  = U_minus;
      event.post_velocity = cvel(x, c);
      event.impulse       = p[p.size() - 1];
      observer.event(event);
      impulse_since_row[c] += event.impulse;
      ++summary.impacts;

      if (chatter || R == 0)
        {
          // Brought to rest at the stop: held if the multiplier is positive.
          stuck.push_back(c);
          start_phase(c, tt);
          settle_stuck_set(x, tt);
        }
      at_stop[c] = true;
    };

    // ---- initial state: penetration is bad input; contacts resting on the stop are classified.
    {
      bool changed = false;
      for (unsigned int i = 0; i < nc; ++i)
        {
          const double g = gap(x, i);
          if (g < -gap_tolerance)
            throw std::invalid_argument("modal restitution: the initial state penetrates contact " +
                                        std::to_string(i) + " (gap " + std::to_string(g) + ")");
          if (g <= gap_tolerance)
            {
              at_stop[i] = true;
              if (cvel(x, i) < 0)
                impact(i, 0.0); // arriving at t = 0
              else if (cvel(x, i) == 0)
                {
                  // Resting at t = 0: held if the free dynamics push it in.
                  stuck.push_back(i);
                  start_phase(i, 0.0);
                  changed = true;
                }
            }
        }
      if (changed)
        settle_stuck_set(x, 0.0);
    }

    double t  = 0.0;
    double dt = 1e-2 / std::max(P.omegas().maxCoeff(), 1.0 / T);
    {
      const ModalSystem system = make_system();
      emit_until(0.0, [&](double, OdeState &y) { y = x; }, system);
    }

    while (t < T)
      {
        const ModalSystem system = make_system();
        Stepper stepper = s.max_step > 0 ?
                            odeint::make_dense_output(s.absolute_tolerance, s.relative_tolerance, s.max_step, Dopri()) :
                            odeint::make_dense_output(s.absolute_tolerance, s.relative_tolerance, Dopri());
        stepper.initialize(x, t, std::min(dt, T - t));

        // How each contact is watched in this segment, with the values at the segment start.
        const double        t0 = t;
        std::vector<Watch>  watch(nc, Watch::gap);
        std::vector<double> g0(nc), U0(nc);
        std::vector<int>    stuck_index(nc, -1);
        for (std::size_t k = 0; k < stuck.size(); ++k)
          stuck_index[stuck[k]] = static_cast<int>(k);
        for (unsigned int i = 0; i < nc; ++i)
          {
            g0[i]    = gap(x, i);
            U0[i]    = cvel(x, i);
            watch[i] = stuck_index[i] >= 0 ? Watch::multiplier : at_stop[i] ? Watch::divided : Watch::gap;
          }
        auto state_at = [&](double tau, OdeState &yy) {
          yy.resize(2 * N);
          if (tau == t0)
            yy = x;
          else
            stepper.calc_state(tau, yy);
        };
        std::vector<EventLocator::Watched> watched(nc);
        for (unsigned int i = 0; i < nc; ++i)
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
              w.rate = [&, i](double, const OdeState &y) { return cvel(y, i); };
          }
        EventLocator locator(std::move(watched), state_at, t0, x);

        std::optional<EventLocator::Found> found;
        bool                               finished = false;
        while (!found && !finished)
          {
            const auto interval = stepper.do_step(system);
            if (++ode_steps > s.max_steps)
              {
                std::ostringstream message;
                message << "modal restitution: more than " << s.max_steps << " ODE steps by t = " << interval.second
                        << " of " << T << " (highest retained mode " << projection_.omegas().maxCoeff()
                        << " rad/s): shorten Simulation/Final time or retain fewer modes";
                throw NumericalFailure(message.str());
              }
            const double tb = std::min(interval.second, T);
            dt              = stepper.current_time_step();
            found           = locator.scan(interval.first, tb, s.samples_per_step);

            emit_until(found ? found->time : tb, state_at, system);
            if (found)
              {
                state_at(found->time, x);
                t = found->time;
              }
            else if (tb >= T)
              {
                state_at(T, x);
                t        = T;
                finished = true;
              }
          }
        if (finished)
          break;

        // ---- the event
        count_event();
        std::fill(at_stop.begin(), at_stop.end(), false);
        const unsigned int c = found->index;
        if (watch[c] == Watch::multiplier)
          {
            // Release: lambda_c changed sign.
            end_phase(c, t);
            stuck.erase(std::find(stuck.begin(), stuck.end(), c));
            at_stop[c]     = true;
            last_impact[c] = -infinity;
            settle_stuck_set(x, t);
          }
        else
          impact(c, t); // with the stuck set held (U = 0 kept on S)
        for (unsigned int k : stuck)
          at_stop[k] = true;
      }

    // Zero-length phases (a contact that could not stick) are not phases.
    for (const auto &phase : phases)
      if (!(phase.released && phase.end <= phase.start))
        {
          ContactEvent event;
          event.contact = phase.contact;
          event.kind    = ContactEvent::Kind::sticking_start;
          event.time    = phase.start;
          observer.event(event);
          summary.sticking_time += phase.end - phase.start;
          if (phase.released)
            {
              event.kind = ContactEvent::Kind::separation;
              event.time = phase.end;
              observer.event(event);
            }
        }
    summary.steps          = ode_steps;
    summary.initial_energy = e0;
    summary.final_energy   = P.kinetic_energy(v_of(x)) + P.potential_energy(q_of(x));
    if (conservative)
      {
        summary.balance_error          = summary.final_energy - e0 + dissipated;
        summary.relative_balance_error = e0 > 0 ? summary.balance_error / e0 : summary.balance_error;
      }
    summary.counters = {{"modes", double(N)}, {"impact dissipation", dissipated}};
    return summary;
  }
} // namespace vibroimpact::integrators
