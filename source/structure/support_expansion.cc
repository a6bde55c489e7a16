// Supports expanded into what they are made of. Stops (a beam's planar clearance support): a
// probe, two contacts, flexible stops (point masses on springs and dashpots) and a preload.
// Supports in space (a tube's annular, flat-bar or polygonal support): a probe in each plane, a
// flexible support's ring (a point mass along e1 and one along e2, each on a spring and a dashpot
// to the ground), a preload, and then the model::SpatialSupport that solvers read.
#include "assembly.h"

#include <cmath>

namespace vibroimpact::structure
{
  namespace
  {
    // The body a support holds, refused when missing, of the wrong kind, or when the point is off it.
    const BodyDescription &supported_body(const CaseDescription &original, const SupportDescription &support)
    {
      const std::string      section = "Support " + support.name + "/";
      const BodyDescription *body    = original.find_body(support.point.body);
      if (body == nullptr)
        throw io::InputError(original.filename, section + "Body",
                             support.point.body.empty() ? "no body given" :
                                                          "there is no body named '" + support.point.body + "'");
      const bool in_space = support.shape != SupportShape::stops;
      const auto &kind     = kind_traits(body->type);
      if (in_space && !kind.in_space)
        throw io::InputError(original.filename, section + "Shape",
                             "body '" + body->name + "' is a planar " + std::string(body->type.name()) +
                               ": a support in space (annular, flat bar, polygonal) holds a tube (Type = tube); a "
                               "planar beam takes Shape = stops");
      if (!in_space && !kind.bending)
        throw io::InputError(original.filename, section + "Body",
                             "body '" + body->name + "' is not a beam: a clearance support holds a beam");
      if (!(support.point.x >= 0 && support.point.x <= body->length))
        throw io::InputError(original.filename, section + "Position",
                             "x = " + std::to_string(support.point.x) + " lies outside " +
                               std::string(body->type.name()) + " '" + body->name + "' [0, " +
                               std::to_string(body->length) + "]");
      return *body;
    }

    // A constant point force at the support (a load's angle turns it in a tube's plane).
    void add_preload(CaseDescription &d, const SupportDescription &support)
    {
      if (support.preload == 0.0)
        return;
      LoadDescription load;
      load.name         = support.name + "_preload";
      load.distribution = LoadDistribution::point;
      load.point        = support.point;
      load.time         = TimeDependence::constant;
      load.amplitude    = support.preload;
      load.angle        = support.shape == SupportShape::stops ? 0.0 : support.preload_angle;
      d.loads.push_back(load);
    }

    // A point-mass body on a spring and a dashpot to the ground, drawn at `origin`, moving along
    // `direction`: a flexible stop, or one of the two of a flexible support's ring.
    void add_oscillator(CaseDescription &d, const std::string &name, const SupportDescription &support,
                        const std::array<double, 3> &origin, const std::array<double, 3> &direction)
    {
      BodyDescription mass;
      mass.name            = name;
      mass.type            = BodyKindRegistry::point_mass();
      mass.mass_per_length = support.stop_mass;
      mass.length          = 0.0;
      mass.deflection      = direction;
      mass.origin          = origin;
      d.bodies.push_back(mass);
      d.elements.push_back({name + "_spring", ElementType::spring, {name, 0.0}, {}, support.stop_stiffness});
      if (support.stop_damping > 0)
        d.elements.push_back({name + "_dashpot", ElementType::dashpot, {name, 0.0}, {}, support.stop_damping});
    }

    void expand_stops(CaseDescription &d, const SupportDescription &support, const BodyDescription &body)
    {
      d.probes.push_back({support.name, support.point});
      const auto axis = unit(body.axis), up = unit(body.deflection);
      for (const bool upper : {false, true})
        {
          const std::string  name = support.name + (upper ? "_upper" : "_lower");
          const double       gap  = upper ? support.upper_gap : support.lower_gap;
          ContactDescription contact;
          contact.name        = name;
          contact.point       = support.point;
          contact.gap         = upper ? gap : -gap;
          contact.side        = upper ? ContactSide::above : ContactSide::below;
          contact.restitution = support.restitution;
          if (support.flexible)
            {
              std::array<double, 3> origin; // drawn where it stands
              for (int c = 0; c < 3; ++c)
                origin[c] = body.origin[c] + support.point.x * axis[c] + gap * up[c];
              add_oscillator(d, name + "_stop", support, origin, body.deflection);
              contact.other = {name + "_stop", 0.0};
            }
          d.contacts.push_back(contact);
        }
      add_preload(d, support);
    }

    // Names: probes <s>_e1, <s>_e2 (the tube at the point, along e1 and e2); ring bodies
    // <s>_ring_e1, <s>_ring_e2 with their <...>_spring and <...>_dashpot; load <s>_preload.
    void expand_in_space(CaseDescription &d, const SupportDescription &support, const BodyDescription &body)
    {
      d.probes.push_back({support.name + "_e1", support.point, BodyField::primary});
      d.probes.push_back({support.name + "_e2", support.point, BodyField::second_deflection});
      if (support.flexible)
        {
          const auto            frame = tube_frame(body);
          std::array<double, 3> origin;
          for (int c = 0; c < 3; ++c)
            origin[c] = body.origin[c] + support.point.x * frame[0][c];
          add_oscillator(d, support.name + "_ring_e1", support, origin, frame[1]);
          add_oscillator(d, support.name + "_ring_e2", support, origin, frame[2]);
        }
      add_preload(d, support);
    }

    // The sides of a flat bar or polygon in (e1, e2): each listed normal turned by the orientation.
    std::vector<model::SupportSide> sides_of(const SupportDescription &support)
    {
      std::vector<double> angles = support.side_angles, distances = support.side_distances;
      if (support.shape == SupportShape::flat_bar)
        angles = {0.0, 180.0}, distances.clear();
      std::vector<model::SupportSide> sides;
      for (std::size_t k = 0; k < angles.size(); ++k)
        {
          const double          angle = (angles[k] + support.orientation) * M_PI / 180;
          model::SupportSide    side;
          side.normal   = {{std::cos(angle), std::sin(angle)}};
          side.distance = distances.empty() ? support.clearance : distances[k];
          sides.push_back(side);
        }
      return sides;
    }
  } // namespace

  CaseDescription expand_supports(const CaseDescription &original)
  {
    CaseDescription d = original;
    for (const auto &support : original.supports)
      {
        const BodyDescription &body = supported_body(original, support);
        if (support.shape == SupportShape::stops)
          expand_stops(d, support, body);
        else
          expand_in_space(d, support, body);
      }
    return d;
  }

  // Each support in space as the rows of its tube point relative to its ring (rigid: to the
  // ground), its geometry and its laws.
  void add_spatial_supports(model::StructuralModel &m, const Assembly &assembly, const CaseDescription &description)
  {
    for (const auto &support : description.supports)
      {
        if (support.shape == SupportShape::stops)
          continue;
        const std::string section = "Support " + support.name;
        const auto       &body    = *assembly.bodies()[assembly.body_index(support.point.body, section + "/Body")];
        model::SpatialSupport s;
        s.name  = support.name;
        s.shape = support.shape == SupportShape::annular ? model::SpatialSupport::Shape::annular :
                                                           model::SpatialSupport::Shape::polygonal;
        const BodyField planes[2] = {BodyField::primary, BodyField::second_deflection};
        for (unsigned int i = 0; i < 2; ++i)
          {
            s.transverse[i] = assembly.row(support.point, section, "Body", "Position", planes[i]);
            if (support.flexible)
              s.transverse[i] -= assembly.row({support.name + (i == 0 ? "_ring_e1" : "_ring_e2"), 0.0}, section,
                                              "Type", "Position");
            s.transverse[i].prune(0.0);
          }
        if (s.transverse[0].nonZeros() == 0 && s.transverse[1].nonZeros() == 0)
          assembly.fail(section + "/Position", "the tube cannot move at x = " + std::to_string(support.point.x) +
                                                 " (a pinned or clamped end): the support would never act");
        s.axial = body.has_field(BodyField::axial) ?
                    assembly.row(support.point, section, "Body", "Position", BodyField::axial) :
                    model::SparseRowVector(assembly.n_dofs());
        s.twist = body.has_field(BodyField::twist) ?
                    assembly.row(support.point, section, "Body", "Position", BodyField::twist) :
                    model::SparseRowVector(assembly.n_dofs());
        s.axial.prune(0.0);
        s.twist.prune(0.0);
        s.outer_radius = body.outer_radius();
        s.centre       = support.centre;
        s.clearance    = support.clearance;
        if (s.shape == model::SpatialSupport::Shape::polygonal)
          s.sides = sides_of(support);
        s.friction    = support.friction;
        s.restitution = support.restitution;
        s.flexible    = support.flexible;
        s.location    = assembly.location(support.point);
        const auto frame = tube_frame(body.description());
        s.directions     = {{frame[1], frame[2]}};
        m.spatial_supports.push_back(std::move(s));
      }
  }
} // namespace vibroimpact::structure
