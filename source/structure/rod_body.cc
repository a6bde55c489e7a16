// Axial (St Venant) rod with deal.II's FE_Q elements of degree 1 or 2 (doc/theory.md, "Axial
// rod"): one LagrangeField (body_fields.h), the displacement along the body's axis.
#include <vibroimpact/structure/body.h>

#include "body_fields.h"

namespace vibroimpact::structure
{
  namespace
  {
    class RodBody : public OneFieldBody<LagrangeField>
    {
    public:
      using OneFieldBody::OneFieldBody;

      std::array<double, 3> motion_direction() const override { return description().axis; }
    };

    const BodyKindRegistration rod_kind_registration{
      {"rod", "rod: axial, FE_Q elements", 1,
       factory_of<RodBody>(),
       BodyKindTraits(model::ContinuumBody::Field::axial, {BodyKindTraits::Trait::blended_mass}), {}}}; // no entries of its own
  } // namespace
} // namespace vibroimpact::structure
