// The one interface of every time-domain solver, and the registry that maps names to them.
//
// A solver has a name (the value of Simulation/Solver in a case file), a one-line description,
// its own subsection of parameters (bound through io::ParameterSection: declared, documented and
// read by the same function), and run(model, control, observer), which integrates the model from
// its initial state to control.final_time and reports samples and contact events to the
// observer. Adding a solver is one source folder whose .cc registers it:
//
//   namespace { const integrators::SolverRegistration<MySolver> registration; }
//
// (ASPECT's plugin registration is the model); `simulate`, `compare`, `sweep`, `converge` and
// `parameters` then find it by name, with no other file changed.
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/model/structural_model.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

namespace vibroimpact::io
{
  class ParameterSection;
}

namespace vibroimpact::integrators
{
  // What every run is asked, whatever the solver (the "Simulation" subsection; Lethe's
  // SimulationControl is the model).
  struct RunControl
  {
    double final_time      = 1.0;
    double output_interval = 0.0; // time between history rows; 0: every step (time steppers),
                                  // final time / 1000 (event-driven solvers)
    double frame_interval  = 0.0; // time between VTK frames (each also a history row); 0: none
    bool   quiet           = true; // no progress bar drawn (a host's progress sink still follows it)
    std::string progress_label;    // what the bar says the run is (a verb); empty: the solver's name
  };

  class Solver
  {
  public:
    virtual ~Solver() = default;

    virtual std::string name() const        = 0;
    virtual std::string description() const = 0;
    // The subsection of the case file that holds the solver's parameters.
    virtual std::string parameter_section() const = 0;
    // Declares or reads the parameters into the solver's settings (see io::ParameterSection).
    virtual void bind_parameters(io::ParameterSection &section) = 0;

    // Checks the settings against the model they will run on; throws io::InputError naming
    // `file` and "<section>/<Entry>" when the model cannot be run (too few DoFs for the modes, a
    // structure the method cannot represent, ...).
    virtual void check(const model::StructuralModel &model, const RunControl &control, const std::string &file) const;

    // Whether the solver handles the model's spatial supports (model::SpatialSupport: tubes in
    // space, friction). The default is no: check_spatial_supports refuses such a model for it.
    virtual bool takes_spatial_supports() const { return false; }
    // Whether the solver handles elastic contacts (model::Contact::stiffness > 0: unilateral
    // springs). The default is no: check_elastic_contacts refuses such a model for it.
    virtual bool takes_elastic_contacts() const { return false; }

    // From the model's initial state to control.final_time. The observer receives a sample at
    // t = 0, at every output time and at the final time, and every contact event. Returns what
    // the run did. Throws std::runtime_error (a NumericalFailure) when it cannot go on.
    virtual RunSummary run(const model::StructuralModel &model, const RunControl &control,
                           ResponseObserver &observer) const = 0;

    virtual std::unique_ptr<Solver> clone() const = 0;

    // Discretisation parameters a convergence study refines: the time step of a time stepper,
    // the number of modes of a modal method. Empty where the solver has none.
    virtual std::optional<double>       time_step() const { return std::nullopt; }
    virtual void                        set_time_step(double) {}
    virtual std::optional<unsigned int> number_of_modes() const { return std::nullopt; }
    virtual void                        set_number_of_modes(unsigned int) {}

    // The settings struct, when it is of type `type` (else null): see settings_of.
    virtual const void *settings_data(const std::type_info &) const { return nullptr; }
  };

  // A solver's settings by their type, for code that borrows another solver's subsection (the
  // period maps read the Moreau-Jean one) without knowing the solver's class: null when the
  // solver's settings are of another type.
  template <typename Settings>
  const Settings *settings_of(const Solver &solver)
  {
    return static_cast<const Settings *>(solver.settings_data(typeid(Settings)));
  }

  // A run into a ResponseHistory (rows, events and the summary). Every sample is checked: a
  // non-finite state or energy throws NumericalFailure. On SIGINT/SIGTERM (io/interrupt.h) the
  // run stops at its next sample: with keep_partial, the history so far is returned with
  // summary.interrupt_signal set; otherwise io::Interrupted is thrown.
  ResponseHistory run_to_history(const Solver &solver, const model::StructuralModel &model,
                                 const RunControl &control, ResponseObserver *also = nullptr,
                                 bool keep_partial = false);
  // The same into a history made by the caller (its sinks added, its rows kept or not).
  void record_run(ResponseHistory &history, const Solver &solver, const model::StructuralModel &model,
                  const RunControl &control, ResponseObserver *also = nullptr, bool keep_partial = false);

  // The one refusal of spatial supports by a solver that does not declare them (Solver::
  // takes_spatial_supports): io::InputError naming Simulation/Solver, called by check_run before
  // the solver's own check, so every verb refuses the same model in one line.
  void check_spatial_supports(const Solver &solver, const model::StructuralModel &model, const std::string &file);
  // The same for elastic contacts (Solver::takes_elastic_contacts): io::InputError naming
  // "Contact <name>/Stiffness" of the first elastic contact.
  void check_elastic_contacts(const Solver &solver, const model::StructuralModel &model, const std::string &file);

  // Throws io::InputError naming "Load <name>/Band high" when a random load has lines above the
  // Nyquist frequency π/h of a solver's time step (`step_entry`, e.g. "Moreau-Jean/Time step"):
  // a step cannot represent them, and the load it sees would alias.
  void check_load_bandwidth(const model::StructuralModel &model, double time_step, const std::string &file,
                            const std::string &step_entry);

  class SolverRegistry
  {
  public:
    using Factory = std::function<std::unique_ptr<Solver>()>;

    // Registered names, in alphabetical order.
    static std::vector<std::string> names();
    // A new solver with its default settings; throws std::invalid_argument for an unknown name.
    static std::unique_ptr<Solver> create(const std::string &name);
    static bool                    contains(const std::string &name);
    // `is_default`: the solver Simulation/Solver names when a case does not (one says so).
    static void add(const std::string &name, Factory factory, bool is_default = false);
    // The solver registered as the default (std::logic_error if none).
    static std::string default_name();
  };

  // Registers Solver type T under T().name() when the library (or program) that holds it loads;
  // `is_default`: see SolverRegistry::add.
  template <typename T>
  struct SolverRegistration
  {
    explicit SolverRegistration(const bool is_default = false)
    {
      SolverRegistry::add(T().name(), [] { return std::make_unique<T>(); }, is_default);
    }
  };

  // A failure a solver cannot recover from (every LCP solver failed, W singular, a Zeno loop).
  class NumericalFailure : public std::runtime_error
  {
  public:
    using std::runtime_error::runtime_error;
  };
} // namespace vibroimpact::integrators
