// Internal-resonance tongues on a branch (tongues.h): frequency lock between neighbouring points
// and the mode and ratio of the resonance that locks it.
#include <vibroimpact/periodic/tongues.h>

#include <cmath>
#include <limits>

namespace vibroimpact::periodic
{
  namespace
  {
    // |d ln ω / d ln E| from point a to b; ∞ where the energy barely moves (a fold in E).
    double frequency_slope(const BranchPoint &a, const BranchPoint &b)
    {
      const double d_energy = std::abs(std::log(b.energy / a.energy));
      if (d_energy < 1e-4)
        return std::numeric_limits<double>::infinity();
      return std::abs(std::log(b.frequency / a.frequency)) / d_energy;
    }

    // The resonance r ω ≈ ω_k nearest in relative terms, among both spectra; "locked" when none
    // is within the tolerance.
    std::string resonance(const double omega, const std::vector<double> &free, const std::vector<double> &held,
                          const unsigned int family_mode, const TongueCriteria &c)
    {
      double      best = c.resonance_tolerance;
      std::string label = "locked";
      for (const bool is_held : {false, true})
        {
          const auto &spectrum = is_held ? held : free;
          for (std::size_t k = 0; k < spectrum.size(); ++k)
            for (unsigned int r = 1; r <= c.max_ratio; ++r)
              {
                if (!is_held && r == 1 && k + 1 == family_mode)
                  continue; // the family's own backbone
                const double mismatch = std::abs(r * omega / spectrum[k] - 1.0);
                if (mismatch < best)
                  {
                    best  = mismatch;
                    label = std::string(is_held ? "held mode " : "mode ") + std::to_string(k + 1) + " at 1:" +
                            std::to_string(r); // no comma: a CSV cell
                  }
              }
        }
      return label;
    }
  } // namespace

  std::vector<std::string> tongue_labels(const Branch &branch, const std::vector<double> &free_frequencies,
                                         const std::vector<double> &held_frequencies, const unsigned int family_mode,
                                         const TongueCriteria &criteria)
  {
    const auto              &p = branch.points;
    std::vector<std::string> labels(p.size());
    for (std::size_t k = 0; k < p.size(); ++k)
      {
        double slope = std::numeric_limits<double>::infinity();
        if (k > 0)
          slope = std::min(slope, frequency_slope(p[k - 1], p[k]));
        if (k + 1 < p.size())
          slope = std::min(slope, frequency_slope(p[k], p[k + 1]));
        if (slope < criteria.lock_slope)
          labels[k] = resonance(p[k].frequency, free_frequencies, held_frequencies, family_mode, criteria);
      }
    return labels;
  }
} // namespace vibroimpact::periodic
