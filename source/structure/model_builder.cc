// Assembly of the model: the bodies' matrices, lumped elements, contacts, probes, loads,
// supports and damping, then the geometry, initial state and continuum from their own files.
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/structure/expression.h>
#include <vibroimpact/structure/model_builder.h>

#include "assembly.h"

#include <cmath>
#include <sstream>
#include <tuple>
#include <stdexcept>

namespace vibroimpact::structure
{
  void add_outer_product(std::vector<Eigen::Triplet<double>> &triplets, const SparseRow &r, double scale)
  {
    for (SparseRow::InnerIterator i(r); i; ++i)
      for (SparseRow::InnerIterator j(r); j; ++j)
        triplets.emplace_back(i.index(), j.index(), scale * i.value() * j.value());
  }

  model::BodyPoint body_point(const Assembly &assembly, const PointOnBody &point)
  {
    if (point.is_ground())
      return {};
    return {static_cast<int>(assembly.body_index(point.body, "")), point.x};
  }

  namespace
  {
    bool finite(const Triplets &entries)
    {
      return std::all_of(entries.begin(), entries.end(), [](const auto &t) { return std::isfinite(t.value()); });
    }

    // Element matrices of a body whose data are finite but whose products (EI/L³, ρAL, ...) are
    // not: blame the data entry furthest from 1 in magnitude.
    void check_finite_matrices(const Assembly &assembly, const Body &body, const Triplets &mass,
                               const Triplets &stiffness)
    {
      if (finite(mass) && finite(stiffness))
        return;
      const auto data = body.material_data();
      const auto extreme = *std::max_element(data.begin(), data.end(), [](const auto &a, const auto &b) {
        return std::abs(std::log10(a.second)) < std::abs(std::log10(b.second));
      });
      std::ostringstream reason;
      reason << extreme.second << " makes the " << (finite(mass) ? "stiffness" : "mass")
             << " matrix overflow (entries beyond the range of a double)";
      assembly.fail("Body " + body.name() + "/" + extreme.first, reason.str());
    }

    // The matrix entries as they are gathered, body by body and element by element; the order
    // of the triplets is the order of their sums.
    struct MatrixEntries
    {
      std::vector<Eigen::Triplet<double>> mass, stiffness, damping, dashpots;
      // The stiffness of what cannot give its strain energy from strains (rods, springs), and the
      // bodies that can (beams): together the model's cancellation-free strain energy.
      std::vector<Eigen::Triplet<double>>           other_stiffness;
      std::vector<std::pair<std::size_t, unsigned>> strain_bodies; // (body, offset)
    };

    // Each body's element matrices at its offset, its DoF kinds and its element count.
    void assemble_bodies(MatrixEntries &entries, model::StructuralModel &m, const Assembly &assembly)
    {
      for (std::size_t b = 0; b < assembly.bodies().size(); ++b)
        {
          Triplets body_mass, body_stiffness;
          assembly.bodies()[b]->assemble(body_mass, body_stiffness);
          check_finite_matrices(assembly, *assembly.bodies()[b], body_mass, body_stiffness);
          const int  offset      = assembly.offset(b);
          const bool from_strain = assembly.bodies()[b]->strain_energy(Vector::Zero(assembly.bodies()[b]->n_dofs())).has_value();
          if (from_strain)
            entries.strain_bodies.emplace_back(b, offset);
          for (const auto &t : body_mass)
            entries.mass.emplace_back(t.row() + offset, t.col() + offset, t.value());
          for (const auto &t : body_stiffness)
            {
              entries.stiffness.emplace_back(t.row() + offset, t.col() + offset, t.value());
              if (!from_strain)
                entries.other_stiffness.emplace_back(t.row() + offset, t.col() + offset, t.value());
            }
          m.n_elements += assembly.bodies()[b]->n_elements();
          const auto kinds = assembly.bodies()[b]->dof_kinds();
          m.dof_kinds.insert(m.dof_kinds.end(), kinds.begin(), kinds.end());
        }
    }

    // Lumped masses, springs and dashpots: outer products of the rows of their points.
    void assemble_lumped_elements(MatrixEntries &entries, const Assembly &assembly, const CaseDescription &description)
    {
      for (const auto &element : description.elements)
        {
          const std::string section = "Element " + element.name;
          SparseRow         r       = assembly.row(element.point, section, "Body", "Position");
          if (element.type == ElementType::mass)
            {
              add_outer_product(entries.mass, r, element.value);
              continue;
            }
          if (!element.other.is_ground())
            r -= assembly.row(element.other, section, "Other body", "Other position");
          add_outer_product(element.type == ElementType::spring ? entries.stiffness : entries.damping, r, element.value);
          if (element.type == ElementType::dashpot)
            add_outer_product(entries.dashpots, r, element.value);
          if (element.type == ElementType::spring)
            add_outer_product(entries.other_stiffness, r, element.value);
        }
    }

    // M, K, C and the dashpots' part of C from their entries; the strain energy closure where a
    // body can give it from strains.
    void set_matrices(model::StructuralModel &m, const MatrixEntries &entries, const Assembly &assembly)
    {
      const unsigned int n = assembly.n_dofs();
      m.mass.resize(n, n);
      m.mass.setFromTriplets(entries.mass.begin(), entries.mass.end());
      m.stiffness.resize(n, n);
      m.stiffness.setFromTriplets(entries.stiffness.begin(), entries.stiffness.end());
      m.damping.resize(n, n);
      m.damping.setFromTriplets(entries.damping.begin(), entries.damping.end());
      m.dashpots.resize(n, n);
      m.dashpots.setFromTriplets(entries.dashpots.begin(), entries.dashpots.end());
      if (entries.strain_bodies.empty())
        return;
      model::SparseMatrix rest(n, n);
      rest.setFromTriplets(entries.other_stiffness.begin(), entries.other_stiffness.end());
      std::vector<std::pair<std::shared_ptr<const Body>, unsigned int>> bodies;
      for (const auto &[b, offset] : entries.strain_bodies)
        bodies.emplace_back(assembly.bodies()[b], offset);
      m.strain_energy = [bodies, rest](const Vector &u) {
        double energy = 0.5 * u.dot(rest * u);
        for (const auto &[body, offset] : bodies)
          energy += *body->strain_energy(u.segment(offset, body->n_dofs()));
        return energy;
      };
    }

    // One row of H per contact (its sign from the side), refused when its gap cannot change.
    void add_contacts(model::StructuralModel &m, const Assembly &assembly, const CaseDescription &description)
    {
      for (const auto &contact : description.contacts)
        {
          const std::string section = "Contact " + contact.name;
          SparseRow         r       = assembly.row(contact.point, section, "Body", "Position");
          if (!contact.other.is_ground())
            r -= assembly.row(contact.other, section, "Other body", "Other position");
          if (contact.side == ContactSide::above)
            r = -r;
          r.prune(0.0);
          if (r.nonZeros() == 0)
            assembly.fail(section + "/Position",
                          contact.other.is_ground() ?
                            "the contact point cannot move (it sits on a constrained end)" :
                            contact.other.body == contact.point.body && contact.other.x == contact.point.x ?
                            "the contact's two points are one point of body '" + contact.point.body +
                              "': their gap can never change" :
                            "the contact's two points cannot move relative to each other");
          m.contacts.push_back(model::Contact{contact.name, r, contact.gap, contact.restitution,
                                              assembly.location(contact.point), body_point(assembly, contact.point),
                                              body_point(assembly, contact.other),
                                              contact.side == ContactSide::above ? -1.0 : 1.0});
          m.contacts.back().stiffness = contact.stiffness;
        }
    }

    void add_probes(model::StructuralModel &m, const Assembly &assembly, const CaseDescription &description)
    {
      for (const auto &probe : description.probes)
        m.probes.push_back(model::Probe{probe.name,
                                        assembly.row(probe.point, "Probe " + probe.name, "Body", "Position", probe.field),
                                        body_point(assembly, probe.point)});
    }

    // A tube's load at `angle` degrees from e1 towards e2: its e1 and e2 parts, exact at the
    // multiples of 90 degrees (a load along e2 has no e1 part at all).
    std::array<double, 2> in_plane(const double angle)
    {
      const double turns = std::remainder(angle, 360.0);
      for (const auto &[at, c, s] : {std::tuple{0.0, 1.0, 0.0}, {90.0, 0.0, 1.0}, {180.0, -1.0, 0.0},
                                      {-180.0, -1.0, 0.0}, {-90.0, 0.0, -1.0}})
        if (turns == at)
          return {{c, s}};
      return {{std::cos(turns * M_PI / 180), std::sin(turns * M_PI / 180)}};
    }

    // A load at an angle in a tube's plane (point or distributed).
    Vector tube_load_vector(const LoadDescription &load, const Assembly &assembly, const CaseDescription &description)
    {
      const std::string section = "Load " + load.name;
      const auto        b       = assembly.body_index(load.point.body, section + "/Body");
      const Body       &body    = *assembly.bodies()[b];
      if (!body.kind_traits().in_space)
        assembly.fail(section + "/Angle", "body '" + body.name() + "' moves in one direction: only a tube's loads take "
                                          "an angle (0 here)");
      const auto direction = in_plane(load.angle);
      if (load.distribution == LoadDistribution::point)
        return direction[0] * Vector(assembly.row(load.point, section, "Body", "Position")) +
               direction[1] * Vector(assembly.row(load.point, section, "Body", "Position", BodyField::second_deflection));
      const auto q = load.distribution == LoadDistribution::uniform ?
                       ParsedFunction{[](double) { return 1.0; }, {}} :
                       parse_expression(load.expression, description.filename, section + "/Expression");
      return assembly.place(b, direction[0] * body.field_load(BodyField::primary, q.value) +
                                 direction[1] * body.field_load(BodyField::second_deflection, q.value));
    }

    // The spatial vector of one load: a point row, consistent nodal forces of q(x) on a body, or
    // gravity on every body (a tube's along e1).
    Vector planar_load_vector(const LoadDescription &load, const Assembly &assembly, const CaseDescription &description)
    {
      const std::string section = "Load " + load.name;
      Vector            spatial = Vector::Zero(assembly.n_dofs());
      switch (load.distribution)
        {
          case LoadDistribution::point:
            spatial = Vector(assembly.row(load.point, section, "Body", "Position"));
            break;
          case LoadDistribution::uniform:
          case LoadDistribution::expression:
            {
              const auto b = assembly.body_index(load.point.body, section + "/Body");
              const auto q = load.distribution == LoadDistribution::uniform ?
                               ParsedFunction{[](double) { return 1.0; }, {}} :
                               parse_expression(load.expression, description.filename, section + "/Expression");
              spatial = assembly.place(b, assembly.bodies()[b]->distributed_load(q.value));
              break;
            }
          case LoadDistribution::gravity:
            for (std::size_t b = 0; b < assembly.bodies().size(); ++b)
              {
                const double rhoA = assembly.bodies()[b]->description().mass_per_length;
                spatial += assembly.place(b, assembly.bodies()[b]->distributed_load([rhoA](double) { return rhoA; }));
              }
            break;
        }
      return spatial;
    }

    // The load's spatial vector (at its angle where it has one), refused when not finite.
    Vector load_vector(const LoadDescription &load, const Assembly &assembly, const CaseDescription &description)
    {
      const bool   angled  = load.angle != 0.0 && load.distribution != LoadDistribution::gravity;
      const Vector spatial = angled ? tube_load_vector(load, assembly, description) :
                                      planar_load_vector(load, assembly, description);
      if (!spatial.allFinite())
        assembly.fail("Load " + load.name + "/" +
                        (load.distribution == LoadDistribution::expression ? "Expression" : "Amplitude"),
                      "the load vector is not finite (nan or inf)");
      return spatial;
    }

    void add_loads(model::StructuralModel &m, const Assembly &assembly, const CaseDescription &description)
    {
      for (const auto &load : description.loads)
        {
          const Vector     spatial = load_vector(load, assembly, description);
          model::BodyPoint point;
          if (load.distribution != LoadDistribution::gravity)
            point = body_point(assembly, load.point);
          m.loads.push_back(model::LoadTerm{load.name, spatial, time_function(load),
                                            load.distribution == LoadDistribution::point, point});
        }
    }

    // Each clearance support by the indices of the contacts and probe it was expanded into.
    void add_supports(model::StructuralModel &m, const CaseDescription &description)
    {
      const auto index_of = [](const auto &items, const std::string &name) {
        for (std::size_t i = 0; i < items.size(); ++i)
          if (items[i].name == name)
            return static_cast<unsigned int>(i);
        throw std::logic_error("support part '" + name + "' missing");
      };
      for (const auto &support : description.supports)
        if (support.shape == SupportShape::stops) // supports in space: add_spatial_supports
          m.supports.push_back(model::ClearanceSupport{support.name, index_of(m.contacts, support.name + "_lower"),
                                                     index_of(m.contacts, support.name + "_upper"),
                                                     index_of(m.probes, support.name), support.lower_gap,
                                                     support.upper_gap, support.flexible, support.preload});
    }

    // Rayleigh damping added to C; modal damping kept as its low-rank factors.
    void add_damping(model::StructuralModel &m, const Assembly &assembly, const CaseDescription &description)
    {
      const unsigned int n = assembly.n_dofs();
      const auto        &d = description.damping;
      if (d.rayleigh_mass > 0 || d.rayleigh_stiffness > 0)
        m.damping += d.rayleigh_mass * m.mass + d.rayleigh_stiffness * m.stiffness;
      if (d.n_damped_modes > 0)
        {
          if (d.n_damped_modes > n)
            assembly.fail("Damping/Number of damped modes", "the model has only " + std::to_string(n) + " DoFs");
          const auto modes = model::compute_modes(m, d.n_damped_modes);
          m.modal_damping.basis = m.mass * modes.shapes;
          m.modal_damping.coefficients.resize(d.n_damped_modes);
          for (unsigned int j = 0; j < d.n_damped_modes; ++j)
            m.modal_damping.coefficients[j] =
              2 * d.modal_ratios[std::min<std::size_t>(j, d.modal_ratios.size() - 1)] * modes.omegas[j];
        }
    }

    // A solver cannot start inside an obstacle: the impact law would act on a closed gap that
    // never opens. Zero (resting on the stop) is fine.
    void check_initial_gaps(const model::StructuralModel &m, const Assembly &assembly)
    {
      for (std::size_t c = 0; c < m.contacts.size(); ++c)
        {
          const auto  &contact = m.contacts[c];
          const double moved   = contact.row.dot(m.initial_displacement);
          const double gap     = contact.gap0 + moved;
          if (gap < -1e-9 * std::max(std::abs(contact.gap0), std::abs(moved)))
            assembly.fail("Contact " + contact.name + "/Gap",
                          "the initial state penetrates the contact: g(0) = " + std::to_string(gap) +
                            " (Gap " + std::to_string(contact.gap0) + ", initial displacement " +
                            std::to_string(moved) + ")");
        }
      for (const auto &support : m.spatial_supports)
        for (const auto &frame : model::contact_frames(support, m.initial_displacement))
          if (frame.gap < -1e-9 * (support.shape == model::SpatialSupport::Shape::annular ?
                                     support.clearance :
                                     support.sides[frame.candidate].distance))
            assembly.fail("Support " + support.name + "/" + (support.shape == model::SpatialSupport::Shape::annular ?
                                                               "Clearance" : "Side distances"),
                          "the initial state penetrates the support: g(0) = " + std::to_string(frame.gap) +
                            " at the wall whose normal is at " + std::to_string(frame.angle * 180 / M_PI) + " degrees");
    }
  } // namespace

  model::StructuralModel build_model(const CaseDescription &original)
  {
    const CaseDescription description = expand_supports(original);
    check_model_size(description);
    const Assembly         assembly(description);
    model::StructuralModel m;
    m.name = description.name;

    MatrixEntries entries;
    assemble_bodies(entries, m, assembly);
    assemble_lumped_elements(entries, assembly, description);
    set_matrices(m, entries, assembly);
    m.continuum = make_continuum(assembly, description); // before any modes: a tube's are found in pairs

    add_contacts(m, assembly, description);
    add_probes(m, assembly, description);
    add_loads(m, assembly, description);
    add_supports(m, description);
    add_spatial_supports(m, assembly, description);
    add_damping(m, assembly, description);

    m.geometry = make_geometry(assembly, description);
    set_initial_state(m, assembly, description);
    check_finite_initial_state(m, assembly, description);
    m.exact_modes = exact_modes(m);
    check_initial_gaps(m, assembly);
    return m;
  }
} // namespace vibroimpact::structure
