// The solver interface's shared parts (see integrators/solver.h): the registry, run_to_history
// with its checks of every sample, and the load-bandwidth check.
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/progress_bar.h>

#include <chrono>
#include <cmath>
#include <sstream>
#include <map>
#include <stdexcept>

namespace vibroimpact::integrators
{
  namespace
  {
    // A function-local static: registrations run from static initialisers of other translation
    // units, in an order the language does not fix.
    std::map<std::string, SolverRegistry::Factory> &factories()
    {
      static std::map<std::string, SolverRegistry::Factory> map;
      return map;
    }

    std::string &default_solver()
    {
      static std::string name;
      return name;
    }

    // Stops a run at the first sample with a non-finite state or energy (whatever the solver):
    // a run never ends "successfully" with NaN in its results.
    class FiniteStateGuard : public ResponseObserver
    {
    public:
      void sample(const ResponseSample &s) override
      {
        const auto fail = [&](const std::string &what) {
          std::ostringstream message;
          message << "sample " << n_samples_ << " (t = " << s.time << "): non-finite " << what;
          throw NumericalFailure(message.str());
        };
        const auto check_vector = [&](const Vector *v, const std::string &what) {
          if (v)
            for (Eigen::Index i = 0; i < v->size(); ++i)
              if (!std::isfinite((*v)[i]))
                fail(what + " at DoF " + std::to_string(i) + " (" + std::to_string((*v)[i]) + ")");
        };
        check_vector(s.u, "displacement");
        check_vector(s.v, "velocity");
        check_vector(s.impulse, "contact impulse");
        check_vector(s.contact_force, "contact force");
        if (!std::isfinite(s.energy.kinetic))
          fail("kinetic energy");
        if (!std::isfinite(s.energy.potential))
          fail("potential energy");
        ++n_samples_;
      }
      void event(const ContactEvent &) override {}

    private:
      unsigned long n_samples_ = 0;
    };

    // Stops a run at the first sample after SIGINT/SIGTERM, once the history has it.
    class InterruptGuard : public ResponseObserver
    {
    public:
      void sample(const ResponseSample &s) override
      {
        last_time = s.time;
        io::throw_if_interrupted("");
      }
      double last_time = 0.0;
    };

    // Every solver's progress: its samples' times against the final time.
    class ProgressGuard : public ResponseObserver
    {
    public:
      ProgressGuard(const std::string &label, const RunControl &control)
        : bar_(label, control.final_time, control.quiet)
      {}
      void sample(const ResponseSample &s) override { bar_.update(s.time); }
      void finish() { bar_.finish(); }

    private:
      io::ProgressBar bar_;
    };
  } // namespace

  void Solver::check(const model::StructuralModel &, const RunControl &, const std::string &) const {}

  void check_elastic_contacts(const Solver &solver, const model::StructuralModel &model, const std::string &file)
  {
    if (solver.takes_elastic_contacts())
      return;
    for (const auto &contact : model.contacts)
      if (contact.elastic())
        throw io::InputError(file, "Contact " + contact.name + "/Stiffness",
                             "'" + solver.name() +
                               "' cannot take an elastic contact (a unilateral spring): use moreau-jean or "
                               "modal-penalty, or Stiffness = 0");
  }

  void check_spatial_supports(const Solver &solver, const model::StructuralModel &model, const std::string &file)
  {
    if (!model.spatial_supports.empty() && !solver.takes_spatial_supports())
      throw io::InputError(file, "Simulation/Solver",
                           "'" + solver.name() + "' cannot take spatial supports (Support " +
                             model.spatial_supports.front().name + "): use moreau-jean");
  }

  std::vector<std::string> SolverRegistry::names()
  {
    std::vector<std::string> out;
    for (const auto &entry : factories())
      out.push_back(entry.first);
    return out;
  }

  bool SolverRegistry::contains(const std::string &name)
  {
    return factories().count(name) > 0;
  }

  std::unique_ptr<Solver> SolverRegistry::create(const std::string &name)
  {
    const auto it = factories().find(name);
    if (it == factories().end())
      throw std::invalid_argument("no solver named '" + name + "'");
    return it->second();
  }

  void SolverRegistry::add(const std::string &name, Factory factory, const bool is_default)
  {
    if (!factories().emplace(name, std::move(factory)).second)
      throw std::logic_error("two solvers registered as '" + name + "'");
    if (is_default)
      default_solver() = name;
  }

  std::string SolverRegistry::default_name()
  {
    if (default_solver().empty())
      throw std::logic_error("no solver registered as the default");
    return default_solver();
  }

  void check_load_bandwidth(const model::StructuralModel &model, const double h, const std::string &file,
                            const std::string &step_entry)
  {
    const double nyquist = M_PI / h;
    for (const auto &load : model.loads)
      if (load.time.kind == model::TimeFunction::Kind::random && load.time.highest_frequency() > nyquist)
        {
          std::ostringstream reason;
          reason << "the random load reaches " << load.time.highest_frequency()
                 << " rad/s, above the Nyquist frequency pi/h = " << nyquist << " rad/s of " << step_entry << " = "
                 << h;
          throw io::InputError(file, "Load " + load.name + "/Band high", reason.str());
        }
  }

  ResponseHistory run_to_history(const Solver &solver, const model::StructuralModel &model, const RunControl &control,
                                 ResponseObserver *also, const bool keep_partial)
  {
    ResponseHistory history(model);
    record_run(history, solver, model, control, also, keep_partial);
    return history;
  }

  void record_run(ResponseHistory &history, const Solver &solver, const model::StructuralModel &model,
                  const RunControl &control, ResponseObserver *also, const bool keep_partial)
  {
    const auto       start = std::chrono::steady_clock::now();
    FiniteStateGuard finite;
    InterruptGuard   interrupt;
    ProgressGuard    progress(control.progress_label.empty() ? solver.name() : control.progress_label, control);
    ObserverList     observers;
    observers.add(finite);
    observers.add(history);
    if (also)
      observers.add(*also);
    observers.add(interrupt);
    observers.add(progress);
    try
      {
        history.summary = solver.run(model, control, observers);
        progress.finish();
      }
    catch (const io::Interrupted &e)
      {
        if (!keep_partial)
          throw;
        history.summary.interrupt_signal = e.signal();
        history.summary.interrupted_at   = interrupt.last_time;
        std::ostringstream warning;
        warning << "interrupted by signal " << e.signal() << " at t = " << interrupt.last_time << " of "
                << control.final_time << ": the results stop there";
        history.summary.warnings.push_back(warning.str());
      }
    history.summary.solver = solver.name();
    history.summary.wall_time =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
} // namespace vibroimpact::integrators
