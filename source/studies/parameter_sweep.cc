#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/studies/parameter_sweep.h>

namespace vibroimpact::studies
{
  void declare_sweep_parameters(io::ParameterFile &)
  {}

  SweepSettings parse_sweep_parameters(io::ParameterFile &)
  {
    return {};
  }
} // namespace vibroimpact::studies
