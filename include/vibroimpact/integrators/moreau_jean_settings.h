// The parameters of the Moreau–Jean one-step integrator: the θ-scheme, the activation rule, the
// nonsmooth solver and the energy correction. Filled from the "Moreau-Jean" subsection of a case
// file (bind_moreau_jean_parameters) or directly in code.
#pragma once

#include <vibroimpact/contact/lcp_solver.h>

#include <string>

namespace vibroimpact::io
{
  class ParameterSection;
}

namespace vibroimpact::integrators
{
  // The direction I of the energy correction v+ <- v+ + beta I. Every choice is zero on the
  // DoFs of the contacts active in the step (so their contact velocities, and hence the impact
  // law, are untouched).
  enum class CorrectionDirection
  {
    non_contact, // the seed's choice: 1 on every other DoF, slopes included
    values,      // 1 on value DoFs (deflections, axial, lumped), 0 on slopes: the nodal
                 // interpolant of a uniform velocity field, dimensionally consistent for C1 beams
    velocity     // the current velocity v+ itself: scales the motion of the free DoFs
  };

  struct MoreauJeanSettings
  {
    double theta     = 0.5;  // in [1/2, 1]; 1/2 conserves energy away from impacts
    double gamma     = 0.5;  // activation: g + gamma h U <= 0
    double time_step = 1e-3; // h

    contact::LcpAlgorithm lcp_solver    = contact::LcpAlgorithm::lemke;
    double                lcp_tolerance = 1e-12;

    bool                energy_correction    = false;
    CorrectionDirection correction_direction = CorrectionDirection::values;
  };

  void bind_moreau_jean_parameters(io::ParameterSection &section, MoreauJeanSettings &settings);
} // namespace vibroimpact::integrators
