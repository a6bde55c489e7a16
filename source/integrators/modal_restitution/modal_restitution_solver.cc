// The modal CoR reference as a registered solver ("modal-cor") and its "Modal restitution"
// parameters.
#include <vibroimpact/integrators/modal_restitution.h>
#include <vibroimpact/integrators/modal_time_stepping.h>
#include <vibroimpact/integrators/solver_base.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace vibroimpact::integrators
{
  void bind_settings(io::ParameterSection &section, ModalRestitutionSettings &s)
  {
    bind_modal_basis(section, s.n_modes, s.mode_source, s.damping_ratios,
                     "N: modes of the structural model kept (Vyasarayani et al. use 4)");
    section.add("Restitution", s.restitution, io::in_range(0, 1),
                "R per contact, in the order of the file; empty: each contact's Restitution.");
    section.add("Chatter threshold", s.epsilon, io::non_negative(),
                "epsilon: an impact within epsilon of the previous one of the same contact starts sticking.");
    // Above 1e-2 the error control no longer controls anything (the fuzz test ran 1e308); below
    // 1e-14 it asks for less than round-off, and the steps shrink without end (1e-300 ran away).
    const io::Bounds tolerance = io::in_range(1e-14, 1e-2);
    section.add("Tolerance", s.absolute_tolerance, tolerance, "Absolute and relative tolerance of Dormand–Prince.");
    s.relative_tolerance = s.absolute_tolerance;
  }

  namespace
  {
    class ModalRestitutionSolver
      : public IntegratorSolverBase<ModalRestitutionSolver, ModalRestitutionSettings, ModalRestitution>
    {
    public:
      static constexpr SolverIdentity identity{
        "modal-cor",
        "event-driven modal coefficient-of-restitution reference with Lagrange-multiplier sticking "
        "(Vyasarayani et al.)",
        "Modal restitution"};

      void check(const model::StructuralModel &model, const RunControl &control, const std::string &file) const override
      {
        const std::string section = parameter_section() + "/";
        check_mode_settings(settings_.n_modes, settings_.mode_source, model, file, parameter_section());
        // A load whose frequency the ODE steps must follow for more than max_periods periods.
        for (const auto &load : model.loads)
          {
            const double omega = load.time.kind == model::TimeFunction::Kind::harmonic ? load.time.omega :
                                 load.time.omegas.empty() ? 0.0 :
                                 *std::max_element(load.time.omegas.begin(), load.time.omegas.end());
            if (control.final_time * omega / (2 * M_PI) > settings_.max_periods)
              {
                std::ostringstream reason;
                reason << omega << " rad/s over Simulation/Final time = " << control.final_time << " is more than "
                       << settings_.max_periods << " periods for the ODE steps to follow";
                throw io::InputError(file,
                                     "Load " + load.name + "/" +
                                       (load.time.kind == model::TimeFunction::Kind::harmonic ? "Angular frequency" :
                                                                                               "Band high"),
                                     reason.str());
              }
          }
        // A contact on a support (or within round-off of one) does not move: the impact law
        // would divide by its zero modal mass.
        for (const auto &contact : model.contacts)
          if (!(contact.row.norm() > 1e-150))
            throw io::InputError(file, "Contact " + contact.name + "/Position",
                                 "the contact point does not move (it lies on a support)");
        if (!settings_.restitution.empty() && settings_.restitution.size() != model.contacts.size())
          throw io::InputError(file, section + "Restitution",
                               "give one value per contact (" + std::to_string(model.contacts.size()) + "), got " +
                                 std::to_string(settings_.restitution.size()));
      }
    };

    const SolverRegistration<ModalRestitutionSolver> modal_cor_solver_registration;
  } // namespace
} // namespace vibroimpact::integrators
