// The energy ledger of a Moreau–Jean run (see integrators/energy_ledger.h): the work and the
// dissipations accumulated step by step, and the balance error they leave.
#include <vibroimpact/integrators/energy_ledger.h>

#include <algorithm>
#include <cmath>

namespace vibroimpact::integrators
{
  EnergyLedger::EnergyLedger(const double kinetic, const double potential)
    : initial_(kinetic + potential)
    , kinetic_(kinetic)
    , potential_(potential)
    , scale_(std::abs(kinetic) + std::abs(potential))
  {}

  void EnergyLedger::record(const StepEnergy &step, const double kinetic, const double potential)
  {
    sums_.external_work += step.external_work;
    sums_.damping_dissipation += step.damping_dissipation;
    sums_.impact_dissipation += step.impact_dissipation;
    sums_.friction_dissipation += step.friction_dissipation;
    sums_.numerical_dissipation += step.numerical_dissipation;
    sums_.correction_work += step.correction_work;
    sums_.correction_beta = step.correction_beta;
    kinetic_   = kinetic;
    potential_ = potential;
    // The round-off of the balance grows with the largest quantity in it, not with E alone.
    scale_ = std::max({scale_, std::abs(kinetic) + std::abs(potential), std::abs(sums_.external_work),
                       sums_.damping_dissipation, std::abs(sums_.impact_dissipation), sums_.friction_dissipation,
                       sums_.numerical_dissipation, std::abs(sums_.correction_work)});
  }

  double EnergyLedger::balance_error() const
  {
    return total() - initial_ - sums_.external_work + sums_.damping_dissipation +
           sums_.impact_dissipation + sums_.friction_dissipation + sums_.numerical_dissipation -
           sums_.correction_work;
  }

  double EnergyLedger::relative_balance_error() const
  {
    return scale_ > 0 ? balance_error() / scale_ : balance_error();
  }
} // namespace vibroimpact::integrators
