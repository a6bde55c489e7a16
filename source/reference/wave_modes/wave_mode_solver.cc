// The wave-mode reference as a registered solver ("wave-modes"): phases in contact (coupled
// beam–rod modes) and apart (cantilever and rod modes), closed-form time functions, switches
// located by TOMS 748 between samples, the state projected on the new basis with the mass inner
// product (doc/wave_modes.md).
#include <vibroimpact/integrators/solver_base.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/reference/wave_mode_solver.h>

#include "wave_mode_model.h"

#include <deal.II/base/timer.h>

#include <boost/math/tools/roots.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <sstream>

namespace vibroimpact::reference
{
  void bind_settings(io::ParameterSection &section, WaveModeSettings &settings)
  {
    section.add("Number of modes", settings.n_modes, 1, 100000,
                "N: coupled beam-rod modes in contact; apart, the N lowest of the cantilever's and the rod's "
                "modes together (the same frequency band).");
    section.add("Time step", settings.time_step, io::positive(),
                "Sampling step (s): the solution is exact in time; the step only samples it and brackets the "
                "switches (a contact or separation that begins and ends within one step is missed).");
    section.add("Switch tolerance", settings.switch_tolerance, io::positive(),
                "Width (s) of the bracket at which TOMS 748 stops locating a contact or a separation.");
    section.add("Maximum switches", settings.max_switches, 1, std::numeric_limits<unsigned int>::max(),
                "The run fails beyond this number of contact and separation switches.");
  }

  using integrators::ContactEvent;
  using integrators::ResponseObserver;
  using integrators::ResponseSample;
  using integrators::RunControl;
  using integrators::RunSummary;
  using Eigen::MatrixXd;
  using Vector = Eigen::VectorXd;

  namespace
  {
    using wave_modes::inspect;
    using wave_modes::Layout;
    using wave_modes::TipForce;

    // One set of modes with everything a phase evaluates: tip values, the quasi-static shapes
    // (per unit tip force and from the gap), their mass products with the modes, the probes' and
    // DoFs' mode values.
    struct Basis
    {
      bool                  contact = false;
      std::vector<WaveMode> modes;
      Vector                omega, tip, rod_end, rod_strain; // Y(L), U(l), U'(l)
      StaticShape           per_force, from_gap;
      Vector                force_product, gap_product; // ⟨φ_m, s_F⟩, ⟨φ_m, s_g⟩
      double                force_norm2 = 0.0;          // ⟨s_F, s_F⟩
      MatrixXd              particular;                 // N × K: q_p = Σ_k R_mk sin(Ω_k t + φ_k)
      MatrixXd              probe_values, dof_values;   // probes × N, DoFs × N
      Vector                step_cos, step_sin;         // cos ω h, sin ω h: one sampling step
      Vector                other_force_product, other_gap_product; // ⟨φ_m, s_F⟩, ⟨φ_m, s_g⟩ of the other basis
      Vector                probe_static_force, probe_static_gap, dof_static_force, dof_static_gap;
    };

    struct Phase
    {
      const Basis *basis = nullptr;
      double       t0    = 0.0;
      Vector       alpha, beta; // homogeneous part: q = α cos ω(t − t0) + β/ω sin ω(t − t0)
      double       energy0 = 0.0, work0 = 0.0, impulse0 = 0.0;
    };

    // One run: the two bases prepared once, then samples on the grid of h, the switches between
    // phases located and projected, the contact episodes and the summary.
    class WaveModeRun : integrators::SolverRun
    {
    public:
      WaveModeRun(const model::StructuralModel &m, const WaveModeSettings &s, const Layout &layout,
                  const RunControl &control, ResponseObserver &observer)
        : SolverRun(control, observer, "samples")
        , model_(m)
        , settings_(s)
        , layout_(layout)
        , d_(layout.data)
        , force_(m)
        , h_(s.time_step)
        , n_steps_(static_cast<unsigned long>(std::ceil(control.final_time / s.time_step - 1e-9)))
        , rows_{control.output_interval, s.time_step}
        , frames_{control.frame_interval, s.time_step}
        , row_gap_(1)
        , row_force_(1)
        , row_impulse_(1)
        , row_probe_u_(static_cast<Eigen::Index>(m.probes.size()))
        , row_probe_v_(static_cast<Eigen::Index>(m.probes.size()))
      {
        timer_.enter_subsection(section_roots);
        free_.modes      = free_modes(d_, s.n_modes);
        coupled_.modes   = coupled_modes(d_, s.n_modes);
        coupled_.contact = true;
        timer_.leave_subsection(section_roots);
        timer_.enter_subsection(section_projections);
        prepare(free_);
        prepare(coupled_);
        // The one projection matrix: coupled × free mass products (its transpose goes back).
        for (auto [b, other] : {std::pair<Basis *, const Basis *>{&free_, &coupled_}, {&coupled_, &free_}})
          {
            b->other_force_product.resize(s.n_modes), b->other_gap_product.resize(s.n_modes);
            for (unsigned int m = 0; m < s.n_modes; ++m)
              {
                b->other_force_product[m] = mass_product(d_, b->modes[m], other->per_force);
                b->other_gap_product[m]   = mass_product(d_, b->modes[m], other->from_gap);
              }
          }
        coupled_free_        = mass_products(d_, coupled_.modes, free_.modes);
        free_coupled_ = coupled_free_.transpose();
        timer_.leave_subsection(section_projections);
      }

      RunSummary run()
      {
        timer_.enter_subsection(section_run);
        start();
        for (unsigned long k = 1; k <= n_steps_; ++k)
          advance(k);
        if (phase_.basis->contact)
          {
            contact_time_ += control_.final_time - phase_.t0;
            if (pending_impact_.time >= 0)
              close_episode(-1.0, contact_impulse(phase_, control_.final_time));
          }
        timer_.leave_subsection(section_run);
        return summarise();
      }

    private:
      void       start();
      void       advance(unsigned long k);
      void       switch_phase_at(double ts, double t, double &f_next);
      double     record(double t, bool frame, bool dofs);
      void       close_episode(double end, double episode);
      RunSummary summarise();

      // Where a run's time goes, as every run's is timed (deal.II's TimerOutput, not printed):
      // the two bases, the projection matrix, then the samples with the switches among them.
      static constexpr const char *section_roots = "roots and shapes", *section_projections = "projection matrix",
                                  *section_run = "samples and switches", *section_switching = "switching";
      dealii::TimerOutput timer_{std::cout, dealii::TimerOutput::never, dealii::TimerOutput::wall_times};

      const model::ContinuumBody &beam() const { return model_.continuum.bodies[layout_.beam]; }
      const model::ContinuumBody &rod() const { return model_.continuum.bodies[layout_.rod]; }

      // Mode and quasi-static values at a point on the beam or the rod (derivative d).
      double mode_value(const WaveMode &m, const model::BodyPoint &p, unsigned int d) const
      {
        return p.body == layout_.beam ? m.beam(p.x, d, d_.L) : m.rod(p.x, d);
      }
      double static_value(const StaticShape &s, const model::BodyPoint &p, unsigned int d) const
      {
        if (p.body == layout_.beam)
          return d == 0 ? s.c * (3 * d_.L * p.x * p.x - p.x * p.x * p.x) : s.c * (6 * d_.L * p.x - 3 * p.x * p.x);
        return d == 0 ? s.e * p.x : s.e;
      }

      void prepare(Basis &b) const
      {
        const auto N = static_cast<Eigen::Index>(b.modes.size());
        // Quasi-static shapes: per unit tip force, and from the gap (in contact: the tips tied
        // with y(L) = u(l) − side gap0).
        const double sg = layout_.side * layout_.gap0;
        if (b.contact)
          {
            const double den = 6 * d_.EI * d_.l + 2 * d_.EA * std::pow(d_.L, 3);
            b.per_force      = {d_.l / den, 2 * std::pow(d_.L, 3) / den};
            b.from_gap.c     = -d_.EA * sg / den;
            b.from_gap.e     = (2 * b.from_gap.c * std::pow(d_.L, 3) + sg) / d_.l;
          }
        else
          b.per_force = {1 / (6 * d_.EI), 0.0};
        b.force_norm2 = mass_product(d_, b.per_force, b.per_force);
        b.omega.resize(N), b.tip.resize(N), b.rod_end.resize(N), b.rod_strain.resize(N);
        b.force_product.resize(N), b.gap_product.resize(N);
        b.particular.setZero(N, static_cast<Eigen::Index>(force_.omega.size()));
        for (Eigen::Index i = 0; i < N; ++i)
          {
            const auto &m      = b.modes[i];
            b.omega[i]         = m.omega;
            b.tip[i]           = m.beam(d_.L, 0, d_.L);
            b.rod_end[i]       = m.rod(d_.l, 0);
            b.rod_strain[i]    = m.rod(d_.l, 1);
            b.force_product[i] = mass_product(d_, m, b.per_force);
            b.gap_product[i]   = mass_product(d_, m, b.from_gap);
            for (std::size_t k = 0; k < force_.omega.size(); ++k)
              {
                const double W = force_.omega[k];
                if (std::abs(m.omega - W) <= 1e-12 * m.omega)
                  throw integrators::NumericalFailure("wave modes: the tip force's frequency " + std::to_string(W) +
                                                      " rad/s resonates with a mode");
                b.particular(i, static_cast<Eigen::Index>(k)) =
                  b.force_product[i] * force_.amplitude[k] * W * W / (m.omega * m.omega - W * W);
              }
          }
        b.step_cos = (b.omega * settings_.time_step).array().cos();
        b.step_sin = (b.omega * settings_.time_step).array().sin();
        const auto P = static_cast<Eigen::Index>(model_.probes.size());
        b.probe_values.resize(P, N);
        b.probe_static_force.resize(P), b.probe_static_gap.resize(P);
        for (Eigen::Index p = 0; p < P; ++p)
          {
            const auto &point = model_.probes[p].point;
            for (Eigen::Index i = 0; i < N; ++i)
              b.probe_values(p, i) = mode_value(b.modes[i], point, 0);
            b.probe_static_force[p] = static_value(b.per_force, point, 0);
            b.probe_static_gap[p]   = static_value(b.from_gap, point, 0);
          }
        // The FE interpolation of the fields (values and slopes at the nodes), for frames.
        const auto n = model_.n_dofs();
        b.dof_values.setZero(n, N);
        b.dof_static_force.setZero(n), b.dof_static_gap.setZero(n);
        for (const int body : {layout_.beam, layout_.rod})
          {
            const auto &c = model_.continuum.bodies[body];
            for (unsigned int i = 0; i < c.n_dofs; ++i)
              {
                const auto             row = c.first_dof + i;
                const unsigned int     der = model_.dof_kinds[row] == model::DofKind::slope ? 1 : 0;
                const model::BodyPoint point{body, c.dof_coordinates[i]};
                for (Eigen::Index j = 0; j < N; ++j)
                  b.dof_values(row, j) = mode_value(b.modes[j], point, der);
                b.dof_static_force[row] = static_value(b.per_force, point, der);
                b.dof_static_gap[row]   = static_value(b.from_gap, point, der);
              }
          }
      }

      // q and q̇ on the sampling grid: cos ω(t − t0) and sin ω(t − t0) advanced by one rotation
      // per step (no trigonometry), evaluated afresh at a phase's start and every 256 steps so
      // that rounding does not accumulate.
      struct Sampler
      {
        unsigned long phase_id = ~0ul;
        double        t        = 0.0;
        unsigned int  steps    = 0;
        Vector        c, s;
      };
      void sample(Sampler &sp, const Phase &ph, unsigned long phase_id, const double t, Vector &q, Vector &qd) const
      {
        const Basis &b = *ph.basis;
        const bool   rotate =
          sp.phase_id == phase_id && sp.steps < 256 &&
          std::abs(t - sp.t - settings_.time_step) <= 1e-9 * settings_.time_step;
        const auto N = b.omega.size();
        sp.c.resize(N), sp.s.resize(N), q.resize(N), qd.resize(N);
        for (Eigen::Index i = 0; i < N; ++i)
          {
            double c, s;
            if (rotate)
              c = sp.c[i] * b.step_cos[i] - sp.s[i] * b.step_sin[i], s = sp.s[i] * b.step_cos[i] + sp.c[i] * b.step_sin[i];
            else
              c = std::cos(b.omega[i] * (t - ph.t0)), s = std::sin(b.omega[i] * (t - ph.t0));
            sp.c[i] = c, sp.s[i] = s;
            q[i]    = ph.alpha[i] * c + ph.beta[i] / b.omega[i] * s;
            qd[i]   = ph.beta[i] * c - ph.alpha[i] * b.omega[i] * s;
          }
        sp.steps    = rotate ? sp.steps + 1 : 0;
        sp.phase_id = phase_id;
        sp.t        = t;
        add_particular(b, t, q, qd);
      }
      void add_particular(const Basis &b, const double t, Vector &q, Vector &qd) const
      {
        for (std::size_t k = 0; k < force_.omega.size(); ++k)
          {
            const double x = force_.omega[k] * t + force_.phase[k];
            q += b.particular.col(static_cast<Eigen::Index>(k)) * std::sin(x);
            qd += b.particular.col(static_cast<Eigen::Index>(k)) * (force_.omega[k] * std::cos(x));
          }
      }
      double watched_from(const Phase &ph, const Vector &q, const double t) const
      {
        const double F = force_.value(t);
        return ph.basis->contact ? contact_force(ph, q, F) : gap(ph, q, F);
      }

      // q and q̇ of a phase at time t.
      void coordinates(const Phase &ph, const double t, Vector &q, Vector &qd) const
      {
        const Basis &b = *ph.basis;
        const auto   N = b.omega.size();
        q.resize(N), qd.resize(N);
        for (Eigen::Index i = 0; i < N; ++i)
          {
            const double w = b.omega[i], c = std::cos(w * (t - ph.t0)), s = std::sin(w * (t - ph.t0));
            q[i]           = ph.alpha[i] * c + ph.beta[i] / w * s;
            qd[i]          = -ph.alpha[i] * w * s + ph.beta[i] * c;
          }
        for (std::size_t k = 0; k < force_.omega.size(); ++k)
          {
            const double x = force_.omega[k] * t + force_.phase[k];
            q += b.particular.col(static_cast<Eigen::Index>(k)) * std::sin(x);
            qd += b.particular.col(static_cast<Eigen::Index>(k)) * (force_.omega[k] * std::cos(x));
          }
      }

      // ∫_{t0}^{t} q dt of a phase.
      Vector coordinate_integral(const Phase &ph, const double t) const
      {
        const Basis &b = *ph.basis;
        Vector       Q(b.omega.size());
        for (Eigen::Index i = 0; i < Q.size(); ++i)
          {
            const double w = b.omega[i], x = w * (t - ph.t0);
            Q[i]           = ph.alpha[i] * std::sin(x) / w + ph.beta[i] * (1 - std::cos(x)) / (w * w);
          }
        for (std::size_t k = 0; k < force_.omega.size(); ++k)
          {
            const double W = force_.omega[k], p = force_.phase[k];
            Q -= b.particular.col(static_cast<Eigen::Index>(k)) * ((std::cos(W * t + p) - std::cos(W * ph.t0 + p)) / W);
          }
        return Q;
      }

      // The gap (apart) from the series: g0 + side (y(L) − u(l)), and its rate.
      double gap(const Phase &ph, const Vector &q, double F) const
      {
        const Basis &b = *ph.basis;
        return layout_.gap0 +
               layout_.side * (F * b.per_force.c * 2 * std::pow(d_.L, 3) + b.tip.dot(q) - b.rod_end.dot(q));
      }
      double gap_rate(const Phase &ph, const Vector &qd, double Fd) const
      {
        const Basis &b = *ph.basis;
        return layout_.side * (Fd * b.per_force.c * 2 * std::pow(d_.L, 3) + b.tip.dot(qd) - b.rod_end.dot(qd));
      }
      // The contact force (in contact): P = −side EA u'(l) ≥ 0 pushes the tips apart.
      double contact_force(const Phase &ph, const Vector &q, double F) const
      {
        const Basis &b = *ph.basis;
        return -layout_.side * d_.EA * (F * b.per_force.e + b.from_gap.e + b.rod_strain.dot(q));
      }
      double contact_impulse(const Phase &ph, const double t) const
      {
        if (!ph.basis->contact)
          return 0.0;
        const Basis &b = *ph.basis;
        return -layout_.side * d_.EA *
               (force_.integral(ph.t0, t) * b.per_force.e + b.from_gap.e * (t - ph.t0) +
                b.rod_strain.dot(coordinate_integral(ph, t)));
      }
      // What the switch detector watches: the gap apart, the contact force in contact.
      double watched(const Phase &ph, const double t) const
      {
        Vector q, qd;
        coordinates(ph, t, q, qd);
        const double F = force_.value(t);
        return ph.basis->contact ? contact_force(ph, q, F) : gap(ph, q, F);
      }

      // Kinetic and potential energy of the fields w = F s_F + s_g + Σ φ q.
      std::pair<double, double> energy(const Phase &ph, const Vector &q, const Vector &qd, double t) const
      {
        const Basis &b = *ph.basis;
        const double F = force_.value(t), Fd = force_.rate(t);
        const double kinetic =
          0.5 * (Fd * Fd * b.force_norm2 + 2 * Fd * b.force_product.dot(qd) + qd.squaredNorm());
        const StaticShape statics{F * b.per_force.c + b.from_gap.c, F * b.per_force.e + b.from_gap.e};
        const double      potential = strain_energy(d_, statics) + F * b.tip.dot(q) +
                                 0.5 * (b.omega.array().square() * q.array().square()).sum();
        return {kinetic, potential};
      }

      double total_energy(const Phase &ph, const double t) const
      {
        Vector a, b;
        coordinates(ph, t, a, b);
        const auto [k, p] = energy(ph, a, b, t);
        return k + p;
      }

      // A phase on basis b starting at t0 with coordinates q, q̇.
      Phase start_phase(const Basis &b, const double t0, const Vector &q, const Vector &qd) const
      {
        Phase ph;
        ph.basis = &b;
        ph.t0    = t0;
        ph.alpha = q;
        ph.beta  = qd;
        for (std::size_t k = 0; k < force_.omega.size(); ++k) // minus the particular part at t0
          {
            const double x = force_.omega[k] * t0 + force_.phase[k];
            ph.alpha -= b.particular.col(static_cast<Eigen::Index>(k)) * std::sin(x);
            ph.beta -= b.particular.col(static_cast<Eigen::Index>(k)) * (force_.omega[k] * std::cos(x));
          }
        return ph;
      }

      // The mass products ⟨φ_m, w⟩ of a DoF field of the FE model with the modes of b: exact for
      // the piecewise-cubic (beam) and piecewise-polynomial (rod) FE fields.
      Vector project_dof_field(const Basis &b, const Vector &u) const
      {
        Vector result = Vector::Zero(static_cast<Eigen::Index>(b.modes.size()));
        for (const int body : {layout_.beam, layout_.rod})
          {
            const auto &c     = model_.continuum.bodies[body];
            const auto &nodes = c.element_boundaries;
            for (std::size_t e = 0; e + 1 < nodes.size(); ++e)
              {
                const double a = nodes[e], h = nodes[e + 1] - nodes[e];
                // The cubic through four equally spaced values, then its derivatives at the ends.
                Eigen::Matrix4d V;
                Eigen::Vector4d f;
                for (int j = 0; j < 4; ++j)
                  {
                    const double s = j * h / 3;
                    V.row(j) << 1, s, s * s, s * s * s;
                    f[j] = c.displacement_row(a + s).dot(u);
                  }
                const Eigen::Vector4d k = V.partialPivLu().solve(f);
                const double          fa[4] = {k[0], k[1], 2 * k[2], 6 * k[3]};
                const double fb[4] = {k[0] + h * (k[1] + h * (k[2] + h * k[3])), k[1] + h * (2 * k[2] + 3 * h * k[3]),
                                      2 * k[2] + 6 * h * k[3], 6 * k[3]};
                for (std::size_t m = 0; m < b.modes.size(); ++m)
                  result[static_cast<Eigen::Index>(m)] +=
                    body == layout_.beam ? beam_product_with_cubic(d_, b.modes[m], a, a + h, fa, fb) :
                                           rod_product_with_cubic(d_, b.modes[m], a, a + h, fa, fb);
              }
          }
        return result;
      }

      // The phase that the model's initial state starts on basis b.
      Phase initial_phase(const Basis &b) const
      {
        const double F = force_.value(0), Fd = force_.rate(0);
        const Vector q  = project_dof_field(b, model_.initial_displacement) - F * b.force_product - b.gap_product;
        const Vector qd = project_dof_field(b, model_.initial_velocity) - Fd * b.force_product;
        return start_phase(b, 0.0, q, qd);
      }

      // The state of phase `from` at t projected on the other basis.
      Phase switch_phase(const Phase &from, const double t) const
      {
        const Basis &old = *from.basis, &next = old.contact ? free_ : coupled_;
        Vector       q, qd;
        coordinates(from, t, q, qd);
        const double F = force_.value(t), Fd = force_.rate(t);
        // One pass over the projection matrix (memory bound at N = 2000) for both fields.
        const MatrixXd &G = old.contact ? free_coupled_ : coupled_free_;
        Vector          p = F * (next.other_force_product - next.force_product) + next.other_gap_product - next.gap_product;
        Vector          pd = Fd * (next.other_force_product - next.force_product);
        for (Eigen::Index j = 0; j < G.cols(); ++j)
          {
            p.noalias() += G.col(j) * q[j];
            pd.noalias() += G.col(j) * qd[j];
          }
        return start_phase(next, t, p, pd);
      }

      // The first time in (t_a, t_b] where the watched quantity crosses from positive to negative,
      // if any. `armed`: it has been positive since the phase began (a phase that starts at a
      // switch starts at zero and must first become positive).
      std::optional<double> crossing(const Phase &ph, double t_a, double f_a, const double t_b, const double f_b,
                                     bool &armed) const
      {
        if (armed && f_b >= 0)
          return std::nullopt;
        if (!armed)
          { // Scan the interval finer until the quantity is positive, then look for its crossing.
            // If it never is, the phase cannot hold (a gap that never opens after a separation,
            // a force that never builds after a contact: the truncated series is inconsistent at
            // the switch): it ends at the first scan point that shows it, so time moves on by
            // at least h/32 per such graze and two grazes cannot alternate at one instant.
            // 32 points to a full step; fewer for what is left of a step after a switch, so that
            // grazes cannot close in on the grid point in ever smaller steps; none when the switch
            // fell on the grid point itself (the next step is scanned instead).
            if (t_b - t_a <= 1e-9 * settings_.time_step)
              return std::nullopt;
            const int M = std::clamp(static_cast<int>(std::ceil(32 * (t_b - t_a) / settings_.time_step - 1e-9)), 1, 32);
            double    first_negative = -1.0;
            for (int j = 1; j <= M; ++j)
              {
                const double t = t_a + (t_b - t_a) * j / M, f = j == M ? f_b : watched(ph, t);
                if (armed && f < 0)
                  return locate(ph, t_a, f_a, t, f);
                if (f > 0)
                  armed = true;
                else if (f < 0 && !armed && first_negative < 0)
                  first_negative = t;
                t_a = t, f_a = f;
              }
            if (!armed && first_negative >= 0)
              return first_negative;
            return std::nullopt;
          }
        return locate(ph, t_a, f_a, t_b, f_b);
      }

      double locate(const Phase &ph, const double a, const double fa, const double b, const double fb) const
      {
        if (fa == 0.0)
          return a;
        std::uintmax_t iterations = 200;
        const double   tol        = settings_.switch_tolerance;
        const auto     stop       = [tol](double x, double y) {
          return std::abs(y - x) <= std::max(tol, 4 * std::numeric_limits<double>::epsilon() * std::abs(y));
        };
        const auto [lo, hi] = boost::math::tools::toms748_solve([&](double t) { return watched(ph, t); }, a, b, fa, fb,
                                                                stop, iterations);
        return 0.5 * (lo + hi);
      }

      const model::StructuralModel &model_;
      WaveModeSettings              settings_;
      Layout                        layout_;
      BeamRodData                   d_;
      TipForce                      force_;
      Basis                         free_, coupled_;
      MatrixXd                      coupled_free_, free_coupled_; // ⟨φ_coupled_i, φ_free_j⟩ and its transpose

      // The run: the current phase and its coordinates at the last sample.
      Phase         phase_;
      Vector        q_, qd_;
      bool          armed_ = false; // see crossing()
      Sampler       sampler_;
      unsigned long phase_id_ = 0;
      double        t_prev_ = 0.0, f_prev_ = 0.0; // the last sample and its watched quantity
      const double  h_;
      const unsigned long     n_steps_;
      integrators::OutputSchedule rows_, frames_;
      // The energy ledger of the switches.
      double        initial_energy_ = 0.0, final_energy_ = 0.0, largest_energy_ = 0.0;
      double        switch_loss_ = 0.0, largest_change_ = 0.0, largest_relative_change_ = 0.0;
      // Contact episodes and the impulse reported in rows.
      ContactEvent  pending_impact_;
      bool          initial_episode_ = false;
      double        closed_impulse_ = 0.0, impulse_at_row_ = 0.0, contact_time_ = 0.0;
      unsigned long switches_ = 0, grazes_ = 0;
      double        last_switch_time_ = -1.0;
      double        peak_force_ = 0.0, peak_force_time_ = 0.0;
      // What a row reports (one contact).
      Vector        row_gap_, row_force_, row_impulse_, row_probe_u_, row_probe_v_, row_u_, row_v_;
    };

    // The initial phase: apart when the gap is open; touching, in contact (it becomes apart at
    // once if the contact force does not build up). Its first row.
    void WaveModeRun::start()
    {
      summary_.solver = "wave-modes";
      phase_          = initial_phase(free_);
      coordinates(phase_, 0.0, q_, qd_);
      const double gap_scale = std::max({std::abs(layout_.gap0), model_.initial_displacement.cwiseAbs().maxCoeff(),
                                         std::numeric_limits<double>::min()});
      armed_ = gap(phase_, q_, force_.value(0)) > 1e-12 * gap_scale;
      if (!armed_)
        phase_ = initial_phase(coupled_);
      phase_.energy0  = total_energy(phase_, 0.0);
      initial_energy_ = phase_.energy0;
      final_energy_   = initial_energy_;

      // Each contact phase as the time steppers report a contact episode: an impact carrying the
      // episode's impulse (the force is finite: no impulse at an instant), a sticking start at
      // the same time (the contact persists), a separation where the force returns to zero.
      // They are sent when the episode ends, so the impact knows its impulse.
      pending_impact_.kind = ContactEvent::Kind::impact;
      pending_impact_.time = -1.0;
      if (phase_.basis->contact) // touching at t = 0: an episode without an impact
        pending_impact_.time = 0.0;
      initial_episode_ = phase_.basis->contact;

      sample(sampler_, phase_, phase_id_, 0.0, q_, qd_);
      record(0.0, control_.frame_interval > 0, true);
      t_prev_ = 0.0;
      f_prev_ = watched_from(phase_, q_, 0.0);
    }

    // Sample k: its switches, the peak contact force, its row if one is due.
    void WaveModeRun::advance(const unsigned long k)
    {
      const double t = std::min(k * h_, control_.final_time);
      sample(sampler_, phase_, phase_id_, t, q_, qd_);
      double f_next = watched_from(phase_, q_, t);
      while (const auto t_switch = crossing(phase_, t_prev_, f_prev_, t, f_next, armed_))
        {
          timer_.enter_subsection(section_switching);
          switch_phase_at(*t_switch, t, f_next);
          timer_.leave_subsection(section_switching);
        }
      t_prev_ = t, f_prev_ = f_next;
      if (phase_.basis->contact && f_next > peak_force_) // at every sample, whatever rows are kept
        peak_force_ = f_next, peak_force_time_ = t;
      const bool frame = control_.frame_interval > 0 && frames_.due(k);
      const bool row   = rows_.due(k) || frame || k == n_steps_;
      if (row)
        {
          final_energy_   = record(t, frame, k == n_steps_);
          largest_energy_ = std::max(largest_energy_, final_energy_);
        }
    }

    // The switch at ts (before the sample at t): the episode's events, the state projected on the
    // other basis, the energy the projection changed; the new phase sampled at t.
    void WaveModeRun::switch_phase_at(const double ts, const double t, double &f_next)
    {
      // Zeno guard: switches that keep coming at one instant are grazes going nowhere.
      grazes_ = ts - last_switch_time_ <= 4 * settings_.switch_tolerance ? grazes_ + 1 : 0;
      if (grazes_ > 8 || switches_ >= settings_.max_switches)
        throw integrators::NumericalFailure(
          "wave modes: " + std::string(grazes_ > 8 ? "switches without end" : "more switches than allowed (" +
                                                                                std::to_string(settings_.max_switches) + ")") +
          " at t = " + std::to_string(ts) + " s");
      last_switch_time_   = ts;
      const double before = total_energy(phase_, ts);
      Vector       qs, qds;
      coordinates(phase_, ts, qs, qds);
      const double work_before = phase_.work0 + before - phase_.energy0;
      if (phase_.basis->contact)
        {
          const double episode = contact_impulse(phase_, ts);
          closed_impulse_ += episode;
          contact_time_ += ts - phase_.t0;
          close_episode(ts, episode);
        }
      else
        {
          pending_impact_.time         = ts;
          pending_impact_.pre_velocity = gap_rate(phase_, qds, force_.rate(ts));
        }
      phase_              = switch_phase(phase_, ts);
      phase_.energy0      = total_energy(phase_, ts);
      phase_.work0        = force_.acts() ? work_before : 0.0;
      const double change = phase_.energy0 - before;
      switch_loss_ -= change;
      largest_change_ = std::max(largest_change_, std::abs(change));
      largest_relative_change_ =
        std::max(largest_relative_change_, std::abs(change) / std::max(before, std::numeric_limits<double>::min()));
      ++switches_;
      armed_  = false;
      t_prev_ = ts;
      f_prev_ = watched(phase_, ts);
      ++phase_id_;
      sample(sampler_, phase_, phase_id_, t, q_, qd_); // the new phase at the grid point
      f_next = watched_from(phase_, q_, t);
    }

    // The row at t from q_, qd_ (DoF vectors only for frames and where `dofs`); returns the energy.
    double WaveModeRun::record(const double t, const bool frame, const bool dofs)
    {
      const Basis &b = *phase_.basis;
      const double F = force_.value(t), Fd = force_.rate(t);
      row_gap_[0]    = b.contact ? 0.0 : gap(phase_, q_, F);
      row_force_[0]  = b.contact ? contact_force(phase_, q_, F) : 0.0;
      const double total_impulse = closed_impulse_ + contact_impulse(phase_, t);
      row_impulse_[0]            = total_impulse - impulse_at_row_;
      impulse_at_row_            = total_impulse;
      row_probe_u_ = b.probe_values * q_ + F * b.probe_static_force + b.probe_static_gap;
      row_probe_v_ = b.probe_values * qd_ + Fd * b.probe_static_force;
      ResponseSample s;
      s.time          = t;
      s.set_fields(&row_gap_, &row_probe_u_, &row_probe_v_);
      s.set_contacts(&row_impulse_, &row_force_);
      s.frame = frame;
      if (frame || dofs)
        {
          row_u_ = b.dof_values * q_ + F * b.dof_static_force + b.dof_static_gap;
          row_v_ = b.dof_values * qd_ + Fd * b.dof_static_force;
          s.u    = &row_u_;
          s.v    = &row_v_;
        }
      const auto [kinetic, potential] = energy(phase_, q_, qd_, t);
      s.energy.kinetic                = kinetic;
      s.energy.potential              = potential;
      const double work               = force_.acts() ? phase_.work0 + kinetic + potential - phase_.energy0 : 0.0;
      s.energy.external_work          = work;
      s.energy.impact_dissipation     = switch_loss_;
      s.energy.balance_error          = kinetic + potential - initial_energy_ - work + switch_loss_;
      report(s);
      return kinetic + potential;
    }

    // The end of a contact episode at `end` (< 0: still in contact at the final time) with the
    // impulse `episode`: its impact (unless it was touching at t = 0), sticking start, separation.
    void WaveModeRun::close_episode(const double end, const double episode)
    {
      if (!initial_episode_)
        {
          pending_impact_.impulse = episode;
          report(pending_impact_);
        }
      ContactEvent e;
      e.kind = ContactEvent::Kind::sticking_start;
      e.time = pending_impact_.time;
      report(e);
      if (end >= 0)
        {
          e.kind    = ContactEvent::Kind::separation;
          e.time    = end;
          e.impulse = episode;
          report(e);
        }
      pending_impact_.time = -1.0;
      initial_episode_     = false;
    }

    RunSummary WaveModeRun::summarise()
    {
      const auto seconds = [times = timer_.get_summary_data(dealii::TimerOutput::total_wall_time)](const char *section) {
        const auto found = times.find(section);
        return found == times.end() ? 0.0 : found->second;
      };
      summary_.steps          = n_steps_;
      summary_.sticking_time  = contact_time_;
      summary_.initial_energy = initial_energy_;
      summary_.final_energy   = final_energy_;
      const double work       = force_.acts() ? phase_.work0 + final_energy_ - phase_.energy0 : 0.0;
      summary_.balance_error  = final_energy_ - initial_energy_ - work + switch_loss_;
      // Relative to the largest energy the run held (a forced run may start at rest: E0 = 0).
      summary_.relative_balance_error =
        summary_.balance_error /
        std::max({std::abs(initial_energy_), largest_energy_, std::numeric_limits<double>::min()});
      summary_.wall_time = seconds(section_roots) + seconds(section_projections) + seconds(section_run);
      count("modes", double(settings_.n_modes));
      count("switches", double(switches_));
      count("contact time [s]", contact_time_);
      count("largest sampled contact force [N]", peak_force_);
      count("time of the largest contact force [s]", peak_force_time_);
      count("energy lost at switches [J]", switch_loss_);
      count("largest energy change at a switch [J]", largest_change_);
      count("largest relative energy change at a switch", largest_relative_change_);
      count("roots and shapes [s]", seconds(section_roots));
      count("projection matrix [s]", seconds(section_projections));
      count("switching [s]", seconds(section_switching));
      count("sampling [s]", seconds(section_run) - seconds(section_switching));
      if (largest_relative_change_ > 1e-3)
        {
          std::ostringstream w;
          w << "a switch changed the energy by " << largest_relative_change_
            << " of the energy before it (the projection on the other truncated basis: more modes reduce it)";
          summary_.warnings.push_back(w.str());
        }
      return summary_;
    }

    class WaveModeSolver : public integrators::SolverBase<WaveModeSolver, WaveModeSettings>
    {
    public:
      static constexpr integrators::SolverIdentity identity{
        "wave-modes",
        "transient wave-mode reference (Yin et al. 2007): a clamped-free beam tip on a fixed-free rod, solved on "
        "the continuum in coupled and free modes with closed-form time functions",
        "Wave modes"};

      void check(const model::StructuralModel &model, const RunControl &, const std::string &file) const override
      {
        inspect(model, file);
      }

      RunSummary run(const model::StructuralModel &model, const RunControl &control,
                     ResponseObserver &observer) const override
      {
        return WaveModeRun(model, settings_, inspect(model, ""), control, observer).run();
      }
    };

    const integrators::SolverRegistration<WaveModeSolver> wave_modes_solver_registration;
  } // namespace

} // namespace vibroimpact::reference
