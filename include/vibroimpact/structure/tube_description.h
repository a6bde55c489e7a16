// What only a tube body reads of its case (Type = tube): kept in its BodyDescription by type
// (BodyDescription::kind_entries<TubeDescription>()), so that the shared description and the
// code outside the tube's own file name no tube.
#pragma once

#include <vibroimpact/structure/case_description.h>

#include <string>

namespace vibroimpact::structure
{
  // What only a tube has (Type = tube): its outer radius, and its axial (EA: the body's Axial
  // stiffness, ρA its Mass per unit length) and torsion fields where asked, each with its own end
  // conditions (free or fixed), and its initial state along e2.
  struct TubeDescription
  {
    double       outer_radius        = 0.0; // R
    bool         axial               = false;
    bool         torsion             = false;
    double       torsional_stiffness = 1.0; // GJ
    double       polar_inertia       = 1.0; // rho J per unit length
    EndCondition axial_left = EndCondition::free, axial_right = EndCondition::free;     // clamped: fixed
    EndCondition torsion_left = EndCondition::free, torsion_right = EndCondition::free; // clamped: fixed
    std::string  initial_displacement_e2 = "0";
    std::string  initial_velocity_e2     = "0";
  };

} // namespace vibroimpact::structure
