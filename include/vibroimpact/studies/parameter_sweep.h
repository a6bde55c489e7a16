// One parameter swept over a range; Poincaré sections of the response for each value
// (bifurcation diagrams), each value on its own MPI rank when run under mpirun.
#pragma once

#include <string>

namespace vibroimpact::io
{
  class ParameterFile;
}

namespace vibroimpact::studies
{
  struct SweepSettings
  {
    std::string parameter; // placeholder: filled by the sweep implementation
  };

  void          declare_sweep_parameters(io::ParameterFile &file);
  SweepSettings parse_sweep_parameters(io::ParameterFile &file);
} // namespace vibroimpact::studies
