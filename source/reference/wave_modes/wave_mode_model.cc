// The wave-mode reference's model checks and data (wave_mode_model.h).
#include "wave_mode_model.h"

#include <vibroimpact/io/input_error.h>

namespace vibroimpact::reference
{
  namespace wave_modes
  {
    using Body = model::ContinuumBody;

    Layout inspect(const model::StructuralModel &m, const std::string &file)
    {
      const std::string why = "the wave modes represent exactly one clamped-free beam whose free tip touches the "
                              "free end of one fixed-free rod";
      Layout            layout;
      const auto       &bodies = m.continuum.bodies;
      for (std::size_t b = 0; b < bodies.size(); ++b)
        {
          const auto       &body    = bodies[b];
          const std::string section = "Body " + body.name + "/";
          // An Euler–Bernoulli bending field or a St Venant axial one; any other kind is refused
          // by its name (a point mass, a tube, a kind added later).
          if (body.field == Body::Field::other)
            throw io::InputError(file, section + "Type", "a " + body.kind + ": " + why);
          const bool beam = body.field == Body::Field::bending;
          int       &slot = beam ? layout.beam : layout.rod;
          if (slot >= 0)
            throw io::InputError(file, section + "Type", "a second " + std::string(beam ? "beam" : "rod") + ": " + why);
          slot = static_cast<int>(b);
          if (body.left != Body::End::clamped)
            throw io::InputError(file, section + "Left end", "must be clamped (fixed): " + why);
          if (body.right != Body::End::free)
            throw io::InputError(file, section + "Right end", "must be free: " + why);
        }
      if (layout.beam < 0 || layout.rod < 0)
        throw io::InputError(file, "Wave modes/Number of modes", "the model has no " +
                               std::string(layout.beam < 0 ? "beam" : "rod") + ": " + why);
      if (m.continuum.n_lumped_elements > 0)
        throw io::InputError(file, "Wave modes/Number of modes",
                             "lumped masses, springs or dashpots cannot be represented: " + why);
      const bool damped = m.damping.nonZeros() > 0 && m.damping.coeffs().cwiseAbs().maxCoeff() > 0;
      if (damped || !m.modal_damping.empty())
        throw io::InputError(file, "Damping", "the wave modes are undamped: remove the damping (Rayleigh coefficients, modal ratios)");
      if (m.contacts.size() != 1)
        throw io::InputError(file, "Wave modes/Number of modes",
                             "the model has " + std::to_string(m.contacts.size()) + " contacts: " + why);
      const auto       &contact  = m.contacts.front();
      const std::string csection = "Contact " + contact.name + "/";
      const auto        at_tip   = [&](const model::BodyPoint &p, int body) {
        return p.body == body && std::abs(p.x - bodies[body].length) <= 1e-9 * bodies[body].length;
      };
      if (at_tip(contact.point, layout.beam) && at_tip(contact.other, layout.rod))
        layout.side = contact.side;
      else if (at_tip(contact.point, layout.rod) && at_tip(contact.other, layout.beam))
        layout.side = -contact.side;
      else
        throw io::InputError(file, csection + "Position", "the contact must join the beam's free tip and the rod's "
                                                          "free end: " + why);
      layout.gap0 = contact.gap0;
      for (const auto &load : m.loads)
        if (!load.concentrated || !at_tip(load.point, layout.beam))
          throw io::InputError(file, "Load " + load.name + "/Distribution",
                               "the wave modes take only a point force at the beam's free tip");
      const auto &beam = bodies[layout.beam], &rod = bodies[layout.rod];
      layout.data      = {beam.stiffness, beam.mass_per_length, beam.length,
                          rod.stiffness,  rod.mass_per_length,  rod.length};
      return layout;
    }
  } // namespace wave_modes

  BeamRodData beam_rod_data(const model::StructuralModel &model, const std::string &file)
  {
    return wave_modes::inspect(model, file).data;
  }
} // namespace vibroimpact::reference
