// The event-driven map's flow over one period by exponentials: z(t) = exp(A t) z0 in each closed
// set, events located by a scan finer than the shortest period (with the gap's slope, so a dip
// below zero between samples is caught) and refined by TOMS 748; impacts by Newton's law in modal
// coordinates (sticking below the chatter threshold, the energy correction), releases where a
// multiplier turns tensile, massless nodes' springs switching. The Jacobian chains exp(A t) with
// the saltation matrices of the impacts (doc/periodic.md §1). Free flight without harmonic load
// goes by the modes' closed forms instead of exponentials.
#include "linear_impact_flow_implementation.h"

#include <unsupported/Eigen/MatrixFunctions>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace vibroimpact::periodic
{
  using Implementation = LinearImpactFlow::Implementation;

  namespace
  {
    using Mode = Implementation::Mode;

    // Free flight without harmonic load: the modal coordinates are already uncoupled oscillators
    // p̈ + (d_j + α) ṗ + ω_j² p = g_j (g the constant load) about q_s = g/ω², so a step is their
    // closed-form transition (O(m)) and J takes one transition per stretch between events
    // (O(m n)), as in the oscillator flow with V = I; no exponential is formed for the free set.
    class FreeFlight
    {
    public:
      FreeFlight(const Implementation &flow, const double alpha)
        : m(flow.m)
        , n_forcing(flow.n_forcing)
        , lambda(flow.omega.cwiseAbs2())
        , damping((flow.D.array() + alpha).matrix())
        , enabled(flow.settings.uncoupled_oscillators && !flow.harmonic && flow.omega.minCoeff() > 0 &&
                  underdamped(lambda, damping))
        , q_static(n_forcing > 0 ? Vector(flow.G.col(0).cwiseQuotient(lambda)) : Vector::Zero(m))
      {}

      // Whether the flow of this closed set goes by the closed forms.
      bool covers(const ClosedSet &set) const
      {
        return enabled && std::none_of(set.begin(), set.end(), [](bool c) { return c; });
      }

      Transitions over(const double tau, const bool derivative) const
      {
        return transitions(lambda, damping, tau, derivative);
      }

      // z ↦ (q_s ξ0 + a∘(q − q_s ξ0) + b∘q̇, c∘(q − q_s ξ0) + d∘q̇, ξ) on the columns of X.
      template <typename Columns>
      void transit(const Transitions &phi, Columns &X) const
      {
        const Matrix xi = n_forcing > 0 ? Matrix(X.row(2 * m)) : Matrix::Zero(1, X.cols());
        const Matrix P  = X.topRows(m) - q_static * xi, R = X.middleRows(m, m);
        X.topRows(m)       = q_static * xi + phi.a.asDiagonal() * P + phi.b.asDiagonal() * R;
        X.middleRows(m, m) = phi.c.asDiagonal() * P + phi.d.asDiagonal() * R;
      }

      Vector propagate(const double tau, const Vector &z0) const
      {
        Vector z1 = z0;
        transit(over(tau, false), z1);
        return z1;
      }

      const Eigen::Index m, n_forcing;
      const Vector       lambda, damping;
      const bool         enabled;
      const Vector       q_static;
      Transitions        step; // over a whole scan step, once needed
    };

    // One scan step from the present state: its closed set's mode, its end z1 (without events),
    // the earliest event in (0, dt] found so far, and the Taylor terms of z(τ) inside it.
    struct Step
    {
      Step(Mode &mode, const bool in_free_flight, const double dt)
        : mode(mode)
        , in_free_flight(in_free_flight)
        , dt(dt)
      {}

      Mode               &mode;
      const bool          in_free_flight;
      const double        dt;
      Vector              z1;
      double              tau_event = infinity;
      int                 contact   = -1;
      bool                release   = false;
      std::vector<Vector> taylor;
    };

    class ExponentialEventFlow : FlowPass
    {
    public:
      ExponentialEventFlow(const Implementation &flow, const Vector &x0, const double alpha, const bool with_jacobian,
                           Implementation::Recorder *recorder)
        : FlowPass(flow, x0, alpha, with_jacobian, recorder)
        , J(Matrix::Identity(nz, nz))
        , j_alpha(Vector::Zero(nz))
        , free(flow, alpha)
        , delta(flow.scan_step())
        , last_impact(flow.B.rows(), -infinity)
      {
        close_resting_contacts();
        result.min_gap             = infinity;
        result.min_impact_velocity = infinity;
      }

      FlowResult run(const double period)
      {
        while (t < period)
          {
            interrupted("during a period-map evaluation"); // a scan step (or an event) at most
            Step step = begin_step(period);
            for (unsigned int i = 0; i < flow.B.rows(); ++i)
              if (!closed[i])
                {
                  const double root = impact_time(step, i);
                  if (root < step.tau_event && !flow.ignored.covers(i, t + root))
                    step.tau_event = root, step.contact = static_cast<int>(i), step.release = false;
                }
            find_release(step);

            const double tau   = step.contact < 0 ? step.dt : step.tau_event;
            const Vector z_end = advance(step, tau);
            record(t + tau, step.mode, z, t);
            for (unsigned int i = 0; i < flow.B.rows(); ++i)
              if (!closed[i])
                result.min_gap = std::min(result.min_gap, flow.gap(i, z_end));
            z = z_end;
            t += tau;
            if (step.contact >= 0)
              apply_event(step);
          }
        return finish();
      }

    private:
      // A contact starting at rest on its stop and pressed into it starts stuck.
      void close_resting_contacts()
      {
        const double length_scale = std::max(1e-300, z.head(2 * m).lpNorm<Eigen::Infinity>());
        for (unsigned int i = 0; i < flow.B.rows(); ++i)
          if (flow.compliant)
            closed[i] = flow.gap(i, z) < 0 || (flow.gap(i, z) == 0 && flow.gap_rate(i, z) < 0);
          else if (std::abs(flow.gap(i, z)) <= 1e-12 * std::max(length_scale, std::abs(flow.gap0[i])) &&
                   std::abs(flow.gap_rate(i, z)) <= flow.settings.chatter_threshold && flow.pressed(i, z, alpha))
            closed[i] = true;
      }

      Mode &mode_of(const ClosedSet &set)
      {
        auto it = modes.find(set);
        if (it == modes.end())
          it = modes.emplace(set, flow.make_mode(set, alpha)).first;
        return it->second;
      }

      // The step's end without events: by the closed forms, by the mode's stored exp(A δ), or
      // by a new exponential.
      Step begin_step(const double period)
      {
        Mode &mode = mode_of(closed);
        Step  step(mode, free.covers(closed), std::min(delta, period - t));
        const double dt = step.dt;
        if (step.in_free_flight)
          {
            if (free.step.a.size() == 0)
              free.step = free.over(delta, false);
            step.z1 = z;
            free.transit(dt == delta ? free.step : free.over(dt, false), step.z1);
          }
        else
          {
            if (dt != delta || mode.step_length != delta)
              {
                const Matrix E = (mode.A * dt).exp();
                if (dt == delta)
                  mode.step = E, mode.step_length = delta;
                step.z1 = E * z;
              }
            else
              step.z1 = mode.step * z;
          }
        return step;
      }

      // z(τ) inside the step for the root searches: its Taylor series, whose terms A^k z / k!
      // are formed once per step (τ ≤ δ, so |λ|τ ≤ 2π/24 and 20-odd terms reach rounding),
      // instead of an exponential at every evaluation; the exponential when it does not converge.
      Vector z_at(Step &step, const double tau) const
      {
        if (step.in_free_flight)
          return free.propagate(tau, z);
        auto &taylor = step.taylor;
        if (taylor.empty())
          {
            taylor.push_back(z);
            const double floor = 1e-17 * std::max(z.lpNorm<Eigen::Infinity>(), 1e-300);
            for (int k = 1; k <= 60; ++k)
              {
                taylor.push_back(step.mode.A * taylor.back() / double(k));
                if (taylor.back().lpNorm<Eigen::Infinity>() * std::pow(step.dt, k) < floor)
                  break;
              }
            if (taylor.back().lpNorm<Eigen::Infinity>() * std::pow(step.dt, taylor.size() - 1) >= floor)
              taylor.assign(1, Vector()); // no convergence: exponentials below
          }
        if (taylor.size() == 1)
          return (step.mode.A * tau).exp() * z;
        Vector sum = taylor.back();
        for (auto k = taylor.size() - 1; k-- > 0;)
          sum = taylor[k] + tau * sum;
        return sum;
      }

      // When open contact i reaches its stop in the step (∞: it does not); the dips toward it
      // on the way give the smallest and the grazing gap.
      double impact_time(Step &step, const unsigned int i)
      {
        const double dt  = step.dt;
        const double g_a = flow.gap(i, z), g_b = flow.gap(i, step.z1);
        const double r_a = flow.gap_rate(i, z), r_b = flow.gap_rate(i, step.z1);
        double       root = infinity;
        const auto   g    = [&](double tau) { return flow.gap(i, z_at(step, tau)); };
        const auto   rate = [&](double tau) { return flow.gap_rate(i, z_at(step, tau)); };
        // Where the step starts: after an impact the state sits on the stop (g ≤ 0 to
        // rounding) and rises; a bounce shorter than the step comes back inside it, unseen
        // by both ends: the search then starts from the bounce's top. (A release leaves
        // the stop at rest: its rate is rounding, not a bounce.)
        double start = 0.0, g_start = g_a, r_start = r_a;
        // On the stop to rounding (after an impact or a release): no dip can start here.
        const bool on_stop =
          g_a <= 1e-12 * (std::abs(flow.gap0[i]) + flow.B.row(i).cwiseAbs().dot(z.head(m).cwiseAbs()));
        // (A top and a bottom inside one step would be two slope changes within a 24th of the
        // shortest period: not resolved, as for the dips below.)
        if (on_stop && r_a > 1e-9 * flow.B.row(i).norm() * z.segment(m, m).norm() && r_b < 0)
          {
            start   = bracket(rate, 0.0, dt, r_a, r_b).second;
            g_start = g(start);
            r_start = rate(start);
          }
        if (g_start > 0 && g_b <= 0)
          root = crossing(g, start, dt);
        else if (g_start > 0 && g_b > 0 && (start > 0 || (r_a < 0 && !on_stop)) && r_b > 0 &&
                 std::min(g_start, g_b) <= (dt - start) * (r_b - r_start))
          {
            // (A dip deeper than the step times the slopes' span is impossible at 24 samples
            // per shortest period: only those near the stop are located, the ones that matter
            // for impacts and the grazing gap; the others would cost a root search each.)
            // A dip between samples: find the lowest point, then the crossing before it.
            const auto   lowest  = bracket(rate, start, dt, r_start, r_b);
            const double tau_min = 0.5 * (lowest.first + lowest.second);
            const double g_min   = g(tau_min);
            result.min_gap       = std::min(result.min_gap, g_min);
            if (start == 0.0 && !flow.compliant) // a dip right after a bounce is chatter, not a grazing
                                                 // (and a spring's grazing ends no family)
              result.grazing_gap = std::min(result.grazing_gap, g_min);
            if (g_min <= 0)
              root = crossing(g, start, tau_min);
          }
        return root;
      }

      // A stuck contact whose multiplier turns tensile in the step is released there.
      void find_release(Step &step)
      {
        const Mode &mode = step.mode;
        for (std::size_t k = 0; k < mode.closed_list.size(); ++k)
          {
            const double l_b = mode.multiplier_rows.row(k).dot(step.z1);
            if (l_b < 0)
              {
                const auto   lambda = [&](double tau) { return mode.multiplier_rows.row(k).dot(z_at(step, tau)); };
                const double l_a    = mode.multiplier_rows.row(k).dot(z);
                const double root   = l_a <= 0 ? 0.0 : crossing(lambda, 0.0, step.dt);
                if (root < step.tau_event)
                  step.tau_event = root, step.contact = static_cast<int>(mode.closed_list[k]), step.release = true;
              }
          }
      }

      // The state τ into the step, and J, ∂z/∂α carried there (or held back: whole steps wait
      // in pending_steps, free flight in the stretch).
      Vector advance(Step &step, const double tau)
      {
        Mode &mode = step.mode;
        if (with_jacobian && step.in_free_flight)
          {
            if (stretch == 0.0)
              stretch_start = z;
            stretch += tau;
            Vector z_end = step.contact < 0 ? step.z1 : z_at(step, tau);
            if (step.contact >= 0)
              flush_stretch(); // before the event's saltation
            return z_end;
          }
        if (with_jacobian && step.contact < 0 && step.dt == delta)
          {
            // A whole scan step: ∂/∂α by two products with the vector; J waits (flush_steps).
            if (mode.step_extended.size() == 0)
              mode.step_extended = (flow.extended(mode) * delta).exp();
            const auto &X = mode.step_extended;
            j_alpha       = X.topLeftCorner(nz, nz) * j_alpha + X.topRightCorner(nz, nz) * z;
            ++pending_steps;
            return step.z1;
          }
        if (with_jacobian)
          return part_step(mode, tau);
        return step.contact < 0 ? step.z1 : z_at(step, tau);
      }

      // A part step: exp(Aτ) for J, and ∂z/∂α over it, the top-right block of the extended
      // exponential times z, as the Taylor series of w' = A w + A_α y, y' = A y (w = 0, y = z)
      // on vectors: the 2n × 2n exponential cost 8× the n × n one.
      Vector part_step(const Mode &mode, const double tau)
      {
        flush_steps(mode);
        const Matrix Et     = (mode.A * tau).exp();
        Vector       w_term = Vector::Zero(nz), y_term = z, w_sum = Vector::Zero(nz);
        const double floor  = 1e-17 * std::max(z.lpNorm<Eigen::Infinity>(), 1e-300);
        bool         converged = false;
        for (int k = 1; k <= 80 && !converged; ++k)
          {
            const Vector w_next = (mode.A * w_term + mode.A_alpha * y_term) * (tau / k);
            y_term              = mode.A * y_term * (tau / k);
            w_term              = w_next;
            w_sum += w_term;
            converged = w_term.lpNorm<Eigen::Infinity>() < floor && y_term.lpNorm<Eigen::Infinity>() < floor;
          }
        if (!converged)
          w_sum = (flow.extended(mode) * tau).exp().topRightCorner(nz, nz) * z;
        j_alpha = Et * j_alpha + w_sum;
        J       = Et * J;
        return Et * z;
      }

      // Whole scan steps since the last event multiply J at once, E^k by repeated squaring: the
      // scan takes thousands of steps a period on FE models, and J = E J at each cost n³ apiece.
      void flush_steps(const Mode &mode)
      {
        Matrix power = mode.step;
        for (unsigned long k = pending_steps; k > 0; k >>= 1)
          {
            if (k & 1)
              J = power * J;
            if (k > 1)
              power = power * power;
          }
        pending_steps = 0;
      }

      // Free flight since the last event into J and ∂z/∂α: one closed-form transition.
      void flush_stretch()
      {
        if (stretch == 0.0)
          return;
        const Transitions phi = free.over(stretch, true);
        free.transit(phi, J);
        free.transit(phi, j_alpha);
        const double xi = flow.n_forcing > 0 ? stretch_start[2 * m] : 1.0;
        const Vector p0 = stretch_start.head(m) - free.q_static * xi, r0 = stretch_start.segment(m, m);
        j_alpha.head(m) += phi.da.cwiseProduct(p0) + phi.db.cwiseProduct(r0);
        j_alpha.segment(m, m) += phi.dc.cwiseProduct(p0) + phi.dd.cwiseProduct(r0);
        stretch = 0.0;
      }

      // The samples up to t_end of the flow that started from z_start at t_start in `mode`.
      void record(const double t_end, const Mode &mode, const Vector &z_start, const double t_start)
      {
        if (!recorder)
          return;
        while (recorder->next < recorder->times.size() && recorder->times[recorder->next] <= t_end)
          {
            const double tau = recorder->times[recorder->next] - t_start;
            recorder->states.push_back(free.covers(closed) ? free.propagate(tau, z_start)
                                                           : Vector((mode.A * tau).exp() * z_start));
            ++recorder->next;
          }
      }

      // The event the step ended at: a spring switching, a release, or an impact.
      void apply_event(const Step &step)
      {
        if (++n_events > flow.settings.max_events)
          throw std::runtime_error("more than " + std::to_string(flow.settings.max_events) +
                                   " contact events in one period (chatter without sticking?)");
        const unsigned int i = static_cast<unsigned int>(step.contact);
        if (flow.compliant)
          {
            // A spring closing or opening: the vector field is continuous there (γ = 0), so
            // the saltation matrix is I.
            closed[i] = !step.release;
            result.events.push_back(
              {step.release ? ContactEvent::Kind::separation : ContactEvent::Kind::sticking_start, t, i, 0.0});
            return;
          }
        if (step.release)
          {
            // λ = 0 at the release: both vector fields agree there, so the saltation matrix is I.
            closed[i] = false;
            result.events.push_back({ContactEvent::Kind::separation, t, i, 0.0});
            return;
          }
        impact(i, step.mode);
      }

      // Newton's law in modal coordinates, U+ = −e U−; an impact within Chatter time of the
      // previous one of the same contact is perfectly inelastic (the modal CoR's rule).
      void impact(const unsigned int i, const Mode &mode)
      {
        const Vector b       = flow.B.row(i).transpose();
        const double U_minus = b.dot(z.segment(m, m));
        const bool   chatter = flow.settings.chatter_time > 0 && t - last_impact[i] < flow.settings.chatter_time;
        const double e       = chatter ? 0.0 : flow.restitution[i];
        last_impact[i]       = t;
        Vector z_plus        = z;
        z_plus.segment(m, m) -= (1.0 + e) * U_minus / b.squaredNorm() * b;
        result.events.push_back({ContactEvent::Kind::impact, t, i, U_minus});
        result.min_impact_velocity = std::min(result.min_impact_velocity, std::abs(U_minus));
        ClosedSet next = closed;
        // Brought to rest (or rebounding slower than the chatter threshold) and pressed: it sticks.
        if ((e == 0 || e * std::abs(U_minus) <= flow.settings.chatter_threshold) && flow.pressed(i, z_plus, alpha))
          {
            z_plus.segment(m, m) = z.segment(m, m) - U_minus / b.squaredNorm() * b;
            next[i]              = true;
            result.events.push_back({ContactEvent::Kind::sticking_start, t, i, 0.0});
          }
        // ∂v+/∂v− of the impact law, then of the energy correction.
        const double e_used = next[i] ? 0.0 : e;
        Matrix       Rv     = Matrix::Identity(m, m) - (1.0 + e_used) / b.squaredNorm() * b * b.transpose();
        if (flow.settings.energy_correction && e_used < 1.0)
          {
            std::vector<unsigned int> held{i};
            for (unsigned int k = 0; k < next.size(); ++k)
              if (next[k] && k != i)
                held.push_back(k);
            Vector w = z_plus.segment(m, m);
            Rv       = flow.correct_energy(z.segment(m, m), w, Rv, held);
            z_plus.segment(m, m) = w;
          }
        if (with_jacobian)
          apply_saltation(mode, next, z_plus, Rv, b, U_minus);
        z      = z_plus;
        closed = next;
      }

      // S = R + (f+ − R f−) ∇gᵀ / (∇g · f−), ∇g = (b, 0, 0), ∇g · f− = U−, on J and ∂z/∂α.
      void apply_saltation(const Mode &mode, const ClosedSet &next, const Vector &z_plus, const Matrix &Rv,
                           const Vector &b, const double U_minus)
      {
        Matrix R            = Matrix::Identity(nz, nz);
        R.block(m, m, m, m) = Rv;
        const Vector f_minus = mode.A * z;
        const Vector f_plus  = mode_of(next).A * z_plus;
        Matrix       S       = R;
        S.leftCols(m) += (f_plus - R * f_minus) * b.transpose() / U_minus;
        J       = S * J;
        j_alpha = S * j_alpha;
      }

      FlowResult finish()
      {
        if (with_jacobian)
          flush_steps(mode_of(closed)), flush_stretch();
        if (result.min_impact_velocity == infinity)
          result.min_impact_velocity = 0.0;
        // The pass ends here: its result is moved out.
        if (!with_jacobian)
          return finish_pass(nullptr, Vector(), Matrix());
        return finish_pass(&J, j_alpha, mode_of(closed).A);
      }

      Matrix                    J;
      Vector                    j_alpha;
      std::map<ClosedSet, Mode> modes;
      unsigned long             pending_steps = 0;
      FreeFlight                free;
      double                    stretch = 0.0; // free flight since the last event, not yet in J
      Vector                    stretch_start;
      const double              delta;
      double                    t = 0.0;
      std::vector<double>       last_impact;
      unsigned int              n_events = 0;
    };
  } // namespace

  FlowResult Implementation::run(const Vector &x0, const double period, const double alpha, const bool with_jacobian,
                                 Recorder *recorder) const
  {
    // (Every closed set's frequencies are at least the free ones: α that leaves those
    // underdamped leaves all of them so.)
    if (uses_oscillators() && 0.25 * alpha * alpha < omega.minCoeff() * omega.minCoeff())
      return run_oscillators(x0, period, alpha, with_jacobian, recorder);
    return ExponentialEventFlow(*this, x0, alpha, with_jacobian, recorder).run(period);
  }
} // namespace vibroimpact::periodic
