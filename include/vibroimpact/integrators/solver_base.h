// The shared base of every registered solver, so that a new solver writes only its physics
// (ASPECT's plugin and SimulatorAccess are the model):
//
// - SolverBase<MySolver, MySettings>: the adapter to the SolverRegistry. It keeps the settings,
//   clones, binds them (`bind_settings(section, MySettings &)`, found beside MySettings), gives
//   the solver's name, description and section from its `static constexpr SolverIdentity
//   identity`, and exposes the discretisation knobs (time_step, number_of_modes) where the
//   settings have them; the solver adds its check and run.
// - IntegratorSolverBase<MySolver, MySettings, MyIntegrator>: the same for a solver whose run is
//   an integrator object made of the model and the settings; the solver writes only its check.
// - SolverRun: what every run shares: the run control, the observer, the summary (impacts
//   counted as they are reported, the solver's own counters by name).
// - OutputSchedule: which steps of a fixed-step run are due for a history row or a frame.
// - check_fixed_time_step: the checks of a step h against the final time.
#pragma once

#include <vibroimpact/integrators/solver.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace vibroimpact::integrators
{
  namespace detail
  {
    template <typename Settings, typename = void>
    struct has_time_step : std::false_type
    {};
    template <typename Settings>
    struct has_time_step<Settings, std::void_t<decltype(std::declval<Settings &>().time_step)>> : std::true_type
    {};
    template <typename Settings, typename = void>
    struct has_n_modes : std::false_type
    {};
    template <typename Settings>
    struct has_n_modes<Settings, std::void_t<decltype(std::declval<Settings &>().n_modes)>> : std::true_type
    {};
  } // namespace detail

  // What users call a solver and where its parameters are: its name in the registry (Simulation/
  // Solver), its one-line description (`vibroimpact parameters`) and its case-file subsection.
  struct SolverIdentity
  {
    const char *name;
    const char *description;
    const char *parameter_section;
  };

  // The registry adapter of a solver `Derived` whose parameters are a `Settings` struct: a
  // `time_step` member of the settings is what a time-step convergence study refines, an
  // `n_modes` member what a mode study refines.
  template <typename Derived, typename Settings>
  class SolverBase : public Solver
  {
  public:
    SolverBase() = default;
    explicit SolverBase(const Settings &settings)
      : settings_(settings)
    {}

    const Settings &settings() const { return settings_; }

    std::string name() const override { return Derived::identity.name; }
    std::string description() const override { return Derived::identity.description; }
    std::string parameter_section() const override { return Derived::identity.parameter_section; }
    void        bind_parameters(io::ParameterSection &section) override { bind_settings(section, settings_); }

    std::unique_ptr<Solver> clone() const override
    {
      return std::make_unique<Derived>(static_cast<const Derived &>(*this));
    }

    std::optional<double> time_step() const override
    {
      if constexpr (detail::has_time_step<Settings>::value)
        return settings_.time_step;
      else
        return std::nullopt;
    }
    void set_time_step([[maybe_unused]] const double h) override
    {
      if constexpr (detail::has_time_step<Settings>::value)
        settings_.time_step = h;
    }
    std::optional<unsigned int> number_of_modes() const override
    {
      if constexpr (detail::has_n_modes<Settings>::value)
        return settings_.n_modes;
      else
        return std::nullopt;
    }
    void set_number_of_modes([[maybe_unused]] const unsigned int n) override
    {
      if constexpr (detail::has_n_modes<Settings>::value)
        settings_.n_modes = n;
    }

    const void *settings_data(const std::type_info &type) const override
    {
      return type == typeid(Settings) ? &settings_ : nullptr;
    }

  protected:
    Settings settings_;
  };

  // The adapter of a solver whose run is an `Integrator` made of the model and the settings,
  // `Integrator(model, settings).run(control, observer)` (the modal solvers): the solver adds its
  // check.
  template <typename Derived, typename Settings, typename Integrator>
  class IntegratorSolverBase : public SolverBase<Derived, Settings>
  {
  public:
    RunSummary run(const model::StructuralModel &model, const RunControl &control,
                   ResponseObserver &observer) const override
    {
      return Integrator(model, this->settings_).run(control, observer);
    }
  };

  // What every run of a solver shares; a solver's run object derives from it, keeps its own
  // state as members and writes its run() as named stages.
  class SolverRun
  {
  protected:
    // `step_name`: what the summary's step count counts ("steps", "ODE steps", "samples").
    SolverRun(const RunControl &control, ResponseObserver &observer, const std::string &step_name)
      : control_(control)
      , observer_(observer)
    {
      summary_.step_name = step_name;
    }

    // A row (or frame) of the history.
    void report(const ResponseSample &sample) { observer_.sample(sample); }
    // A contact event; an impact also counts in the summary.
    void report(const ContactEvent &event)
    {
      observer_.event(event);
      if (event.kind == ContactEvent::Kind::impact)
        ++summary_.impacts;
    }
    // One of the solver's own counts, printed in the summary in the order given.
    void count(const std::string &name, const double value) { summary_.counters.emplace_back(name, value); }

    const RunControl &control_;
    ResponseObserver &observer_;
    RunSummary        summary_;
  };

  // Whether step k (t = k h) of a fixed-step run is due for a row of period `interval` (0: every
  // step): the first step at or after each multiple of the interval.
  struct OutputSchedule
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

  // Throws io::InputError when a fixed step h cannot run to control.final_time: a random load
  // above its Nyquist frequency, h longer than the final time, more steps than a run may take, a
  // final time that is not a whole number of steps. `section`: the solver's subsection, whose
  // "Time step" entry the messages name.
  void check_fixed_time_step(double h, const model::StructuralModel &model, const RunControl &control,
                             const std::string &file, const std::string &section);

  // More steps than this would not end in any useful time: bad input, said before a run starts.
  constexpr double max_fixed_steps = 1e10;
} // namespace vibroimpact::integrators
