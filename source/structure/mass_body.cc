// A rigid point mass: one DoF along its Deflection direction (supports, impact dampers,
// lumped chains).
#include <vibroimpact/structure/body.h>

namespace vibroimpact::structure
{
  namespace
  {
    class MassBody : public Body
    {
    public:
      using Body::Body;

      unsigned int n_dofs() const override { return 1; }
      unsigned int n_elements() const override { return 0; }
      std::vector<model::DofKind> dof_kinds() const override { return {model::DofKind::lumped}; }

      void assemble(Triplets &mass, Triplets &) const override
      {
        mass.emplace_back(0, 0, description().mass_per_length);
      }

      Row displacement_row(double) const override { return {{0u, 1.0}}; }

      // A point body has unit measure: q is its force.
      model::Vector distributed_load(const ScalarFunction &q) const override
      {
        return model::Vector::Constant(1, q(0.0));
      }

      model::Vector interpolate(const ScalarFunction &u, const ScalarFunction &) const override
      {
        return model::Vector::Constant(1, u(0.0));
      }

      std::vector<double> sample_coordinates(unsigned int) const override { return {0.0}; }

      std::array<double, 3> motion_direction() const override { return description().deflection; }
    };

    const BodyKindRegistration mass_kind_registration{
      {"mass", "mass: a rigid point mass (one DoF)", 2,
       [](const BodyDescription &description, const std::string &, const std::string &) {
         return std::make_unique<MassBody>(description);
       },
       BodyKindTraits(model::ContinuumBody::Field::other, {BodyKindTraits::Trait::point}), {}}}; // no entries of its own
  } // namespace
} // namespace vibroimpact::structure
