// Euler–Bernoulli beam with C1 cubic Hermite elements (doc/theory.md, "Euler–Bernoulli beam"):
// one HermiteField (body_fields.h), the deflection along the body's Deflection direction.
#include <vibroimpact/structure/body.h>

#include "body_fields.h"

#include <algorithm>

namespace vibroimpact::structure
{
  namespace
  {
    class BeamBody : public OneFieldBody<HermiteField>
    {
    public:
      using OneFieldBody::OneFieldBody;

      std::optional<double> strain_energy(const model::Vector &u) const override
      {
        return field_.strain_energy(description().stiffness, u.data());
      }

      std::array<double, 3> motion_direction() const override { return description().deflection; }
    };
  } // namespace

  std::vector<double> uniform_samples(const ElementTable &table, const unsigned int samples_per_element)
  {
    std::vector<double> x;
    const unsigned int  s = std::max(1u, samples_per_element);
    for (const auto &element : table.elements)
      for (unsigned int k = 0; k < s; ++k)
        x.push_back(element.x_left + (element.x_right - element.x_left) * k / s);
    if (!table.elements.empty())
      x.push_back(table.elements.back().x_right);
    return x;
  }

  namespace
  {
    const BodyKindRegistration beam_kind_registration{
      {"beam", "beam: Euler–Bernoulli, C1 Hermite elements (transverse deflection and slope)", 0,
       factory_of<BeamBody>(),
       BodyKindTraits(model::ContinuumBody::Field::bending, {BodyKindTraits::Trait::bending}), {}}}; // no entries of its own
  } // namespace
} // namespace vibroimpact::structure
