// The "Modal restitution" subsection: settings of the modal CoR reference solver, used when
// Integrator/Method = modal-cor and by `vibroimpact compare`.
#pragma once

#include <vibroimpact/integrators/modal_restitution.h>

#include <string>

namespace vibroimpact::io
{
  class ParameterFile;
}

namespace vibroimpact::integrators
{
  void declare_modal_restitution_parameters(io::ParameterFile &file);

  // final_time comes from the Integrator subsection; output_interval is used when the file's
  // Output interval is 0 (then the reference writes when the time stepper writes).
  ModalRestitutionSettings parse_modal_restitution_parameters(io::ParameterFile &file,
                                                              double             final_time,
                                                              double             output_interval);
  // Checks the settings against the model they will run on (modes, restitution per contact):
  // throws io::InputError naming "Modal restitution/<Entry>" in file.
  void check_modal_restitution(const ModalRestitutionSettings &settings,
                               const model::StructuralModel   &model,
                               const std::string              &file);
} // namespace vibroimpact::integrators
