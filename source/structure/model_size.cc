// The memory a case's model will need, estimated from its elements before anything is built:
// a case that cannot fit is refused up front.
#include <vibroimpact/io/resources.h>

#include "assembly.h"

#include <sstream>

namespace vibroimpact::structure
{
  namespace
  {
    // The memory a model needs grows with its elements (mesh, DoF handler, sparse matrices and
    // factorisations, output geometry): measured about 3.5 kB per beam element with `modes`
    // (197 MB at 5 000 elements, 249 MB at 20 000). A model that cannot fit is refused up front
    // instead of growing until the machine swaps or kills it.
    constexpr double bytes_per_element = 4096;
  } // namespace

  void check_model_size(const CaseDescription &description)
  {
    double      elements = 0, largest = 0;
    std::string largest_body;
    for (const auto &body : description.bodies)
      if (const auto &kind = kind_traits(body.type); !kind.point && body.mesh_file.empty())
        {
          // In beam elements' DoFs (a tube's element holds more: its kind says how many).
          const double fields = kind.element_weight ? kind.element_weight(body) : 1;
          const double n = fields * body.n_elements * std::ldexp(1.0, static_cast<int>(body.refinements));
          elements += n;
          if (n > largest)
            largest = n, largest_body = body.name;
        }
    const double needed = elements * bytes_per_element, available = io::available_memory();
    if (needed > 0.8 * available)
      {
        std::ostringstream reason;
        reason << elements << " elements in all need about " << needed / 1e9 << " GB, more than the "
               << available / 1e9 << " GB this machine has available";
        throw io::InputError(description.filename, "Body " + largest_body + "/Number of elements", reason.str());
      }
  }
} // namespace vibroimpact::structure
