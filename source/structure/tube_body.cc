// A tube: a straight Euler–Bernoulli beam in space (doc/theory.md, "Tubes in space"). It deflects
// along e1 (its Deflection direction, made normal to the axis) and e2 = Axis × e1, each a C1
// Hermite field with the planar beam's elements, and where the case asks for them it moves along
// its axis (FE_Q, EA, ρA) and twists (FE_Q, GJ, ρJ). The fields are uncoupled in M and K: their
// coupling comes from the supports (model/spatial_support.h). DoFs in blocks: e1, e2, axial, twist.
#include <vibroimpact/structure/body.h>

#include "assembly.h"
#include "body_fields.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace vibroimpact::structure
{
  namespace
  {
    using Direction = std::array<double, 3>;

    class TubeBody : public Body
    {
    public:
      TubeBody(const BodyDescription &d, const std::string &case_file, const std::string &mesh_directory)
        : Body(d)
        , e1_(d, d.left, d.right, case_file, mesh_directory)
        , e2_(d, d.left, d.right, case_file, mesh_directory)
        , frame_(tube_frame(d))
      {
        if (d.tube.axial)
          axial_.emplace(d, d.tube.axial_left, d.tube.axial_right, case_file, mesh_directory);
        if (d.tube.torsion)
          twist_.emplace(d, d.tube.torsion_left, d.tube.torsion_right, case_file, mesh_directory);
        axial_offset_ = 2 * e1_.n_dofs();
        twist_offset_ = axial_offset_ + (axial_ ? axial_->n_dofs() : 0);
        n_dofs_       = twist_offset_ + (twist_ ? twist_->n_dofs() : 0);
      }

      unsigned int n_dofs() const override { return n_dofs_; }
      unsigned int n_elements() const override { return e1_.n_elements(); }

      std::vector<model::DofKind> dof_kinds() const override
      {
        const auto                  plane = e1_.dof_kinds();
        std::vector<model::DofKind> kinds(plane);
        kinds.insert(kinds.end(), plane.begin(), plane.end());
        kinds.resize(n_dofs_, model::DofKind::axial);
        std::fill(kinds.begin() + twist_offset_, kinds.end(), model::DofKind::twist);
        return kinds;
      }

      void assemble(Triplets &mass, Triplets &stiffness) const override
      {
        const auto  &d      = description();
        const bool   lumped = d.lumped_fraction == 1.0;
        e1_.assemble(d.stiffness, d.mass_per_length, lumped, 0, mass, stiffness);
        e2_.assemble(d.stiffness, d.mass_per_length, lumped, e1_.n_dofs(), mass, stiffness);
        if (axial_)
          axial_->assemble(d.tube.axial_stiffness, d.mass_per_length, d.lumped_fraction, axial_offset_, mass, stiffness);
        if (twist_)
          twist_->assemble(d.tube.torsional_stiffness, d.tube.polar_inertia, d.lumped_fraction, twist_offset_, mass,
                           stiffness);
      }

      std::optional<double> strain_energy(const model::Vector &u) const override
      {
        const auto &d      = description();
        double      energy = e1_.strain_energy(d.stiffness, u.data()) +
                        e2_.strain_energy(d.stiffness, u.data() + e1_.n_dofs());
        if (axial_)
          energy += axial_->strain_energy(d.tube.axial_stiffness, u.data() + axial_offset_);
        if (twist_)
          energy += twist_->strain_energy(d.tube.torsional_stiffness, u.data() + twist_offset_);
        return energy;
      }

      Row displacement_row(const double x) const override { return e1_.row(x, 0); }

      model::Vector distributed_load(const ScalarFunction &q) const override
      {
        return field_load(BodyField::primary, q);
      }

      model::Vector interpolate(const ScalarFunction &u, const ScalarFunction &du) const override
      {
        return interpolate_field(BodyField::primary, u, du);
      }

      std::vector<double> sample_coordinates(const unsigned int samples_per_element) const override
      {
        return uniform_samples(e1_.table(), samples_per_element);
      }

      std::array<double, 3> motion_direction() const override { return frame_[1]; }

      std::vector<BodyField> fields() const override
      {
        std::vector<BodyField> f{BodyField::primary, BodyField::second_deflection};
        if (axial_)
          f.push_back(BodyField::axial);
        if (twist_)
          f.push_back(BodyField::twist);
        return f;
      }

      Row field_row(const double x, const BodyField field) const override
      {
        switch (field)
          {
            case BodyField::primary:
              return e1_.row(x, 0);
            case BodyField::second_deflection:
              return e2_.row(x, e1_.n_dofs());
            case BodyField::axial:
              return axial_ ? axial_->row(x, axial_offset_) : Row{};
            case BodyField::twist:
              return twist_ ? twist_->row(x, twist_offset_) : Row{};
          }
        return {};
      }

      model::Vector field_load(const BodyField field, const ScalarFunction &q) const override
      {
        model::Vector f = model::Vector::Zero(n_dofs_);
        if (field == BodyField::primary)
          e1_.add_load(q, 0, f);
        else if (field == BodyField::second_deflection)
          e2_.add_load(q, e1_.n_dofs(), f);
        else if (field == BodyField::axial && axial_)
          axial_->add_load(q, axial_offset_, f);
        else if (field == BodyField::twist && twist_)
          twist_->add_load(q, twist_offset_, f); // a torque per unit length
        return f;
      }

      model::Vector interpolate_field(const BodyField field, const ScalarFunction &u,
                                      const ScalarFunction &du) const override
      {
        model::Vector values = model::Vector::Zero(n_dofs_);
        if (field == BodyField::primary)
          e1_.interpolate(u, du, 0, values);
        else if (field == BodyField::second_deflection)
          e2_.interpolate(u, du, e1_.n_dofs(), values);
        else if (field == BodyField::axial && axial_)
          axial_->interpolate(u, axial_offset_, values);
        else if (field == BodyField::twist && twist_)
          twist_->interpolate(u, twist_offset_, values);
        return values;
      }

      std::array<double, 3> field_direction(const BodyField field) const override
      {
        switch (field)
          {
            case BodyField::primary:
              return frame_[1];
            case BodyField::second_deflection:
              return frame_[2];
            case BodyField::axial:
              return frame_[0];
            case BodyField::twist:
              break;
          }
        return {{0, 0, 0}};
      }

    private:
      HermiteField                 e1_, e2_;
      std::optional<LagrangeField> axial_, twist_;
      std::array<Direction, 3>     frame_; // e_x, e1, e2
      unsigned int                 axial_offset_ = 0, twist_offset_ = 0, n_dofs_ = 0;
    };
  } // namespace

  namespace
  {
    const BodyKindRegistration registration{
      {"tube", "tube: a beam in space, Euler–Bernoulli in both transverse planes (C1 Hermite along e1 and e2), "
               "with an axial and a torsion field (FE_Q) where asked",
       3, [](const BodyDescription &description, const std::string &case_file, const std::string &mesh_directory) {
         return std::make_unique<TubeBody>(description, case_file, mesh_directory);
       },
       [] {
         using Trait = BodyKindTraits::Trait;
         BodyKindTraits t(model::ContinuumBody::Type::tube, {Trait::bending, Trait::in_space});
         // Two beam elements' DoFs, and half as many again for each of the axial and torsion
         // fields (one DoF a node where the beam has two).
         t.element_weight = [](const BodyDescription &d) { return 2 + 0.5 * (d.tube.axial + d.tube.torsion); };
         return t;
       }()}};
  } // namespace
} // namespace vibroimpact::structure
