// Euler–Bernoulli beam with C1 cubic Hermite elements (doc/theory.md, "Euler–Bernoulli beam"):
// one HermiteField (body_fields.h), the deflection along the body's Deflection direction.
#include <vibroimpact/structure/body.h>

#include "body_fields.h"

#include <algorithm>

namespace vibroimpact::structure
{
  namespace
  {
    class BeamBody : public Body
    {
    public:
      BeamBody(const BodyDescription &description, const std::string &case_file, const std::string &mesh_directory)
        : Body(description)
        , deflection_(description, description.left, description.right, case_file, mesh_directory)
      {}

      unsigned int                n_dofs() const override { return deflection_.n_dofs(); }
      unsigned int                n_elements() const override { return deflection_.n_elements(); }
      std::vector<model::DofKind> dof_kinds() const override { return deflection_.dof_kinds(); }

      void assemble(Triplets &mass, Triplets &stiffness) const override
      {
        deflection_.assemble(description().stiffness, description().mass_per_length,
                             description().lumped_fraction == 1.0, 0, mass, stiffness);
      }

      std::optional<double> strain_energy(const model::Vector &u) const override
      {
        return deflection_.strain_energy(description().stiffness, u.data());
      }

      Row displacement_row(const double x) const override { return deflection_.row(x, 0); }

      model::Vector distributed_load(const ScalarFunction &q) const override
      {
        model::Vector f = model::Vector::Zero(n_dofs());
        deflection_.add_load(q, 0, f);
        return f;
      }

      model::Vector interpolate(const ScalarFunction &u, const ScalarFunction &du) const override
      {
        model::Vector values = model::Vector::Zero(n_dofs());
        deflection_.interpolate(u, du, 0, values);
        return values;
      }

      std::vector<double> sample_coordinates(const unsigned int samples_per_element) const override
      {
        return uniform_samples(deflection_.table(), samples_per_element);
      }

      std::array<double, 3> motion_direction() const override { return description().deflection; }

    private:
      HermiteField deflection_;
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
    const BodyKindRegistration registration{
      {"beam", "beam: Euler–Bernoulli, C1 Hermite elements (transverse deflection and slope)", 0,
       [](const BodyDescription &description, const std::string &case_file, const std::string &mesh_directory) {
         return std::make_unique<BeamBody>(description, case_file, mesh_directory);
       },
       BodyKindTraits(model::ContinuumBody::Type::beam, {BodyKindTraits::Trait::bending})}};
  } // namespace
} // namespace vibroimpact::structure
