// A tube: a straight Euler–Bernoulli beam in space (doc/theory.md, "Tubes in space"). It deflects
// along e1 (its Deflection direction, made normal to the axis) and e2 = Axis × e1, each a C1
// Hermite field with the planar beam's elements, and where the case asks for them it moves along
// its axis (FE_Q, EA, ρA) and twists (FE_Q, GJ, ρJ). The fields are uncoupled in M and K: their
// coupling comes from the supports (model/spatial_support.h). DoFs in blocks: e1, e2, axial, twist.
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/structure/body.h>
#include <vibroimpact/structure/case_parameters.h>
#include <vibroimpact/structure/timoshenko_description.h>
#include <vibroimpact/structure/tube_description.h>

#include "assembly.h"
#include "body_fields.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <tuple>

namespace vibroimpact::structure
{
  namespace
  {
    using Direction = std::array<double, 3>;

    const TubeDescription &tube_of(const BodyDescription &d) { return d.kind_entries<TubeDescription>(); }

    // Plane: HermiteField (a tube), or TimoshenkoPlane (a timoshenko tube: shear-deformable in
    // both planes).
    template <typename Plane>
    class TubeBody : public Body
    {
    public:
      TubeBody(const BodyDescription &d, const std::string &case_file, const std::string &mesh_directory)
        : Body(d)
        , e1_(d, d.left, d.right, case_file, mesh_directory)
        , e2_(d, d.left, d.right, case_file, mesh_directory)
        , frame_(tube_frame(d))
      {
        if (tube_of(d).axial)
          axial_.emplace(d, tube_of(d).axial_left, tube_of(d).axial_right, case_file, mesh_directory);
        if (tube_of(d).torsion)
          twist_.emplace(d, tube_of(d).torsion_left, tube_of(d).torsion_right, case_file, mesh_directory);
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
        const auto &d = description();
        e1_.assemble(d.stiffness, d.mass_per_length, d.lumped_fraction, 0, mass, stiffness);
        e2_.assemble(d.stiffness, d.mass_per_length, d.lumped_fraction, e1_.n_dofs(), mass, stiffness);
        if (axial_)
          axial_->assemble(d.axial_stiffness, d.mass_per_length, d.lumped_fraction, axial_offset_, mass, stiffness);
        if (twist_)
          twist_->assemble(tube_of(d).torsional_stiffness, tube_of(d).polar_inertia, d.lumped_fraction, twist_offset_, mass,
                           stiffness);
      }

      double outer_radius() const override { return tube_of(description()).outer_radius; }

      std::optional<double> strain_energy(const model::Vector &u) const override
      {
        const auto &d      = description();
        const std::optional<double> bending_1 = e1_.strain_energy(d.stiffness, u.data()),
                                    bending_2 = e2_.strain_energy(d.stiffness, u.data() + e1_.n_dofs());
        if (!bending_1 || !bending_2)
          return std::nullopt;
        double energy = *bending_1 + *bending_2;
        if (axial_)
          energy += axial_->strain_energy(d.axial_stiffness, u.data() + axial_offset_);
        if (twist_)
          energy += twist_->strain_energy(tube_of(d).torsional_stiffness, u.data() + twist_offset_);
        return energy;
      }

      Row displacement_row(const double x) const override { return e1_.row(x, 0); }

      std::vector<InitialExpressions> initial_expressions() const override
      {
        auto        fields = Body::initial_expressions();
        const auto &tube   = tube_of(description());
        fields.push_back({BodyField::second_deflection, tube.initial_displacement_e2, tube.initial_velocity_e2,
                          "Initial displacement e2", "Initial velocity e2"});
        return fields;
      }

      std::vector<std::pair<std::string, double>> material_data() const override
      {
        auto        data = Body::material_data();
        const auto &d    = description();
        data.insert(data.end(), {{"Axial stiffness", tube_of(d).axial ? d.axial_stiffness : 1.0},
                                 {"Torsional stiffness", tube_of(d).torsion ? tube_of(d).torsional_stiffness : 1.0},
                                 {"Polar inertia per unit length", tube_of(d).torsion ? tube_of(d).polar_inertia : 1.0}});
        return data;
      }

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
          axial_->interpolate(u, du, axial_offset_, values);
        else if (field == BodyField::twist && twist_)
          twist_->interpolate(u, du, twist_offset_, values);
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
      Plane                        e1_, e2_;
      std::optional<LagrangeField> axial_, twist_;
      std::array<Direction, 3>     frame_; // e_x, e1, e2
      unsigned int                 axial_offset_ = 0, twist_offset_ = 0, n_dofs_ = 0;
    };
  } // namespace

  namespace
  {
    constexpr std::string_view tube_kind = "tube", timoshenko_tube_kind = "timoshenko tube";

    // The entries only a tube reads: its radius, its axial and torsion fields (asked by Axial
    // field and Torsion field) with their data and ends, and its initial state along e2.
    void bind_tube_entries(io::ParameterSection &s, BodyDescription &body)
    {
      TubeDescription &tube = body.kind_entries<TubeDescription>();
      s.add("Outer radius", tube.outer_radius, io::non_negative(),
            "R of a tube (length): where its surface touches a support; with a torsion field the contact point slides "
            "with the centreline's velocity plus R times the rate of twist.");
      s.add("Axial field", tube.axial, "Tube: add the axial displacement, FE_Q of Element degree with EA = Axial "
                                       "stiffness and the tube's Mass per unit length (friction along the axis).");
      s.add("Torsion field", tube.torsion, "Tube: add the twist angle, FE_Q of Element degree with Torsional stiffness "
                                           "GJ and Polar inertia per unit length rho J.");
      s.add("Torsional stiffness", tube.torsional_stiffness, io::positive(), "GJ (tube with a torsion field).");
      s.add("Polar inertia per unit length", tube.polar_inertia, io::positive(),
            "rho J, the mass moment of inertia about the axis per unit length (tube with a torsion field; a thin "
            "tube: rho A R_m^2).");
      const std::string fixed = " (tube): free|fixed.";
      for (const auto &[entry, end, what, doc] :
           {std::tuple{"Axial left end", &tube.axial_left, "tube's axial field", "Axial field at x = 0"},
            {"Axial right end", &tube.axial_right, "tube's axial field", "Axial field at x = L"},
            {"Torsion left end", &tube.torsion_left, "tube's torsion field", "Torsion field at x = 0"},
            {"Torsion right end", &tube.torsion_right, "tube's torsion field", "Torsion field at x = L"}})
        bind_end_condition(s, entry, *end, false, what, doc + fixed);
      s.add("Initial displacement e2", tube.initial_displacement_e2,
            "A tube's deflection along e2 = Axis x Deflection direction at t = 0, an expression of x.");
      s.add("Initial velocity e2", tube.initial_velocity_e2, "A tube's velocity along e2 at t = 0, an expression of x.");
      if (!s.reading() || (body.type.name() != tube_kind && body.type.name() != timoshenko_tube_kind))
        return;
      if (!(tube.outer_radius > 0))
        s.fail("Outer radius", "a tube needs its outer radius (positive), got 0");
      const auto  &a = body.axis, &d = body.deflection;
      const double cross[3] = {a[1] * d[2] - a[2] * d[1], a[2] * d[0] - a[0] * d[2], a[0] * d[1] - a[1] * d[0]};
      if (std::hypot(cross[0], cross[1], cross[2]) <= 1e-12 * std::hypot(a[0], a[1], a[2]) * std::hypot(d[0], d[1], d[2]))
        s.fail("Deflection direction", "is parallel to the Axis: a tube's e1 must have a part normal to its axis");
    }

    // A timoshenko tube's shear data, read by the timoshenko beam's entries (listed before it).
    void check_timoshenko_tube(io::ParameterSection &s, BodyDescription &body)
    {
      if (!s.reading() || body.type.name() != timoshenko_tube_kind)
        return;
      const auto &shear = body.kind_entries<TimoshenkoDescription>();
      if (!(shear.shear_stiffness > 0))
        s.fail("Shear stiffness", "a timoshenko tube needs its shear stiffness κGA (positive)");
      if (!(shear.rotary_inertia > 0))
        s.fail("Rotary inertia per unit length", "a timoshenko tube needs its rotary inertia ρI (positive)");
    }

    // Both tubes' traits: bending in space; `plane_weight` a transverse plane's DoFs per element in
    // units of a beam element's, and half as many again for each of the axial and torsion fields.
    BodyKindTraits tube_traits(double (*plane_weight)(const BodyDescription &))
    {
      using Trait = BodyKindTraits::Trait;
      BodyKindTraits t(model::ContinuumBody::Field::other, {Trait::bending, Trait::in_space});
      t.element_weight = [plane_weight](const BodyDescription &d) {
        return 2 * plane_weight(d) + 0.5 * (tube_of(d).axial + tube_of(d).torsion);
      };
      return t;
    }

    const BodyKindRegistration tube_kind_registration{
      {std::string(tube_kind), "tube: a beam in space, Euler–Bernoulli in both transverse planes (C1 Hermite along e1 and e2), "
               "with an axial and a torsion field (FE_Q) where asked",
       3, factory_of<TubeBody<HermiteField>>(), tube_traits([](const BodyDescription &) { return 1.0; }),
       bind_tube_entries}};

    const BodyKindRegistration timoshenko_tube_kind_registration{
      {std::string(timoshenko_tube_kind),
       "timoshenko tube: a tube whose two transverse planes are Timoshenko beams (deflection and rotation, FE_Q of "
       "Element degree; Shear stiffness, Rotary inertia per unit length)",
       5, factory_of<TubeBody<TimoshenkoPlane>>(),
       tube_traits([](const BodyDescription &d) { return 0.5 * (d.degree + 1); }), check_timoshenko_tube}};
  } // namespace
} // namespace vibroimpact::structure
