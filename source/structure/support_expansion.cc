// Clearance supports expanded into what they are made of: a probe, two contacts, flexible stops
// (point masses on springs and dashpots) and a preload.
#include "assembly.h"

namespace vibroimpact::structure
{
  // The supports as what they are made of: per support, a probe at the point, a contact with
  // each stop (rigid: the ground; flexible: a point-mass body on a spring and a dashpot to the
  // ground), and a constant point load for a preload. Names: <s>_lower, <s>_upper (contacts and
  // stop bodies <s>_lower_stop, ...), <s> (probe), <s>_preload.
  CaseDescription expand_supports(const CaseDescription &original)
  {
    CaseDescription d = original;
    for (const auto &support : original.supports)
      {
        const std::string section = "Support " + support.name + "/";
        const BodyDescription *body = original.find_body(support.point.body);
        if (body == nullptr)
          throw io::InputError(original.filename, section + "Body",
                               support.point.body.empty() ? "no body given" :
                                                            "there is no body named '" + support.point.body + "'");
        if (body->type != BodyType::beam)
          throw io::InputError(original.filename, section + "Body",
                               "body '" + body->name + "' is not a beam: a clearance support holds a beam");
        if (!(support.point.x >= 0 && support.point.x <= body->length))
          throw io::InputError(original.filename, section + "Position",
                               "x = " + std::to_string(support.point.x) + " lies outside beam '" + body->name +
                                 "' [0, " + std::to_string(body->length) + "]");
        d.probes.push_back({support.name, support.point});
        const auto axis = unit(body->axis), up = unit(body->deflection);
        for (const bool upper : {false, true})
          {
            const std::string name = support.name + (upper ? "_upper" : "_lower");
            const double      gap  = upper ? support.upper_gap : support.lower_gap;
            ContactDescription contact;
            contact.name        = name;
            contact.point       = support.point;
            contact.gap         = upper ? gap : -gap;
            contact.side        = upper ? ContactSide::above : ContactSide::below;
            contact.restitution = support.restitution;
            if (support.flexible)
              {
                BodyDescription stop;
                stop.name            = name + "_stop";
                stop.type            = BodyType::mass;
                stop.mass_per_length = support.stop_mass;
                stop.length          = 0.0;
                stop.deflection      = body->deflection;
                for (int c = 0; c < 3; ++c) // drawn where it stands
                  stop.origin[c] = body->origin[c] + support.point.x * axis[c] + gap * up[c];
                d.bodies.push_back(stop);
                d.elements.push_back({name + "_spring", ElementType::spring, {stop.name, 0.0}, {}, support.stop_stiffness});
                if (support.stop_damping > 0)
                  d.elements.push_back({name + "_dashpot", ElementType::dashpot, {stop.name, 0.0}, {}, support.stop_damping});
                contact.other = {stop.name, 0.0};
              }
            d.contacts.push_back(contact);
          }
        if (support.preload != 0.0)
          {
            LoadDescription load;
            load.name         = support.name + "_preload";
            load.distribution = LoadDistribution::point;
            load.point        = support.point;
            load.time         = TimeDependence::constant;
            load.amplitude    = support.preload;
            d.loads.push_back(load);
          }
      }
    return d;
  }
} // namespace vibroimpact::structure
