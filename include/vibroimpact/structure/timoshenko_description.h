// What only a Timoshenko beam reads of its case (Type = timoshenko beam), held in its
// BodyDescription by type (BodyDescription::kind_entries<TimoshenkoDescription>()), and the
// pinned–pinned beam's closed-form frequencies the convergence studies measure against.
#pragma once

#include <vibroimpact/structure/case_description.h>

#include <vector>

namespace vibroimpact::structure
{
  struct TimoshenkoDescription
  {
    double shear_stiffness = 0.0; // κGA
    double rotary_inertia  = 0.0; // ρI per unit length
  };

  // The first n natural frequencies of a uniform pinned–pinned Timoshenko beam (EI, κGA, ρA, ρI,
  // length L), both branches in ascending order: for k = jπ/L each j ≥ 1 gives the two roots ω²
  // of (κGA k² − ρA ω²)(EI k² + κGA − ρI ω²) = (κGA k)², and k = 0 the shear root κGA/ρI (w = 0,
  // θ uniform; doc/theory.md, "Timoshenko beam").
  std::vector<double> pinned_pinned_timoshenko_frequencies(double EI, double kGA, double rhoA, double rhoI, double L,
                                                           unsigned int n);
} // namespace vibroimpact::structure
