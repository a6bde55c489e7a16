#include <vibroimpact/integrators/modal_restitution.h>
#include <vibroimpact/model/modal_analysis.h>

#include <boost/math/tools/roots.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <boost/numeric/odeint.hpp>

#include <Eigen/Cholesky>

#include <algorithm>
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

    using State   = std::vector<double>;
    using Dopri   = odeint::runge_kutta_dopri5<State>;
    using Stepper = odeint::result_of::make_dense_output<Dopri>::type;

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
      const Eigen::MatrixXd G = B * B.transpose();
      Eigen::LDLT<Eigen::MatrixXd> ldlt(G);
      if (ldlt.info() != Eigen::Success || !ldlt.isPositive() ||
          ldlt.vectorD().minCoeff() <= 1e-12 * std::max(1.0, G.diagonal().maxCoeff()))
        throw std::runtime_error("modal restitution: the modal rows of the active contacts are "
                                 "linearly dependent (more active contacts than the modes can hold)");
      return ldlt.solve(r);
    }

    // The modal equations q'' + D q' + Omega^2 q = F(t) + B_S^T lambda, with the multipliers of
    // the stuck set S from B_S q'' = 0 (eq. 33 generalised): lambda = -(B_S B_S^T)^{-1} B_S a_free.
    struct ModalSystem
    {
      const Eigen::VectorXd                  *omegas;
      const Eigen::VectorXd                  *damping;
      const std::vector<Eigen::VectorXd>     *load_shapes;
      const std::vector<model::TimeFunction> *load_times;
      Eigen::MatrixXd                         stuck_rows; // B_S (empty: free flight)
      Eigen::MatrixXd                         stuck_solve; // (B_S B_S^T)^{-1} B_S

      ModalSystem(const Eigen::VectorXd &w, const Eigen::VectorXd &d,
                  const std::vector<Eigen::VectorXd> &s, const std::vector<model::TimeFunction> &a,
                  const Eigen::MatrixXd &B_S)
        : omegas(&w), damping(&d), load_shapes(&s), load_times(&a), stuck_rows(B_S)
      {
        if (B_S.rows() > 0)
          {
            const Eigen::MatrixXd G = B_S * B_S.transpose();
            Eigen::LDLT<Eigen::MatrixXd> ldlt(G);
            stuck_solve = ldlt.solve(B_S);
          }
      }

      Eigen::Index n() const { return omegas->size(); }

      Eigen::VectorXd modal_load(const double t) const
      {
        Eigen::VectorXd f = Eigen::VectorXd::Zero(n());
        for (std::size_t k = 0; k < load_shapes->size(); ++k)
          f += (*load_shapes)[k] * (*load_times)[k].value(t);
        return f;
      }

      Eigen::VectorXd free_acceleration(const Eigen::Ref<const Eigen::VectorXd> &q,
                                        const Eigen::Ref<const Eigen::VectorXd> &v,
                                        const double                             t) const
      {
        return modal_load(t) - damping->cwiseProduct(v) - omegas->cwiseAbs2().cwiseProduct(q);
      }

      // Multipliers of the stuck contacts (order of stuck_rows); empty when free.
      Eigen::VectorXd multipliers(const Eigen::Ref<const Eigen::VectorXd> &q,
                                  const Eigen::Ref<const Eigen::VectorXd> &v,
                                  const double                             t) const
      {
        if (stuck_rows.rows() == 0)
          return Eigen::VectorXd();
        return -stuck_solve * free_acceleration(q, v, t);
      }

      void operator()(const State &x, State &dxdt, const double t) const
      {
        const Eigen::Index                    N = n();
        Eigen::Map<const Eigen::VectorXd>     q(x.data(), N), v(x.data() + N, N);
        Eigen::Map<Eigen::VectorXd>           dq(dxdt.data(), N), dv(dxdt.data() + N, N);
        dq = v;
        Eigen::VectorXd a = free_acceleration(q, v, t);
        if (stuck_rows.rows() > 0)
          a -= stuck_rows.transpose() * (stuck_solve * a);
        dv = a;
      }
    };

    // Chooses, for the current segment, how each contact is watched.
    enum class Watch
    {
      gap,        // free, watched through g(t)
      divided,    // free, at the stop at the segment start: (g(t) - g(t0)) / (t - t0)
      multiplier  // stuck: lambda(t)
    };
  } // namespace


  std::vector<double> restitution_map(const std::vector<double> &b,
                                      const std::vector<double> &modal_velocity,
                                      const double               restitution)
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


  ModalRestitution::ModalRestitution(const model::StructuralModel &model,
                                     ModalRestitutionSettings      settings)
    : settings_(std::move(settings))
  {
    const auto &s = settings_;
    if (s.n_modes == 0 || s.n_modes > static_cast<unsigned int>(model.n_dofs()))
      throw std::invalid_argument("modal restitution: number of modes must be in [1, " +
                                  std::to_string(model.n_dofs()) + "]");
    if (!(s.epsilon >= 0) || !(s.absolute_tolerance > 0) || !(s.relative_tolerance >= 0) ||
        !(s.final_time > 0) || !(s.output_interval > 0) || s.samples_per_step == 0 ||
        !(s.max_step >= 0))
      throw std::invalid_argument("modal restitution: epsilon, tolerances, final time, output "
                                  "interval and samples per step must be positive");
    if (!s.restitution.empty() && s.restitution.size() != model.contacts.size())
      throw std::invalid_argument("modal restitution: " + std::to_string(s.restitution.size()) +
                                  " restitution values for " +
                                  std::to_string(model.contacts.size()) + " contacts");

    const model::ModalBasis basis = model::compute_modes(model.mass, model.stiffness, s.n_modes);
    const Eigen::MatrixXd  &Phi   = basis.shapes;
    const Eigen::Index      N     = Phi.cols();
    omegas_                       = basis.omegas;

    damping_.resize(N);
    for (Eigen::Index j = 0; j < N; ++j)
      {
        const double zeta =
          s.damping_ratios.empty() ?
            0.0 :
            s.damping_ratios[std::min<std::size_t>(j, s.damping_ratios.size() - 1)];
        damping_[j] = 2 * zeta * omegas_[j];
      }

    const std::size_t nc = model.contacts.size();
    contact_rows_.resize(nc, N);
    gap0_.resize(nc);
    restitution_.resize(nc);
    for (std::size_t i = 0; i < nc; ++i)
      {
        const Eigen::VectorXd row = Eigen::VectorXd(model.contacts[i].row);
        contact_rows_.row(i)      = (Phi.transpose() * row).transpose();
        gap0_[i]                  = model.contacts[i].gap0;
        restitution_[i] = s.restitution.empty() ? model.contacts[i].restitution : s.restitution[i];
        if (!(restitution_[i] >= 0 && restitution_[i] <= 1))
          throw std::invalid_argument("modal restitution: restitution of contact '" +
                                      model.contacts[i].name + "' must be in [0, 1]");
        if (contact_rows_.row(i).norm() == 0)
          throw std::invalid_argument("modal restitution: contact '" + model.contacts[i].name +
                                      "' does not move in the retained modes");
      }

    probe_rows_.resize(model.probes.size(), N);
    for (std::size_t p = 0; p < model.probes.size(); ++p)
      probe_rows_.row(p) = (Phi.transpose() * Eigen::VectorXd(model.probes[p].row)).transpose();

    for (const auto &load : model.loads)
      {
        load_shapes_.push_back(Phi.transpose() * load.spatial);
        load_times_.push_back(load.time);
      }

    const Eigen::Index n = model.n_dofs();
    const Eigen::VectorXd u0 =
      model.initial_displacement.size() == n ? model.initial_displacement : Eigen::VectorXd::Zero(n);
    const Eigen::VectorXd v0 =
      model.initial_velocity.size() == n ? model.initial_velocity : Eigen::VectorXd::Zero(n);
    q0_ = Phi.transpose() * (model.mass * u0);
    v0_ = Phi.transpose() * (model.mass * v0);
  }


  ModalRestitutionHistory ModalRestitution::run() const
  {
    const auto        &s  = settings_;
    const Eigen::Index N  = omegas_.size();
    const unsigned int nc = static_cast<unsigned int>(contact_rows_.rows());
    const Eigen::MatrixXd &B = contact_rows_;
    const double T = s.final_time;

    ModalRestitutionHistory h;
    h.omegas.assign(omegas_.data(), omegas_.data() + N);

    // Displacement scale, for the tolerance that decides "at the stop".
    double scale = 0;
    for (unsigned int i = 0; i < nc; ++i)
      scale = std::max(scale, std::abs(gap0_[i]) + B.row(i).cwiseAbs().dot(q0_.cwiseAbs()));
    const double gap_tolerance =
      std::max(10 * s.absolute_tolerance, 1e-12 * std::max(scale, 1.0));

    State x(2 * N);
    Eigen::Map<Eigen::VectorXd>(x.data(), N)     = q0_;
    Eigen::Map<Eigen::VectorXd>(x.data() + N, N) = v0_;
    auto q_of = [N](const State &y) { return Eigen::Map<const Eigen::VectorXd>(y.data(), N); };
    auto v_of = [N](const State &y) { return Eigen::Map<const Eigen::VectorXd>(y.data() + N, N); };
    auto gap  = [&](const State &y, unsigned int i) { return gap0_[i] + B.row(i).dot(q_of(y)); };
    auto cvel = [&](const State &y, unsigned int i) { return B.row(i).dot(v_of(y)); };

    std::vector<unsigned int> stuck;                 // the stuck set S, in the order of B_S
    std::vector<bool>         at_stop(nc, false);    // at the stop at the segment start
    std::vector<double>       last_impact(nc, -infinity);
    std::vector<std::size_t>  open_phase(nc, 0);     // index into h.sticking while stuck
    double                    dissipated = 0;

    auto make_system = [&]() {
      return ModalSystem(omegas_, damping_, load_shapes_, load_times_, select_rows(B, stuck));
    };

    // ---- output
    unsigned long next_output = 0;
    auto output_time = [&](unsigned long k) { return std::min(T, k * s.output_interval); };
    auto emit = [&](const double t, const State &y, const ModalSystem &system) {
      const auto q = q_of(y), v = v_of(y);
      h.times.push_back(t);
      std::vector<double> pu(probe_rows_.rows()), pv(probe_rows_.rows());
      for (Eigen::Index p = 0; p < probe_rows_.rows(); ++p)
        {
          pu[p] = probe_rows_.row(p).dot(q);
          pv[p] = probe_rows_.row(p).dot(v);
        }
      h.probe_displacement.push_back(std::move(pu));
      h.probe_velocity.push_back(std::move(pv));
      std::vector<double> g(nc), U(nc), force(nc, 0.0);
      for (unsigned int i = 0; i < nc; ++i)
        {
          g[i] = gap(y, i);
          U[i] = cvel(y, i);
        }
      const Eigen::VectorXd lambda = system.multipliers(q, v, t);
      for (std::size_t k = 0; k < stuck.size(); ++k)
        force[stuck[k]] = lambda[k];
      h.gaps.push_back(std::move(g));
      h.contact_velocity.push_back(std::move(U));
      h.contact_force.push_back(std::move(force));
      h.kinetic_energy.push_back(0.5 * v.squaredNorm());
      h.potential_energy.push_back(0.5 * omegas_.cwiseAbs2().dot(q.cwiseAbs2()));
      h.impact_dissipation.push_back(dissipated);
    };
    // Emits every output time up to and including t_end (state from the dense output).
    auto emit_until = [&](const double t_end, const std::function<void(double, State &)> &state_at,
                          const ModalSystem &system) {
      State y(2 * N);
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
        throw std::runtime_error("modal restitution: more than " + std::to_string(s.max_events) +
                                 " events (a Zeno sequence that epsilon does not stop?)");
    };

    auto start_phase = [&](unsigned int c, double t) {
      open_phase[c] = h.sticking.size();
      h.sticking.push_back({c, t, T, false});
    };

    // The contacts of `active` are brought to the stop: minimal mass-norm corrections so that
    // their gaps (position projection) and contact velocities (R = 0 map) vanish.
    auto project_onto_stop = [&](State &y, const std::vector<unsigned int> &active) {
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

    // Contacts in contact with zero velocity that the free acceleration pushes into the stop
    // (or whose multiplier stays positive) join the stuck set; those with lambda <= 0 leave it.
    auto settle_stuck_set = [&](State &y, double t) {
      while (!stuck.empty())
        {
          project_onto_stop(y, stuck);
          const ModalSystem   system = make_system();
          const Eigen::VectorXd lambda = system.multipliers(q_of(y), v_of(y), t);
          Eigen::Index          worst;
          if (lambda.minCoeff(&worst) > 0)
            return;
          const unsigned int c = stuck[worst];
          h.sticking[open_phase[c]].end      = t;
          h.sticking[open_phase[c]].released = true;
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
      const Eigen::VectorXd p = solve_gram(BA, target);
      const double          kinetic_before = 0.5 * v_of(x).squaredNorm();
      Eigen::Map<Eigen::VectorXd>(x.data() + N, N) += BA.transpose() * p;
      const double kinetic_after = 0.5 * v_of(x).squaredNorm();
      dissipated += kinetic_before - kinetic_after;

      ImpactEvent event;
      event.time            = tt;
      event.contact         = c;
      event.pre_velocity    = U_minus;
      event.post_velocity   = cvel(x, c);
      event.impulse         = p[p.size() - 1];
      event.energy_loss     = kinetic_before - kinetic_after;
      event.starts_sticking = chatter || R == 0;
      h.impacts.push_back(event);

      if (chatter || R == 0)
        {
          // Brought to rest at the stop: held if the multiplier is positive.
          stuck.push_back(c);
          start_phase(c, tt);
          settle_stuck_set(x, tt);
          if (std::find(stuck.begin(), stuck.end(), c) == stuck.end())
            h.impacts.back().starts_sticking = false;
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
    double dt = 1e-2 / std::max(omegas_.maxCoeff(), 1.0 / T);
    {
      const ModalSystem system = make_system();
      emit_until(0.0, [&](double, State &y) { y = x; }, system);
    }

    const auto tolerance = boost::math::tools::eps_tolerance<double>(
      std::numeric_limits<double>::digits - 3);

    while (t < T)
      {
        const ModalSystem system = make_system();
        Stepper stepper = s.max_step > 0 ?
                            odeint::make_dense_output(s.absolute_tolerance, s.relative_tolerance,
                                                      s.max_step, Dopri()) :
                            odeint::make_dense_output(s.absolute_tolerance, s.relative_tolerance,
                                                      Dopri());
        stepper.initialize(x, t, std::min(dt, T - t));

        // How each contact is watched in this segment, and the values at the segment start.
        const double        t0 = t;
        std::vector<Watch>  watch(nc, Watch::gap);
        std::vector<double> g0(nc), U0(nc);
        std::vector<int>    stuck_index(nc, -1);
        for (std::size_t k = 0; k < stuck.size(); ++k)
          stuck_index[stuck[k]] = static_cast<int>(k);
        for (unsigned int i = 0; i < nc; ++i)
          {
            g0[i] = gap(x, i);
            U0[i] = cvel(x, i);
            watch[i] = stuck_index[i] >= 0 ? Watch::multiplier :
                       at_stop[i]          ? Watch::divided :
                                             Watch::gap;
          }

        State y(2 * N);
        // Event function of contact i at time tau (state y at tau).
        auto event_value = [&](unsigned int i, double tau, const State &yy) -> double {
          switch (watch[i])
            {
              case Watch::gap:
                return gap(yy, i);
              case Watch::divided:
                return tau == t0 ? U0[i] : (gap(yy, i) - g0[i]) / (tau - t0);
              case Watch::multiplier:
              default:
                return system.multipliers(q_of(yy), v_of(yy), tau)[stuck_index[i]];
            }
        };
        auto state_at = [&](double tau, State &yy) {
          if (tau == t0)
            yy = x;
          else
            stepper.calc_state(tau, yy);
        };

        std::vector<double> previous(nc);
        for (unsigned int i = 0; i < nc; ++i)
          previous[i] = event_value(i, t0, x);
        std::vector<double> previous_U(U0);
        double              previous_time = t0;

        struct Found
        {
          double       time;
          unsigned int contact;
        };
        std::optional<Found> found;
        bool                 finished = false;

        while (!found && !finished)
          {
            const auto interval = stepper.do_step(system);
            ++h.ode_steps;
            const double tb = std::min(interval.second, T);
            dt = stepper.current_time_step();

            const unsigned int M = s.samples_per_step;
            for (unsigned int m = 1; m <= M && !found; ++m)
              {
                const double tau = m == M ? tb : interval.first + (tb - interval.first) * m / M;
                if (tau <= previous_time)
                  continue;
                state_at(tau, y);
                std::vector<double> value(nc), U(nc);
                for (unsigned int i = 0; i < nc; ++i)
                  {
                    value[i] = event_value(i, tau, y);
                    U[i]     = cvel(y, i);
                  }

                // Earliest root over the contacts in [previous_time, tau].
                for (unsigned int i = 0; i < nc; ++i)
                  {
                    auto f = [&, i](double tt) {
                      State yy(2 * N);
                      state_at(tt, yy);
                      return event_value(i, tt, yy);
                    };
                    double a = previous_time, b = tau, fa = previous[i], fb = value[i];
                    if (!(fa > 0))
                      continue; // disarmed until positive (e.g. just released, lambda ~ 0)
                    if (!(fb <= 0) && watch[i] != Watch::multiplier && previous_U[i] < 0 &&
                        U[i] > 0)
                      {
                        // g has a minimum inside: look at it (grazing or a double crossing).
                        auto fu = [&, i](double tt) {
                          State yy(2 * N);
                          state_at(tt, yy);
                          return cvel(yy, i);
                        };
                        std::uintmax_t it = 100;
                        const auto     r  = boost::math::tools::toms748_solve(
                          fu, a, b, previous_U[i], U[i], tolerance, it);
                        const double tm = 0.5 * (r.first + r.second);
                        const double fm = f(tm);
                        if (fm <= 0)
                          {
                            b  = tm;
                            fb = fm;
                          }
                      }
                    if (!(fb <= 0))
                      continue;
                    double root = b;
                    if (fb < 0)
                      {
                        std::uintmax_t it = 200;
                        const auto     r  = boost::math::tools::toms748_solve(f, a, b, fa, fb, tolerance, it);
                        // Impacts: the side with g >= 0 (no penetration); release: lambda <= 0.
                        root = watch[i] == Watch::multiplier ? r.second : r.first;
                      }
                    if (!found || root < found->time)
                      found = Found{root, i};
                  }
                previous      = value;
                previous_U    = U;
                previous_time = tau;
              }

            const double t_end = found ? found->time : tb;
            emit_until(t_end, state_at, system);
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
        const unsigned int c = found->contact;
        if (watch[c] == Watch::multiplier)
          {
            // Release: lambda_c changed sign.
            h.sticking[open_phase[c]].end      = t;
            h.sticking[open_phase[c]].released = true;
            stuck.erase(std::find(stuck.begin(), stuck.end(), c));
            at_stop[c]     = true;
            last_impact[c] = -infinity;
            settle_stuck_set(x, t);
            for (unsigned int k : stuck)
              at_stop[k] = true;
            continue;
          }

        // Impact of contact c, with the stuck set held (U = 0 kept on S).
        impact(c, t);
        for (unsigned int k : stuck)
          at_stop[k] = true;
      }

    // Zero-length phases (a contact that could not stick) are not phases.
    h.sticking.erase(std::remove_if(h.sticking.begin(), h.sticking.end(),
                                    [](const StickingPhase &p) { return p.released && p.end <= p.start; }),
                     h.sticking.end());
    h.final_modal_displacement.push_back(std::vector<double>(x.begin(), x.begin() + N));
    h.final_modal_velocity.push_back(std::vector<double>(x.begin() + N, x.end()));
    return h;
  }


  ModalRestitutionHistory run_modal_restitution(const model::StructuralModel    &model,
                                                const ModalRestitutionSettings &settings)
  {
    return ModalRestitution(model, settings).run();
  }
} // namespace vibroimpact::integrators
