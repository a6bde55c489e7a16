// Round-off against discretisation error of the stepper's elastic forces, per body: the
// estimates and the warnings `modes` and `simulate` print.
#include <vibroimpact/structure/body.h>
#include <vibroimpact/structure/model_builder.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace vibroimpact::structure
{
  std::vector<ConditioningEstimate> conditioning_estimates(const CaseDescription &description)
  {
    std::vector<ConditioningEstimate> estimates;
    const double epsilon = std::numeric_limits<double>::epsilon();
    for (const auto &body : description.bodies)
      {
        const auto &kind = kind_traits(body.type);
        if (kind.point || !body.mesh_file.empty())
          continue;
        ConditioningEstimate e;
        e.body                 = body.name;
        e.elements             = body.n_elements << body.refinements;
        const double ratio     = M_PI / e.elements; // πh/L
        const bool   beam      = kind.bending; // bending sets p
        const bool   quadratic = !beam && body.degree == 2;
        e.roundoff_bound       = 0.5 * epsilon * std::pow(ratio, beam ? -4 : -2);
        e.discretisation_error = beam ? std::pow(ratio, 4) / 1440 : quadratic ? std::pow(ratio, 4) / 2880 : ratio * ratio / 24;
        estimates.push_back(e);
      }
    return estimates;
  }

  std::vector<std::string> conditioning_warnings(const CaseDescription &description, const double threshold)
  {
    std::vector<std::string> warnings;
    for (const auto &e : conditioning_estimates(description))
      {
        const bool dominant = e.roundoff_bound > e.discretisation_error;
        if (threshold > 0 ? e.roundoff_bound <= threshold : !dominant)
          continue;
        std::ostringstream line;
        line << "Body " << e.body << ": at " << e.elements << " elements round-off in the relative error of omega_1 is estimated at "
             << e.roundoff_bound << " (eps (L/(pi h))^p / 2), " << (dominant ? "above" : "against")
             << " its discretisation error " << e.discretisation_error
             << (dominant ? ": refining further does not make it more accurate" : "");
        warnings.push_back(line.str());
      }
    return warnings;
  }
} // namespace vibroimpact::structure
