// The bodies of a case placed in one global DoF vector, and the builder's stages that the
// files of source/structure share (internal to the structure module; model_builder.h is public).
#pragma once

#include <vibroimpact/io/input_error.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/structure/body.h>
#include <vibroimpact/structure/case_description.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace vibroimpact::structure
{
  using model::SparseRow;
  using model::Vector;

  inline std::array<double, 3> unit(std::array<double, 3> v)
  {
    const double norm = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (norm > 0)
      for (auto &c : v)
        c /= norm;
    return v;
  }

  // A tube's frame {e_x, e1, e2}: its axis, its Deflection direction without the axial part, and
  // e2 = e_x × e1 (case_parameters.cc refuses a deflection direction parallel to the axis).
  inline std::array<std::array<double, 3>, 3> tube_frame(const BodyDescription &d)
  {
    const auto   ex  = unit(d.axis);
    const double dot = d.deflection[0] * ex[0] + d.deflection[1] * ex[1] + d.deflection[2] * ex[2];
    const auto   e1  = unit({{d.deflection[0] - dot * ex[0], d.deflection[1] - dot * ex[1], d.deflection[2] - dot * ex[2]}});
    const std::array<double, 3> e2{
      {ex[1] * e1[2] - ex[2] * e1[1], ex[2] * e1[0] - ex[0] * e1[2], ex[0] * e1[1] - ex[1] * e1[0]}};
    return {{ex, e1, e2}};
  }

  // The bodies of the case with their place in the global DoF vector.
  class Assembly
  {
  public:
    explicit Assembly(const CaseDescription &description)
      : description_(description)
    {
      const std::string directory =
        std::filesystem::path(description.filename).parent_path().string();
      for (const auto &body : description.bodies)
        {
          offsets_.push_back(n_dofs_);
          bodies_.push_back(std::shared_ptr<const Body>(make_body(body, description.filename, directory)));
          n_dofs_ += bodies_.back()->n_dofs();
        }
    }

    unsigned int n_dofs() const { return n_dofs_; }
    const auto  &bodies() const { return bodies_; }
    unsigned int offset(std::size_t b) const { return offsets_[b]; }

    [[noreturn]] void fail(const std::string &parameter, const std::string &reason) const
    {
      throw io::InputError(description_.filename, parameter, reason);
    }

    std::size_t body_index(const std::string &name, const std::string &parameter) const
    {
      for (std::size_t b = 0; b < bodies_.size(); ++b)
        if (bodies_[b]->name() == name)
          return b;
      fail(parameter, name.empty() ? "no body given" : "there is no body named '" + name + "'");
    }

    // The row of the displacement at a point (of the body's primary field unless `field` says
    // otherwise); section names the subsection for errors.
    SparseRow row(const PointOnBody &point, const std::string &section, const std::string &body_entry,
                  const std::string &position_entry, const BodyField field = BodyField::primary) const
    {
      SparseRow   result(n_dofs_);
      const auto  b    = body_index(point.body, section + "/" + body_entry);
      const auto &body = *bodies_[b];
      if (!body.has_field(field))
        fail(section + "/" + body_entry, "body '" + body.name() + "' has no " + field_name(field) +
                                           " field" + (body.kind_traits().in_space ?
                                                         " (a tube's Axial field / Torsion field = true adds it)" :
                                                         " (only a tube has one)"));
      if (body.kind_traits().point && point.x != 0.0)
        fail(section + "/" + position_entry,
             "body '" + body.name() + "' is a point mass: its only point is x = 0, got " + std::to_string(point.x));
      if (!body.kind_traits().point &&
          !(point.x >= -1e-12 * body.length() && point.x <= body.length() * (1 + 1e-12)))
        fail(section + "/" + position_entry,
             "x = " + std::to_string(point.x) + " lies outside body '" + body.name() + "' [0, " +
               std::to_string(body.length()) + "]");
      for (const auto &[dof, weight] : body.field_row(std::clamp(point.x, 0.0, body.length()), field))
        result.coeffRef(offsets_[b] + dof) += weight;
      return result;
    }

    static std::string field_name(const BodyField field)
    {
      switch (field)
        {
          case BodyField::primary:
            return "e1";
          case BodyField::second_deflection:
            return "e2";
          case BodyField::axial:
            return "axial";
          case BodyField::twist:
            return "twist";
        }
      return "";
    }

    std::array<double, 3> location(const PointOnBody &point) const
    {
      if (point.is_ground())
        return {{0, 0, 0}};
      const auto &body = bodies_[body_index(point.body, "")]->description();
      const auto  axis = unit(body.axis);
      return {{body.origin[0] + point.x * axis[0], body.origin[1] + point.x * axis[1],
               body.origin[2] + point.x * axis[2]}};
    }

    // A global vector from a body's local one.
    Vector place(std::size_t b, const Vector &local) const
    {
      Vector global                                 = Vector::Zero(n_dofs_);
      global.segment(offsets_[b], local.size())     = local;
      return global;
    }

  private:
    const CaseDescription             &description_;
    std::vector<std::shared_ptr<const Body>> bodies_; // shared: the continuum's rows keep them
    std::vector<unsigned int>          offsets_;
    unsigned int                       n_dofs_ = 0;
  };

  // model_builder.cc
  void add_outer_product(std::vector<Eigen::Triplet<double>> &triplets, const SparseRow &r, double scale);
  model::BodyPoint body_point(const Assembly &assembly, const PointOnBody &point);

  // load_time_functions.cc: f(t) of a load (constant, harmonic, band-limited random).
  model::TimeFunction time_function(const LoadDescription &load);

  // output_geometry.cc: the drawn points and segments and the map DoFs → their displacement.
  model::OutputGeometry make_geometry(const Assembly &assembly, const CaseDescription &description);

  // initial_state.cc: u0 and v0 (expressions, a scaled mode or a static shape), then checked.
  void set_initial_state(model::StructuralModel &m, const Assembly &assembly, const CaseDescription &description);
  void check_finite_initial_state(const model::StructuralModel &m, const Assembly &assembly,
                                  const CaseDescription &description);

  // continuum.cc: the bodies as continua, and the closed-form modes where there are any.
  model::Continuum  make_continuum(const Assembly &assembly, const CaseDescription &description);
  model::ExactModes exact_modes(const model::StructuralModel &m);

  // model_size.cc: refuses a case whose model cannot fit in the available memory.
  void check_model_size(const CaseDescription &description);

  // support_expansion.cc: clearance supports as the contacts, probe, stops and load they are;
  // supports in space as their probes, rings and preload, and then as model::SpatialSupport.
  CaseDescription expand_supports(const CaseDescription &original);
  void add_spatial_supports(model::StructuralModel &m, const Assembly &assembly, const CaseDescription &description);
} // namespace vibroimpact::structure
