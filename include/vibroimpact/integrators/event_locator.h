// Locates the earliest event of a set of watched functions on the dense output of an ODE step:
// an event is a function falling from > 0 to <= 0 (a gap closing, a sticking multiplier
// vanishing). Each step is sampled at a few sub-points; a bracket is refined by TOMS 748
// (Boost.Math). A function with a known rate is also checked for a minimum inside a sample
// interval (rate from − to +), so that a gap that closes and reopens between two samples
// (grazing, a double crossing) is not missed. Used by the event-driven modal solvers.
#pragma once

#include <functional>
#include <optional>
#include <vector>

namespace vibroimpact::integrators
{
  class EventLocator
  {
  public:
    using State    = std::vector<double>;
    using StateAt  = std::function<void(double, State &)>;
    using Function = std::function<double(double, const State &)>;

    struct Watched
    {
      Function value;            // the event: value falls from > 0 to <= 0
      Function rate;             // d value / dt, or empty (no grazing check)
      bool     late_side = false; // report the bracket's end where value <= 0 (releases) instead
                                  // of the last time with value > 0 (impacts: no penetration)
    };

    struct Found
    {
      double       time  = 0.0;
      unsigned int index = 0;
    };

    // t0, y0: the segment's start. A function not positive there is disarmed until it is.
    EventLocator(std::vector<Watched> watched, StateAt state_at, double t0, const State &y0);

    // Samples (previous sample, t_end] at `samples` evenly spaced points of [t_begin, t_end]
    // and returns the earliest event there, if any.
    std::optional<Found> scan(double t_begin, double t_end, unsigned int samples);

  private:
    std::vector<Watched> watched_;
    StateAt              state_at_;
    std::vector<double>  previous_, previous_rate_;
    double               previous_time_;
  };
} // namespace vibroimpact::integrators
