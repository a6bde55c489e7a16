#include <vibroimpact/integrators/modal_restitution_parameters.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>

#include <deal.II/base/parameter_handler.h>

namespace vibroimpact::integrators
{
  void declare_modal_restitution_parameters(io::ParameterFile &file)
  {
    using namespace dealii::Patterns;
    auto &prm = file.handler();
    prm.enter_subsection("Modal restitution");
    prm.declare_entry("Number of modes", "4", Integer(),
                      "N: modes of the structural model kept (Vyasarayani et al. use 4).");
    prm.declare_entry("Damping ratios", "", Anything(),
                      "zeta_1, zeta_2, ...; the last repeats; empty: undamped (the model's C is not used).");
    prm.declare_entry("Restitution", "", Anything(),
                      "R per contact, in the order of the file; empty: each contact's Restitution.");
    prm.declare_entry("Chatter threshold", "1e-6", Double(),
                      "epsilon: an impact within epsilon of the previous one of the same contact starts sticking.");
    prm.declare_entry("Tolerance", "1e-10", Double(), "Absolute and relative tolerance of Dormand–Prince.");
    prm.declare_entry("Output interval", "0", Double(),
                      "Time between history rows; 0: the time stepper's (Time step x Output every).");
    prm.leave_subsection();
  }

  ModalRestitutionSettings parse_modal_restitution_parameters(io::ParameterFile &file,
                                                              const double       final_time,
                                                              const double       output_interval)
  {
    const io::ParameterSection section(file, "Modal restitution");
    ModalRestitutionSettings   s;
    s.n_modes = section.count("Number of modes", 1);
    const auto ratios = [&](const std::string &entry, const double high) {
      std::vector<double> values;
      for (const auto &item : io::split_list(section.text(entry)))
        {
          double value = -1;
          try
            {
              value = std::stod(item);
            }
          catch (const std::exception &)
            {}
          if (!(value >= 0 && value <= high))
            section.fail(entry, "each value must lie in [0, " + std::to_string(high).substr(0, 3) + "], got '" + item + "'");
          values.push_back(value);
        }
      return values;
    };
    s.damping_ratios     = ratios("Damping ratios", 1.0);
    s.restitution        = ratios("Restitution", 1.0);
    s.epsilon            = section.non_negative("Chatter threshold");
    s.absolute_tolerance = s.relative_tolerance = section.positive("Tolerance");
    s.output_interval    = section.non_negative("Output interval");
    if (s.output_interval == 0)
      s.output_interval = output_interval;
    s.final_time = final_time;
    return s;
  }

  void check_modal_restitution(const ModalRestitutionSettings &settings,
                               const model::StructuralModel   &model,
                               const std::string              &file)
  {
    if (settings.n_modes > model.n_dofs())
      throw io::InputError(file, "Modal restitution/Number of modes",
                           "the model has only " + std::to_string(model.n_dofs()) + " DoFs, asked for " +
                             std::to_string(settings.n_modes) + " modes");
    if (!settings.restitution.empty() && settings.restitution.size() != model.contacts.size())
      throw io::InputError(file, "Modal restitution/Restitution",
                           "give one value per contact (" + std::to_string(model.contacts.size()) + "), got " +
                             std::to_string(settings.restitution.size()));
  }
} // namespace vibroimpact::integrators
