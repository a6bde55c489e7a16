// The structure as it is drawn: points along every body (finer than the mesh) and at every
// contact, segments between them, and the sparse map from DoFs to their 3-D displacement (a
// tube's points move along e1, e2 and its axis; its twist is not drawn).
#include "assembly.h"

namespace vibroimpact::structure
{
  model::OutputGeometry make_geometry(const Assembly &assembly, const CaseDescription &description)
  {
    model::OutputGeometry               geometry;
    std::vector<Eigen::Triplet<double>> map, rotation;
    for (std::size_t b = 0; b < assembly.bodies().size(); ++b)
      {
        const Body &body      = *assembly.bodies()[b];
        const auto  axis      = unit(body.description().axis);
        const auto  direction = unit(body.motion_direction());
        geometry.body_names.push_back(body.name());
        geometry.body_directions.push_back(direction);
        const auto   xs    = body.sample_coordinates(description.samples_per_element);
        const auto   first = static_cast<unsigned int>(geometry.points.size());
        for (const double x : xs)
          {
            const auto p = static_cast<unsigned int>(geometry.points.size());
            geometry.point_body.push_back(b);
            geometry.point_coordinate.push_back(x);
            geometry.points.push_back({{body.description().origin[0] + x * axis[0],
                                        body.description().origin[1] + x * axis[1],
                                        body.description().origin[2] + x * axis[2]}});
            for (const auto &[dof, weight] : body.rotation_row(x))
              rotation.emplace_back(p, assembly.offset(b) + dof, weight);
            // Every displacement field along its own direction: a tube's point moves in 3-D.
            for (const BodyField field : body.fields())
              {
                const auto along = field == BodyField::primary ? direction : unit(body.field_direction(field));
                for (const auto &[dof, weight] : body.field_row(x, field))
                  for (unsigned int c = 0; c < 3; ++c)
                    if (along[c] != 0.0)
                      map.emplace_back(3 * p + c, assembly.offset(b) + dof, weight * along[c]);
              }
          }
        const auto last = static_cast<unsigned int>(geometry.points.size()) - 1;
        if (first == last) // a point mass is drawn as a vertex
          geometry.segments.push_back({{first, first}}), geometry.segment_body.push_back(b);
        for (unsigned int p = first; p < last; ++p)
          geometry.segments.push_back({{p, p + 1}}), geometry.segment_body.push_back(b);
      }
    // Each contact is drawn as a vertex that moves with its point, to carry its impulse.
    for (const auto &contact : description.contacts)
      {
        const auto b         = assembly.body_index(contact.point.body, "Contact " + contact.name + "/Body");
        const auto &body     = *assembly.bodies()[b];
        const auto direction = unit(body.motion_direction());
        const auto p         = static_cast<unsigned int>(geometry.points.size());
        geometry.points.push_back(assembly.location(contact.point));
        geometry.point_body.push_back(b);
        geometry.point_coordinate.push_back(contact.point.x);
        geometry.contact_points.push_back(p);
        geometry.segments.push_back({{p, p}});
        geometry.segment_body.push_back(b);
        for (const auto &[dof, weight] : body.displacement_row(std::clamp(contact.point.x, 0.0, body.length())))
          for (unsigned int c = 0; c < 3; ++c)
            if (direction[c] != 0.0)
              map.emplace_back(3 * p + c, assembly.offset(b) + dof, weight * direction[c]);
      }
    geometry.displacement_map.resize(3 * geometry.points.size(), assembly.n_dofs());
    geometry.displacement_map.setFromTriplets(map.begin(), map.end());
    if (!rotation.empty())
      {
        geometry.rotation_map.resize(static_cast<Eigen::Index>(geometry.points.size()), assembly.n_dofs());
        geometry.rotation_map.setFromTriplets(rotation.begin(), rotation.end());
      }
    return geometry;
  }
} // namespace vibroimpact::structure
