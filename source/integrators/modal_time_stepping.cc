// The settings, checks and step count the fixed-step modal solvers share (modal_time_stepping.h).
#include <vibroimpact/integrators/modal_time_stepping.h>
#include <vibroimpact/integrators/solver_base.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>

#include <cmath>
#include <limits>

namespace vibroimpact::integrators
{
  void bind_modal_basis(io::ParameterSection &section, unsigned int &n_modes, ModeSource &mode_source,
                        std::vector<double> &damping_ratios, const std::string &n_modes_text, const std::string &prefix)
  {
    section.add("Number of modes", n_modes, 0, std::numeric_limits<unsigned int>::max(),
                prefix + n_modes_text + "; 0: every mode of the model.");
    section.add("Mode shapes", mode_source,
                io::Choices<ModeSource>{{"finite element", ModeSource::finite_element}, {"exact", ModeSource::exact}},
                prefix + "finite element: the eigenmodes of the model's M and K; exact: the closed-form modes where the "
                         "structure has them (a lone pinned-pinned beam: sqrt(2/(rho A L)) sin(j pi x/L), "
                         "omega_j = (j pi/L)^2 sqrt(EI/rho A)); the mesh then only projects the initial state, loads "
                         "and probes.");
    section.add("Damping ratios", damping_ratios, io::in_range(0, 1),
                prefix + "zeta_1, zeta_2, ...; the last repeats; empty: undamped (the model's C is not used).");
  }

  void bind_modal_stepping_parameters(io::ParameterSection &section, ModalSteppingSettings &s)
  {
    bind_modal_basis(section, s.n_modes, s.mode_source, s.damping_ratios,
                     "N: unconstrained modes of the structural model kept (Antunes et al. use 48)");
    io::Bounds step = io::positive();
    section.add("Time step", s.time_step, step,
                "h of the velocity-Verlet scheme (the paper: 1e-6 s); must divide Simulation/Final time.");
  }

  void check_mode_settings(const unsigned int n_modes, const ModeSource mode_source, const model::StructuralModel &model,
                           const std::string &file, const std::string &section)
  {
    const std::string at = section + "/";
    if (n_modes > model.n_dofs())
      throw io::InputError(file, at + "Number of modes",
                           "the model has only " + std::to_string(model.n_dofs()) + " DoFs, asked for " +
                             std::to_string(n_modes) + " modes");
    if (mode_source == ModeSource::exact && !model.exact_modes.available())
      throw io::InputError(file, at + "Mode shapes",
                           "'exact' needs a structure with closed-form modes (one uniform beam pinned at both "
                           "ends, with no masses, springs or dampers attached)");
  }

  void check_modal_stepping(const ModalSteppingSettings &s, const model::StructuralModel &model,
                            const RunControl &control, const std::string &file, const std::string &section)
  {
    check_mode_settings(s.n_modes, s.mode_source, model, file, section);
    check_fixed_time_step(s.time_step, model, control, file, section);
  }

  unsigned long modal_step_count(const double time_step, const double final_time)
  {
    return static_cast<unsigned long>(std::llround(final_time / time_step));
  }
} // namespace vibroimpact::integrators
