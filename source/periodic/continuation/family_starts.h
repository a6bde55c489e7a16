// Where a free family starts and what it is called: the map's own one-impact orbit near a
// grazing linear mode (climbing Galerkin subspaces where contacts are elastic, carried from soft
// contacts to stiff or rigid ones where asked), and the check that the symmetric start is an
// orbit of the impact system.
#pragma once

#include <vibroimpact/periodic/continuation.h>

#include <optional>
#include <string>
#include <utility>

namespace vibroimpact::periodic
{
  // The start (x0, T) of settings.mode's family at `energy`: the map's one-impact orbit, refined by
  // Newton on the first 2j, 4j, 8j, ... modes where the map has subspaces. With a start stiffness,
  // that start on the map with soft contacts, carried at `energy` to the map's own contacts (an
  // orbit of the map). Empty where the map knows no such orbit or the carrying stops short.
  // why: where a carried start stopped, and why (empty otherwise).
  std::optional<std::pair<Vector, double>> start_orbit(const PeriodicFlowMap &flow,
                                                       const ContinuationSettings &settings, double energy,
                                                       std::string *why = nullptr);

  // A failed branch saying why when the symmetric start (x0, period) meets the stop more than once
  // inside its period (no family leaves there); empty when it is a start.
  std::optional<Branch> inadmissible_start(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                           const Vector &x0, double period);
} // namespace vibroimpact::periodic
