#include <vibroimpact/integrators/modal_time_stepping.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace vibroimpact::integrators
{
  namespace
  {
    // A run of more steps than this would not end in any useful time: bad input, said before it starts.
    constexpr double max_steps = 1e10;
  } // namespace

  void bind_modal_stepping_parameters(io::ParameterSection &section, ModalSteppingSettings &s)
  {
    section.add("Number of modes", s.n_modes, 0, std::numeric_limits<unsigned int>::max(),
                "N: unconstrained modes of the structural model kept (Antunes et al. use 48); 0: every mode.");
    section.add("Mode shapes", s.mode_source,
                io::Choices<ModeSource>{{"finite element", ModeSource::finite_element}, {"exact", ModeSource::exact}},
                "finite element: the eigenmodes of the model's M and K; exact: the closed-form modes where the "
                "structure has them (a lone pinned-pinned beam: sqrt(2/(rho A L)) sin(j pi x/L)).");
    section.add("Damping ratios", s.damping_ratios, io::in_range(0, 1),
                "zeta_1, zeta_2, ...; the last repeats; empty: undamped (the model's C is not used).");
    io::Bounds step = io::positive();
    section.add("Time step", s.time_step, step,
                "h of the velocity-Verlet scheme (the paper: 1e-6 s); must divide Simulation/Final time.");
  }

  void check_modal_stepping(const ModalSteppingSettings &s, const model::StructuralModel &model,
                            const RunControl &control, const std::string &file, const std::string &section)
  {
    const std::string at = section + "/";
    if (s.n_modes > model.n_dofs())
      throw io::InputError(file, at + "Number of modes",
                           "the model has only " + std::to_string(model.n_dofs()) + " DoFs, asked for " +
                             std::to_string(s.n_modes) + " modes");
    if (s.mode_source == ModeSource::exact && !model.exact_modes.available())
      throw io::InputError(file, at + "Mode shapes",
                           "'exact' needs a structure with closed-form modes (one uniform beam pinned at both "
                           "ends, with no masses, springs or dampers attached)");
    const double h = s.time_step, T = control.final_time, steps = T / h;
    check_load_bandwidth(model, h, file, at + "Time step");
    std::ostringstream reason;
    if (h > T)
      {
        reason << "h = " << h << " is longer than Simulation/Final time = " << T;
        throw io::InputError(file, at + "Time step", reason.str());
      }
    if (steps > max_steps)
      {
        reason << T << " / h = " << steps << " steps, more than the " << max_steps << " a run may take";
        throw io::InputError(file, "Simulation/Final time", reason.str());
      }
    if (std::abs(steps - std::round(steps)) > 1e-6 * std::max(1.0, steps))
      {
        reason << "the final time " << T << " is not a whole number of steps of h = " << h << " (T/h = " << steps
               << ")";
        throw io::InputError(file, at + "Time step", reason.str());
      }
  }

  unsigned long modal_step_count(const double time_step, const double final_time)
  {
    return static_cast<unsigned long>(std::llround(final_time / time_step));
  }
} // namespace vibroimpact::integrators
