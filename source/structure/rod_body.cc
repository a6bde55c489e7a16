// Axial (St Venant) rod with deal.II's FE_Q elements of degree 1 or 2 (doc/theory.md, "Axial
// rod"): one LagrangeField (body_fields.h), the displacement along the body's axis.
#include <vibroimpact/structure/body.h>

#include "body_fields.h"

namespace vibroimpact::structure
{
  namespace
  {
    class RodBody : public Body
    {
    public:
      RodBody(const BodyDescription &description, const std::string &case_file, const std::string &mesh_directory)
        : Body(description)
        , axial_(description, description.left, description.right, case_file, mesh_directory)
      {}

      unsigned int                n_dofs() const override { return axial_.n_dofs(); }
      unsigned int                n_elements() const override { return axial_.n_elements(); }
      std::vector<model::DofKind> dof_kinds() const override
      {
        return std::vector<model::DofKind>(axial_.n_dofs(), model::DofKind::axial);
      }

      void assemble(Triplets &mass, Triplets &stiffness) const override
      {
        axial_.assemble(description().stiffness, description().mass_per_length, description().lumped_fraction, 0,
                        mass, stiffness);
      }

      Row displacement_row(const double x) const override { return axial_.row(x, 0); }

      model::Vector distributed_load(const ScalarFunction &q) const override
      {
        model::Vector f = model::Vector::Zero(n_dofs());
        axial_.add_load(q, 0, f);
        return f;
      }

      model::Vector interpolate(const ScalarFunction &u, const ScalarFunction &) const override
      {
        model::Vector values = model::Vector::Zero(n_dofs());
        axial_.interpolate(u, 0, values);
        return values;
      }

      std::vector<double> sample_coordinates(const unsigned int samples_per_element) const override
      {
        return uniform_samples(axial_.table(), samples_per_element);
      }

      std::array<double, 3> motion_direction() const override { return description().axis; }

    private:
      LagrangeField axial_;
    };
  } // namespace

  namespace
  {
    const BodyKindRegistration registration{
      {"rod", "rod: axial, FE_Q elements", 1,
       [](const BodyDescription &description, const std::string &case_file, const std::string &mesh_directory) {
         return std::make_unique<RodBody>(description, case_file, mesh_directory);
       },
       BodyKindTraits(model::ContinuumBody::Type::rod, {BodyKindTraits::Trait::blended_mass})}};
  } // namespace
} // namespace vibroimpact::structure
