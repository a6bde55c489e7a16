// The "Modal restitution" subsection: settings of the modal CoR reference solver, used when
// Integrator/Method = modal-cor and by `vibroimpact compare`.
#pragma once

#include <vibroimpact/integrators/modal_restitution.h>

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
} // namespace vibroimpact::integrators
