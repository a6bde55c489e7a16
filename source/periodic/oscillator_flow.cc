// The event-driven map's flow for massless contact nodes without damping or harmonic load
// (uses_oscillators()): each closed set's motion is uncoupled oscillators about its equilibrium
// (doc/periodic.md §6). The scan advances the oscillators' (p, ṗ) by their transitions over a scan
// step (O(m)); a root search evaluates them at any τ; J and ∂/∂α are updated once per stretch
// between switches through V (O(m² n)). Only the springs' switches are events (saltation I).
#include "linear_impact_flow_implementation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace vibroimpact::periodic
{
  using Implementation = LinearImpactFlow::Implementation;

  const Implementation::Oscillators &Implementation::oscillators_of(const ClosedSet &closed) const
  {
    std::lock_guard<std::mutex> lock(oscillators_mutex);
    auto it = oscillators_cache.find(closed);
    if (it != oscillators_cache.end())
      return it->second;
    Matrix K = Matrix(omega.cwiseAbs2().asDiagonal());
    Vector f = G.col(0);
    for (unsigned int i = 0; i < closed.size(); ++i)
      if (closed[i])
        {
          const double kappa = spring[i];
          K += kappa * B.row(i).transpose() * B.row(i);
          f -= kappa * gap0[i] * B.row(i).transpose();
        }
    Oscillators o;
    const Vector squared = omega.cwiseAbs2();
    o.modal = std::none_of(closed.begin(), closed.end(), [](bool c) { return c; }) &&
              std::is_sorted(squared.data(), squared.data() + squared.size());
    if (o.modal) // K = Ω², already diagonal and ascending
      {
        o.V      = Matrix::Identity(m, m);
        o.lambda = squared;
      }
    else
      {
        const Eigen::SelfAdjointEigenSolver<Matrix> eigen(K);
        o.V      = eigen.eigenvectors();
        o.lambda = eigen.eigenvalues();
      }
    o.q_static     = o.V * (o.V.transpose() * f).cwiseQuotient(o.lambda);
    o.contact_rows = B * o.V;
    o.gap_static   = gap0 + B * o.q_static;
    return oscillators_cache.emplace(closed, std::move(o)).first->second;
  }

  namespace
  {
    // The motion in one closed set from the start of a stretch: the oscillators' coordinates
    // p0 = Vᵀ(q − q_s), r0 = Vᵀ q̇, and each contact's distance from its switch.
    struct Stretch
    {
      Stretch(const Implementation::Oscillators &o, const ClosedSet &closed, const Vector &z, const Eigen::Index m,
              const double alpha)
        : o(o)
        , closed(closed)
        , p0(o.V.transpose() * (z.head(m) - o.q_static))
        , r0(o.V.transpose() * z.segment(m, m))
        , damping(Vector::Constant(o.lambda.size(), alpha))
      {}

      static void advance(const Transitions &phi, const Vector &p, const Vector &r, Vector &p_out, Vector &r_out)
      {
        p_out = phi.a.cwiseProduct(p) + phi.b.cwiseProduct(r);
        r_out = phi.c.cwiseProduct(p) + phi.d.cwiseProduct(r);
      }
      // (p, r) a time s after (p_a, r_a).
      void at(const double s, const Vector &p_a, const Vector &r_a, Vector &p, Vector &r) const
      {
        advance(transitions(o.lambda, damping, s, false), p_a, r_a, p, r);
      }
      // Contact i's distance from its switch, positive on its present side (open: the gap;
      // closed: minus the gap), and its rate.
      double side(const unsigned int i, const Vector &p) const
      {
        const double g = o.gap_static[i] + o.contact_rows.row(i).dot(p);
        return closed[i] ? -g : g;
      }
      double side_rate(const unsigned int i, const Vector &r) const
      {
        const double rate = o.contact_rows.row(i).dot(r);
        return closed[i] ? -rate : rate;
      }

      const Implementation::Oscillators &o;
      const ClosedSet                   &closed;
      const Vector                       p0, r0;
      const Vector                       damping;
    };

    // Where a stretch ends: a switch of `contact` (−1: the period's end) after `length`, at (p, r).
    struct StretchEnd
    {
      int    contact = -1;
      double length  = 0.0;
      Vector p, r;
    };

    class OscillatorFlow : FlowPass
    {
    public:
      OscillatorFlow(const Implementation &flow, const Vector &x0, const double alpha, const bool with_jacobian,
                     Implementation::Recorder *recorder)
        : FlowPass(flow, x0, alpha, with_jacobian, recorder)
        , tangent(Matrix::Zero(nz, with_jacobian ? nz + 1 : 0))
        , delta(flow.scan_step())
      {
        for (unsigned int i = 0; i < closed.size(); ++i)
          closed[i] = flow.gap(i, z) < 0 || (flow.gap(i, z) == 0 && flow.gap_rate(i, z) < 0);
        result.min_gap             = infinity;
        result.min_impact_velocity = 0.0;
        // [J | ∂z/∂α]: the ξ rows of J stay unit rows (ξ = (1, 0, 1) is constant without harmonic loads).
        if (with_jacobian)
          tangent.leftCols(nz).setIdentity();
      }

      FlowResult run(const double period)
      {
        while (t < period)
          {
            // Checked at each stretch (O(m² n) with the Jacobian) and each scan step (O(m)): a
            // pass of hundreds of modes over thousands of steps stops within milliseconds.
            interrupted("during a period-map evaluation");
            const Stretch    stretch(flow.oscillators_of(closed), closed, z, m, alpha);
            const StretchEnd end = scan(stretch, period - t);
            record(stretch, end);
            if (with_jacobian)
              carry_tangent(stretch, end.length);
            z.head(m)       = stretch.o.q_static + stretch.o.V * end.p;
            z.segment(m, m) = stretch.o.V * end.r;
            if (end.contact < 0)
              break;
            t += end.length;
            switch_contact(static_cast<unsigned int>(end.contact));
          }
        return finish();
      }

    private:
      // The oscillators a stretch's switches are looked for on at a coarse step: the first `slow`
      // (λ ascending); the others' share of each contact's distance from its switch is bounded
      // by `bound` (their amplitudes at the start, grown at most by e^{|α| τ/2} with the
      // unfolding damping), so a coarse step whose slow share stays beyond that bound holds no
      // switch. Where the fast oscillators carry less than 1e-3 of the distance's oscillation
      // (many FE modes far above the contact's frequencies), this saves most scan steps.
      struct SlowShare
      {
        Eigen::Index        slow = 0;
        double              step = 0.0;
        std::vector<double> bound;
      };

      SlowShare slow_share(const Stretch &s, const double remaining) const
      {
        const Eigen::Index n = s.o.lambda.size();
        const Vector amplitude = (s.p0.cwiseAbs2() + s.r0.cwiseAbs2().cwiseQuotient(s.o.lambda)).cwiseSqrt() *
                                 std::exp(0.5 * std::abs(alpha) * remaining);
        SlowShare share;
        share.slow = n;
        share.bound.assign(closed.size(), 0.0);
        for (Eigen::Index cut = n; cut > 1; --cut)
          {
            bool small = true;
            for (unsigned int i = 0; i < closed.size() && small; ++i)
              {
                const Vector reach = s.o.contact_rows.row(i).transpose().cwiseAbs().cwiseProduct(amplitude);
                small = reach.tail(n - cut + 1).sum() <= 1e-3 * reach.sum();
              }
            if (!small)
              break;
            share.slow = cut - 1;
          }
        for (unsigned int i = 0; i < closed.size(); ++i)
          share.bound[i] = s.o.contact_rows.row(i).tail(n - share.slow).cwiseAbs().dot(amplitude.tail(n - share.slow));
        share.step = std::max(delta, 2 * M_PI / std::sqrt(s.o.lambda[share.slow - 1]) /
                                       flow.settings.samples_per_period);
        return share;
      }

      // Whether contact i may switch in a coarse step: the slow share of its distance from the
      // switch, less the fast share's bound, crosses or dips to zero (the fine scan's tests).
      bool may_switch(const Stretch &s, const SlowShare &share, const unsigned int i, const Vector &p_a,
                      const Vector &r_a, const Vector &p_b, const Vector &r_b, const double dt) const
      {
        const auto   row   = s.o.contact_rows.row(i).head(share.slow);
        const double sign  = closed[i] ? -1.0 : 1.0;
        const double f_a   = sign * (s.o.gap_static[i] + row.dot(p_a.head(share.slow))) - share.bound[i];
        const double f_b   = sign * (s.o.gap_static[i] + row.dot(p_b.head(share.slow))) - share.bound[i];
        const double v_a   = sign * row.dot(r_a.head(share.slow)), v_b = sign * row.dot(r_b.head(share.slow));
        return f_a <= 0 || f_b <= 0 || (v_a < 0 && v_b > 0 && std::min(f_a, f_b) <= dt * (v_b - v_a));
      }

      // Coarse steps over the stretch; a step where a contact may switch is scanned finely.
      StretchEnd scan(const Stretch &s, const double remaining)
      {
        const SlowShare share = slow_share(s, remaining);
        if (share.step <= delta || !flow.settings.coarse_scan)
          return scan_finely(s, s.p0, s.r0, 0.0, remaining);
        const Transitions step = transitions(s.o.lambda, s.damping, share.step, false);
        Vector            p_a = s.p0, r_a = s.r0, p_b, r_b;
        double            tau_a = 0.0;
        while (tau_a < remaining)
          {
            interrupted("during a period-map evaluation");
            const double dt = std::min(share.step, remaining - tau_a);
            Stretch::advance(dt == share.step ? step : transitions(s.o.lambda, s.damping, dt, false), p_a, r_a, p_b,
                             r_b);
            bool examine = false;
            for (unsigned int i = 0; i < closed.size() && !examine; ++i)
              examine = may_switch(s, share, i, p_a, r_a, p_b, r_b, dt);
            if (examine)
              {
                StretchEnd end = scan_finely(s, p_a, r_a, tau_a, dt);
                if (end.contact >= 0 || tau_a + dt >= remaining)
                  return end;
                p_b = end.p, r_b = end.r;
              }
            else
              for (unsigned int i = 0; i < closed.size(); ++i)
                if (!closed[i])
                  result.min_gap = std::min(result.min_gap, std::max(s.side(i, p_b), 0.0));
            std::swap(p_a, p_b), std::swap(r_a, r_b);
            tau_a += dt;
          }
        StretchEnd end;
        end.length = remaining;
        end.p      = p_a;
        end.r      = r_a;
        return end;
      }

      // Whole scan steps of the shortest period's fraction from (p, r) at `start` in the stretch
      // over `length`, until a switch (its time since the stretch's start) or the end.
      StretchEnd scan_finely(const Stretch &s, const Vector &p, const Vector &r, const double start,
                             const double length)
      {
        const Transitions step = transitions(s.o.lambda, s.damping, delta, false);
        Vector            p_a = p, r_a = r, p_b, r_b;
        double            tau_a = 0.0, s_event = infinity;
        int               contact = -1;
        const double      remaining = length;
        while (tau_a < remaining)
          {
            interrupted("during a period-map evaluation");
            const double dt = std::min(delta, remaining - tau_a);
            Stretch::advance(dt == delta ? step : transitions(s.o.lambda, s.damping, dt, false), p_a, r_a, p_b, r_b);
            for (unsigned int i = 0; i < closed.size(); ++i)
              {
                const double root = switch_in_step(s, i, p_a, r_a, p_b, r_b, dt);
                if (root < s_event)
                  s_event = root, contact = static_cast<int>(i);
              }
            if (contact >= 0)
              {
                s.at(s_event, p_a, r_a, p_b, r_b);
                tau_a += s_event;
                break;
              }
            p_a = p_b, r_a = r_b;
            tau_a += dt;
          }
        StretchEnd end;
        end.contact = contact;
        end.length  = start + (contact >= 0 ? tau_a : remaining);
        end.p       = contact >= 0 ? p_b : p_a;
        end.r       = contact >= 0 ? r_b : r_a;
        return end;
      }

      // The time in [0, dt] at which contact i switches in the step from (p_a, r_a) to (p_b,
      // r_b) (∞: none); an open contact's smallest gap on the way.
      double switch_in_step(const Stretch &s, const unsigned int i, const Vector &p_a, const Vector &r_a,
                            const Vector &p_b, const Vector &r_b, const double dt)
      {
        const double f_a = s.side(i, p_a), f_b = s.side(i, p_b);
        const double v_a = s.side_rate(i, r_a), v_b = s.side_rate(i, r_b);
        const auto   f   = [&](double tau) {
          Vector p, r;
          s.at(tau, p_a, r_a, p, r);
          return s.side(i, p);
        };
        double root = infinity;
        if (f_a <= 0 && f_b < 0)
          root = 0.0; // on the switch and leaving this side at once
        else if (f_a > 0 && f_b <= 0)
          root = crossing(f, 0.0, dt);
        else if (f_a > 0 && f_b > 0 && v_a < 0 && v_b > 0 && std::min(f_a, f_b) <= dt * (v_b - v_a))
          {
            // A dip toward the switch between samples (deeper ones are impossible at this step,
            // as in the exponential flow): its lowest point, then the crossing before it.
            const auto rate = [&](double tau) {
              Vector p, r;
              s.at(tau, p_a, r_a, p, r);
              return s.side_rate(i, r);
            };
            const auto   lowest = bracket(rate, 0.0, dt, v_a, v_b);
            const double s_min  = 0.5 * (lowest.first + lowest.second);
            const double f_min  = f(s_min);
            if (!closed[i])
              result.min_gap = std::min(result.min_gap, std::max(f_min, 0.0));
            if (f_min <= 0)
              root = crossing(f, 0.0, s_min);
          }
        // An open end's gap, sampled (a crossing switches it closed at gap 0).
        if (!closed[i])
          result.min_gap = std::min(result.min_gap, std::max(f_b, 0.0));
        return root;
      }

      // The samples that fall in the stretch (all the rest when it runs to the period's end).
      void record(const Stretch &s, const StretchEnd &end)
      {
        if (!recorder)
          return;
        while (recorder->next < recorder->times.size() &&
               (end.contact < 0 || recorder->times[recorder->next] <= t + end.length))
          {
            Vector p, r;
            s.at(std::min(recorder->times[recorder->next] - t, end.length), s.p0, s.r0, p, r);
            Vector sample        = z;
            sample.head(m)       = s.o.q_static + s.o.V * p;
            sample.segment(m, m) = s.o.V * r;
            recorder->states.push_back(sample);
            ++recorder->next;
          }
      }

      // z ↦ (q_s ξ0 + V(a∘P + b∘R), V(c∘P + d∘R), ξ), P = Vᵀ(q − q_s ξ0), R = Vᵀ q̇, on every
      // column of [J | ∂z/∂α]; then ∂/∂α of the stretch itself.
      // The set with no spring closed has V = I (the modes themselves): its m × m products, half
      // of a flow's cost with many modes, are skipped.
      void carry_tangent(const Stretch &s, const double length)
      {
        const auto       &o        = s.o;
        const Transitions phi      = transitions(o.lambda, s.damping, length, true);
        const auto        in_basis = [&o](Matrix X) { return o.modal ? X : Matrix(o.V.transpose() * X); };
        const auto        back     = [&o](Matrix X) { return o.modal ? X : Matrix(o.V * X); };
        const Matrix      P = in_basis(tangent.topRows(m) - o.q_static * tangent.row(2 * m));
        const Matrix      R = in_basis(tangent.middleRows(m, m));
        tangent.topRows(m) = o.q_static * tangent.row(2 * m) + back(phi.a.asDiagonal() * P + phi.b.asDiagonal() * R);
        tangent.middleRows(m, m) = back(phi.c.asDiagonal() * P + phi.d.asDiagonal() * R);
        tangent.col(nz).head(m) += o.V * (phi.da.cwiseProduct(s.p0) + phi.db.cwiseProduct(s.r0));
        tangent.col(nz).segment(m, m) += o.V * (phi.dc.cwiseProduct(s.p0) + phi.dd.cwiseProduct(s.r0));
      }

      void switch_contact(const unsigned int i)
      {
        if (++n_events > flow.settings.max_events)
          throw std::runtime_error("more than " + std::to_string(flow.settings.max_events) +
                                   " contact switches in one period");
        closed[i] = !closed[i];
        result.events.push_back({closed[i] ? ContactEvent::Kind::sticking_start : ContactEvent::Kind::separation, t, i, 0.0});
      }

      FlowResult finish()
      {
        // The pass ends here: its result is moved out.
        if (!with_jacobian)
          return finish_pass(nullptr, Vector(), Matrix());
        return finish_pass(&tangent, tangent.col(nz),
                                           flow.make_mode(closed, alpha).A);
      }

      Matrix                    tangent;
      const double              delta;
      double                    t        = 0.0;
      unsigned int              n_events = 0;
    };
  } // namespace

  FlowResult Implementation::run_oscillators(const Vector &x0, const double period, const double alpha,
                                             const bool with_jacobian, Recorder *recorder) const
  {
    return OscillatorFlow(*this, x0, alpha, with_jacobian, recorder).run(period);
  }
} // namespace vibroimpact::periodic
