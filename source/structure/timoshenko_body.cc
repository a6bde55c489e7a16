// Timoshenko beam (doc/theory.md, "Timoshenko beam"): one TimoshenkoPlane (body_fields.h), the
// deflection w and the rotation θ of the cross-section, each an FE_Q field of the body's Element
// degree on one mesh, with the energies ½∫EI θ'² + ½∫κGA (w' − θ)² and ½∫ρA ẇ² + ½∫ρI θ̇². The
// shear term is integrated by Gauss rules one point short of the field's (selective reduced
// integration), so that the beam does not lock as it gets slender: with full integration linear
// elements cannot bend without shearing. DoFs in blocks: w, then θ.
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/structure/body.h>
#include <vibroimpact/structure/timoshenko_description.h>

#include "body_fields.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace vibroimpact::structure
{
  namespace
  {
    const TimoshenkoDescription &timoshenko_of(const BodyDescription &d)
    {
      return d.kind_entries<TimoshenkoDescription>();
    }

    class TimoshenkoBody : public OneFieldBody<TimoshenkoPlane>
    {
    public:
      using OneFieldBody::OneFieldBody;

      Row rotation_row(const double x) const override { return field_.rotation_row(x, 0); }

      std::array<double, 3> motion_direction() const override { return description().deflection; }

      std::vector<std::pair<std::string, double>> material_data() const override
      {
        auto        data = Body::material_data();
        const auto &t    = timoshenko_of(description());
        data.insert(data.end(), {{"Shear stiffness", t.shear_stiffness},
                                 {"Rotary inertia per unit length", t.rotary_inertia}});
        return data;
      }
    };

    constexpr std::string_view timoshenko_kind = "timoshenko beam";

    // The entries only a Timoshenko beam reads: κGA and ρI (its EI is Bending stiffness, its ρA
    // Mass per unit length, its elements' degree Element degree).
    void bind_timoshenko_entries(io::ParameterSection &s, BodyDescription &body)
    {
      TimoshenkoDescription &t = body.kind_entries<TimoshenkoDescription>();
      s.add("Shear stiffness", t.shear_stiffness, io::non_negative(),
            "κGA of a timoshenko beam (force): its shear correction factor × shear modulus × area.");
      s.add("Rotary inertia per unit length", t.rotary_inertia, io::non_negative(),
            "ρI of a timoshenko beam (mass × length): the cross-section's rotary inertia.");
      if (!s.reading() || body.type.name() != timoshenko_kind)
        return;
      const auto number = [](const double value) {
        std::ostringstream text;
        text << value;
        return text.str();
      };
      if (!(t.shear_stiffness > 0))
        s.fail("Shear stiffness", "a timoshenko beam needs its shear stiffness κGA (positive), got " +
                                    number(t.shear_stiffness));
      if (!(t.rotary_inertia > 0))
        s.fail("Rotary inertia per unit length",
               "a timoshenko beam needs its rotary inertia ρI (positive), got " + number(t.rotary_inertia));
    }

    const BodyKindRegistration timoshenko_kind_registration{
      {std::string(timoshenko_kind),
       "timoshenko beam: shear-deformable, deflection and rotation as FE_Q fields of Element degree (shear by "
       "reduced integration)",
       4, factory_of<TimoshenkoBody>(),
       [] {
         BodyKindTraits t(model::ContinuumBody::Field::other, {BodyKindTraits::Trait::bending});
         t.element_weight = [](const BodyDescription &d) { return 0.5 * (d.degree + 1); }; // two fields of p DoFs a node
         return t;
       }(),
       bind_timoshenko_entries}};
  } // namespace

  std::vector<double> pinned_pinned_timoshenko_frequencies(const double EI, const double kGA, const double rhoA,
                                                           const double rhoI, const double L, const unsigned int n)
  {
    // ρAρI ω⁴ − (ρA(EI k² + κGA) + ρI κGA k²) ω² + EI κGA k⁴ = 0, both roots for each of the
    // first n wavenumbers (n wavenumbers hold the n lowest), and at k = 0 the shear branch's
    // root ω² = κGA/ρI: w = 0 with a uniform rotation θ, which the pins allow (no moment EI θ').
    std::vector<double> omegas{std::sqrt(kGA / rhoI)};
    for (unsigned int j = 1; j <= n; ++j)
      {
        const double k = j * M_PI / L, a = rhoA * rhoI, b = rhoA * (EI * k * k + kGA) + rhoI * kGA * k * k,
                     c = EI * kGA * k * k * k * k;
        const double root = std::sqrt(b * b - 4 * a * c), q = 0.5 * (b + root);
        omegas.push_back(std::sqrt(c / q)); // the bending branch, without cancellation
        omegas.push_back(std::sqrt(q / a)); // the shear branch
      }
    std::sort(omegas.begin(), omegas.end());
    omegas.resize(n);
    return omegas;
  }
} // namespace vibroimpact::structure
