// The parameters of the Moreau–Jean one-step integrator: the θ-scheme, the activation rule, the
// nonsmooth solver and the energy correction. Filled from the "Moreau-Jean" subsection of a case
// file (bind_settings) or directly in code.
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

  // Where the frame of a curved (annular) support is taken for a step's linearised gap
  // g(u+) ≈ g + n·(u+ − u) (doc/theory.md, "Tubes in space": penetration of the annular gap).
  enum class AnnularNormal
  {
    start,     // at the step's start: the penetration grows like v² h t / c
    mid_step,  // at u + (h/2) v: it grows at half that rate
    predicted  // at u + h v / (2θ): the step's chord h v_θ is the wall's, no growth at O(h)
  };

  struct MoreauJeanSettings
  {
    double theta     = 0.5;  // in [1/2, 1]; 1/2 conserves energy away from impacts
    double gamma     = 0.5;  // activation: g + gamma h U <= 0
    double time_step = 1e-3; // h

    contact::LcpAlgorithm lcp_solver    = contact::LcpAlgorithm::lemke;
    double                lcp_tolerance = 1e-12;

    double        friction_tolerance = 1e-10; // Siconos' and our Coulomb-law residual (spatial supports)
    AnnularNormal annular_normal     = AnnularNormal::predicted;

    bool                energy_correction    = false;
    CorrectionDirection correction_direction = CorrectionDirection::values;
  };

  void bind_settings(io::ParameterSection &section, MoreauJeanSettings &settings);
} // namespace vibroimpact::integrators
