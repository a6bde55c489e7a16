// What a time integration is asked to do: the scheme's parameters, the nonsmooth solver, the
// energy correction and how often to write. Filled from the "Integrator" subsection of a case
// file (integrator_parameters.h) or directly in code.
#pragma once

#include <vibroimpact/contact/lcp_solver.h>

#include <string>

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

  CorrectionDirection correction_direction_from_string(const std::string &name); // throws
  std::string         to_string(CorrectionDirection direction);

  struct IntegratorSettings
  {
    std::string method     = "moreau-jean";
    double      theta      = 0.5;  // in [1/2, 1]; 1/2 conserves energy away from impacts
    double      gamma      = 0.5;  // activation: g + gamma h U <= 0
    double      time_step  = 1e-3; // h
    double      final_time = 1.0;

    contact::LcpAlgorithm lcp_solver    = contact::LcpAlgorithm::lemke;
    double                lcp_tolerance = 1e-12;

    bool                energy_correction    = false;
    CorrectionDirection correction_direction = CorrectionDirection::values;

    unsigned int output_every = 1; // history.csv row every k steps
    unsigned int frames_every = 0; // solution-NNNNN.vtu every k steps; 0: none
  };
} // namespace vibroimpact::integrators
