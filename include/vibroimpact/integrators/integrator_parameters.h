// The "Integrator" subsection of a case file: declared in deal.II's ParameterHandler, read and
// checked into IntegratorSettings. A value out of range throws io::InputError naming
// "Integrator/<Entry>" and the reason (the program exits with code 2).
#pragma once

#include <vibroimpact/integrators/integrator_settings.h>

namespace vibroimpact::io
{
  class ParameterFile;
}

namespace vibroimpact::integrators
{
  void               declare_integrator_parameters(io::ParameterFile &file);
  IntegratorSettings parse_integrator_parameters(io::ParameterFile &file);
} // namespace vibroimpact::integrators
