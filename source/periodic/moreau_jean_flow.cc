// The Moreau–Jean period map (moreau_jean_flow.h): N steps of the time stepper, the events its
// impulses mark, and the Jacobian of the discrete map along the recorded active sets; linear
// modes, grazing and start orbits come from the event-driven map of the same model.
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/periodic/flow_map_registry.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/periodic/moreau_jean_flow.h>

#include <cmath>
#include <stdexcept>

namespace vibroimpact::periodic
{
  struct MoreauJeanFlow::Implementation
  {
    Implementation(const model::StructuralModel &m, const integrators::MoreauJeanSettings &s, unsigned int N)
      : model(m)
      , damped(m)
      , settings(s)
      , steps(N)
      , linear(m, LinearImpactFlowSettings{})
    {
      n = m.n_dofs();
      for (const auto &load : m.loads)
        if (load.time.kind == model::TimeFunction::Kind::harmonic)
          forcing_omega = load.time.omega;
    }

    const model::StructuralModel            &model;
    mutable model::StructuralModel           damped; // the model with α M added to C
    integrators::MoreauJeanSettings          settings;
    unsigned int                             steps; // 0: round(T / settings.time_step)
    LinearImpactFlow                         linear; // linear modes, grazing, start orbits
    Eigen::Index                             n = 0;
    double                                   forcing_omega = 0.0;

    const model::StructuralModel &model_with(double alpha) const
    {
      damped.damping = model.damping + alpha * model.mass;
      for (std::size_t k = 0; k < damped.loads.size(); ++k)
        if (damped.loads[k].time.kind == model::TimeFunction::Kind::harmonic)
          damped.loads[k].time.omega = forcing_omega;
      return damped;
    }

    Vector to_physical(const Vector &modal) const
    {
      const auto  &Phi = linear.projection().shapes();
      const auto   m   = Phi.cols();
      Vector       x(2 * n);
      x.head(n) = Phi * modal.head(m);
      x.tail(n) = Phi * modal.tail(m);
      return x;
    }

    struct Recorder
    {
      unsigned int        every = 0;
      std::vector<double> time;
      std::vector<Vector> u, v;

      void add(const integrators::State &state)
      {
        time.push_back(state.t);
        u.push_back(state.u);
        v.push_back(state.v);
      }
    };

    Vector vector_field(const Vector &x) const
    {
      return to_physical(linear.vector_field(linear.modal_state(x.head(n), x.tail(n))));
    }

    // The step h = T/N of a flow over `period`.
    double step_for(const double period) const
    {
      return period / (steps ? steps : std::max(1.0, std::round(period / settings.time_step)));
    }

    FlowResult run(const Vector &x0, double period, double alpha, bool with_jacobian, Recorder *recorder) const
    {
      auto s      = settings;
      s.time_step = step_for(period);
      const integrators::MoreauJean mj(model_with(alpha), s);
      integrators::State            state{x0.head(n), x0.tail(n), 0.0};
      FlowResult                    result;
      result.min_gap             = std::numeric_limits<double>::infinity();
      result.min_impact_velocity = std::numeric_limits<double>::infinity();
      Matrix dU, dV; // ∂(u, v)/∂x0
      if (with_jacobian)
        {
          dU = Matrix::Zero(n, 2 * n);
          dV = Matrix::Zero(n, 2 * n);
          dU.leftCols(n).setIdentity();
          dV.rightCols(n).setIdentity();
        }
      std::vector<unsigned int> episode(model.contacts.size(), 0); // consecutive steps with an impulse
      if (recorder)
        recorder->add(state);
      const unsigned int       n_steps = static_cast<unsigned int>(std::llround(period / s.time_step));
      const io::InterruptCheck interrupted; // a step at most between checks
      for (unsigned int k = 0; k < n_steps; ++k)
        {
          interrupted("during a period-map evaluation");
          const integrators::State before = state;
          const auto               report = mj.step(state);
          if (report.lcp_failed)
            throw std::runtime_error("LCP failed at step " + std::to_string(k) + ": " + report.lcp_message);
          note_contacts(report, before.t, episode, result);
          if (recorder && (k + 1) % recorder->every == 0)
            recorder->add(state);
          if (!with_jacobian)
            continue;
          if (report.corrected)
            differentiate_by_differences(mj, before, s.time_step, dU, dV);
          else
            {
              std::vector<unsigned int> active;
              for (const unsigned int i : report.active)
                if (report.impulse[i] > 0)
                  active.push_back(i);
              mj.tangent_step(dU, dV, before, active);
            }
        }
      finish(result, state, dU, dV, x0, period, alpha, with_jacobian);
      return result;
    }

    // The step's impulses as events: an episode of consecutive steps with an impulse starts
    // with an impact, sticks from its second step, and separates when the impulse ends.
    static void note_contacts(const integrators::StepReport &report, const double t,
                              std::vector<unsigned int> &episode, FlowResult &result)
    {
      for (std::size_t i = 0; i < episode.size(); ++i)
        {
          result.min_gap = std::min(result.min_gap, report.gap[i]);
          if (report.impulse[i] > 0)
            {
              if (episode[i] == 0)
                {
                  result.events.push_back({ContactEvent::Kind::impact, t, unsigned(i), report.velocity_before[i]});
                  result.min_impact_velocity = std::min(result.min_impact_velocity, std::abs(report.velocity_before[i]));
                }
              else if (episode[i] == 1)
                result.events.push_back({ContactEvent::Kind::sticking_start, t, unsigned(i), 0.0});
              ++episode[i];
            }
          else
            {
              if (episode[i] > 1)
                result.events.push_back({ContactEvent::Kind::separation, t, unsigned(i), 0.0});
              episode[i] = 0;
            }
        }
    }

    // The energy correction's β depends on the state through its quadratic: a corrected step is
    // differentiated by central differences (its active set held by the LCP).
    void differentiate_by_differences(const integrators::MoreauJean &mj, const integrators::State &before,
                                      const double h, Matrix &dU, Matrix &dV) const
    {
      const double eps = 1e-7 * std::max(1e-300, std::max(before.u.lpNorm<Eigen::Infinity>(),
                                                            h * before.v.lpNorm<Eigen::Infinity>()));
      Matrix step_jacobian(2 * n, 2 * n);
      for (Eigen::Index j = 0; j < 2 * n; ++j)
        {
          const double d  = j < n ? eps : eps / h;
          auto         xp = before, xm = before;
          (j < n ? xp.u[j] : xp.v[j - n]) += d;
          (j < n ? xm.u[j] : xm.v[j - n]) -= d;
          mj.step(xp);
          mj.step(xm);
          step_jacobian.col(j) << (xp.u - xm.u) / (2 * d), (xp.v - xm.v) / (2 * d);
        }
      Matrix X(2 * n, 2 * n);
      X << dU, dV;
      X  = step_jacobian * X;
      dU = X.topRows(n);
      dV = X.bottomRows(n);
    }

    // The end state, the summary and, with the Jacobian, ∂/∂T and ∂/∂α.
    void finish(FlowResult &result, const integrators::State &state, const Matrix &dU, const Matrix &dV,
                const Vector &x0, const double period, const double alpha, const bool with_jacobian) const
    {
      result.x.resize(2 * n);
      result.x << state.u, state.v;
      result.max_penetration = std::max(0.0, -result.min_gap);
      if (result.min_impact_velocity == std::numeric_limits<double>::infinity())
        result.min_impact_velocity = 0.0;
      result.evaluations = 1;
      if (!with_jacobian)
        return;
      result.jacobian.resize(2 * n, 2 * n);
      result.jacobian << dU, dV;
      // T enters every step through h: a difference in T would move impacts across steps (the
      // discrete map jumps there), so ∂x(T)/∂T is taken as the vector field at x(T), its
      // continuous-time value (the discrete one differs by O(h²)). α enters smoothly through W:
      // central differences.
      result.d_period    = vector_field(result.x);
      const double da    = 1e-6 * 2 * M_PI / period;
      result.d_unfolding = (run(x0, period, alpha + da, false, nullptr).x -
                            run(x0, period, alpha - da, false, nullptr).x) / (2 * da);
      result.evaluations += 2;
    }
  };

  MoreauJeanFlow::MoreauJeanFlow(const model::StructuralModel &model, const integrators::MoreauJeanSettings &settings,
                                 const unsigned int steps_per_period)
    : impl_(std::make_unique<Implementation>(model, settings, steps_per_period))
  {}

  MoreauJeanFlow::~MoreauJeanFlow() = default;

  Eigen::Index MoreauJeanFlow::dimension() const { return 2 * impl_->n; }

  FlowResult MoreauJeanFlow::flow(const Vector &x0, const double period, const double alpha, const bool jacobian) const
  {
    return impl_->run(x0, period, alpha, jacobian, nullptr);
  }

  Vector MoreauJeanFlow::vector_field(const Vector &x) const
  {
    return impl_->vector_field(x);
  }

  double MoreauJeanFlow::energy(const Vector &x) const
  {
    const auto &I = *impl_;
    return I.model.kinetic_energy(x.tail(I.n)) + I.model.potential_energy(x.head(I.n));
  }

  OrbitSamples MoreauJeanFlow::sample(const Vector &x0, const double period, const unsigned int n_samples) const
  {
    const auto                &I = *impl_;
    Implementation::Recorder   recorder;
    const unsigned int steps = I.steps ? I.steps : unsigned(std::max(1.0, std::round(period / I.settings.time_step)));
    recorder.every = std::max(1u, steps / n_samples);
    const auto   result = I.run(x0, period, 0.0, false, &recorder);
    OrbitSamples samples;
    samples.time         = recorder.time;
    samples.displacement = recorder.u;
    samples.velocity     = recorder.v;
    samples.events       = result.events;
    return samples;
  }

  Vector MoreauJeanFlow::linear_mode_state(const unsigned int mode, const double energy) const
  {
    return impl_->to_physical(impl_->linear.linear_mode_state(mode, energy));
  }

  double MoreauJeanFlow::linear_period(const unsigned int mode) const { return impl_->linear.linear_period(mode); }

  double MoreauJeanFlow::grazing_energy(const unsigned int mode) const { return impl_->linear.grazing_energy(mode); }

  std::optional<std::pair<Vector, double>> MoreauJeanFlow::one_impact_orbit(const unsigned int mode,
                                                                            const double energy,
                                                                            const unsigned int cycles) const
  {
    auto orbit = impl_->linear.one_impact_orbit(mode, energy, cycles);
    if (orbit)
      orbit->first = impl_->to_physical(orbit->first);
    return orbit;
  }

  Vector MoreauJeanFlow::initial_state() const
  {
    const auto state = integrators::MoreauJean(impl_->model_with(0.0), impl_->settings).initial_state();
    Vector     x(2 * impl_->n);
    x << state.u, state.v;
    return x;
  }

  std::optional<std::pair<Vector, double>> MoreauJeanFlow::simulated_orbit(const double time, const Vector &x0) const
  {
    const auto                   &I = *impl_;
    const integrators::MoreauJean stepper(I.model_with(0.0), I.settings);
    const auto start_state = [&] {
      auto state = stepper.initial_state();
      if (x0.size() == 2 * I.n)
        state.u = x0.head(I.n), state.v = x0.tail(I.n);
      return state;
    };
    auto state = start_state();
    // The step at which each contact episode (consecutive steps with an impulse) begins.
    std::vector<unsigned long> starts;
    std::vector<bool>          in(I.model.contacts.size(), false);
    const auto                 n_steps = static_cast<unsigned long>(std::llround(time / I.settings.time_step));
    const io::InterruptCheck   interrupted;
    for (unsigned long k = 0; k < n_steps; ++k)
      {
        interrupted("during the simulation of a start orbit");
        const auto report = stepper.step(state);
        for (std::size_t i = 0; i < in.size(); ++i)
          {
            const bool now = report.impulse[i] > 0;
            if (now && !in[i])
              starts.push_back(k);
            in[i] = now;
          }
      }
    // The shortest p such that the last 3p gaps between impacts repeat with period p (to a step).
    const auto n = starts.size();
    for (std::size_t p = 1; 3 * p + 1 <= n; ++p)
      {
        bool periodic = true;
        for (std::size_t j = n - 2 * p; j < n && periodic; ++j)
          {
            const long gap_now = long(starts[j]) - long(starts[j - 1]), gap_before = long(starts[j - p]) - long(starts[j - p - 1]);
            periodic = std::abs(gap_now - gap_before) <= 1;
          }
        if (!periodic)
          continue;
        const unsigned long period_steps = starts[n - 1] - starts[n - 1 - p];
        // Replay to half-way through the last period: away from its impacts.
        auto replay = start_state();
        for (unsigned long k = 0; k < starts[n - 1 - p] + period_steps / 2; ++k)
          {
            interrupted("during the simulation of a start orbit");
            stepper.advance(replay, 1);
          }
        Vector x(2 * I.n);
        x << replay.u, replay.v;
        return std::make_pair(x, period_steps * I.settings.time_step);
      }
    return std::nullopt;
  }

  void MoreauJeanFlow::set_steps_per_period(const unsigned int steps) { impl_->steps = steps; }

  bool MoreauJeanFlow::forced() const { return impl_->forcing_omega > 0; }

  void MoreauJeanFlow::set_forcing_frequency(const double omega) { impl_->forcing_omega = omega; }

  double MoreauJeanFlow::forcing_frequency() const { return impl_->forcing_omega; }

  namespace
  {
    // Continuation/Flow map = moreau-jean: the Moreau-Jean subsection's scheme, Steps per period.
    const FlowMapRegistration moreau_jean{
      "moreau-jean", "Steps per period Moreau–Jean steps of the model (any model, the seed's method)",
      [](const FlowMapInput &in) -> std::unique_ptr<PeriodicFlowMap> {
        return std::make_unique<MoreauJeanFlow>(in.model, in.moreau_jean, in.continuation.steps_per_period);
      }};
  } // namespace
} // namespace vibroimpact::periodic
