// Event location for the modal solvers (see integrators/event_locator.h): dense output sampled per
// ODE step, sign changes bracketed and refined by TOMS 748.
#include <vibroimpact/integrators/event_locator.h>

#include <boost/math/tools/roots.hpp>
#include <boost/math/tools/toms748_solve.hpp>

#include <limits>

namespace vibroimpact::integrators
{
  EventLocator::EventLocator(std::vector<Watched> watched, StateAt state_at, const double t0, const State &y0)
    : watched_(std::move(watched))
    , state_at_(std::move(state_at))
    , previous_time_(t0)
  {
    for (const auto &w : watched_)
      {
        previous_.push_back(w.value(t0, y0));
        previous_rate_.push_back(w.rate ? w.rate(t0, y0) : 0.0);
      }
  }

  std::optional<EventLocator::Found> EventLocator::scan(const double t_begin, const double t_end,
                                                        const unsigned int samples)
  {
    const auto tolerance = boost::math::tools::eps_tolerance<double>(std::numeric_limits<double>::digits - 3);
    const std::size_t n  = watched_.size();
    State             y;
    std::optional<Found> found;
    for (unsigned int m = 1; m <= samples && !found; ++m)
      {
        const double tau = m == samples ? t_end : t_begin + (t_end - t_begin) * m / samples;
        if (tau <= previous_time_)
          continue;
        state_at_(tau, y);
        std::vector<double> value(n), rate(n);
        for (std::size_t i = 0; i < n; ++i)
          {
            value[i] = watched_[i].value(tau, y);
            rate[i]  = watched_[i].rate ? watched_[i].rate(tau, y) : 0.0;
          }

        for (std::size_t i = 0; i < n; ++i)
          {
            const auto f = [&, i](double t) {
              State yy;
              state_at_(t, yy);
              return watched_[i].value(t, yy);
            };
            double a = previous_time_, b = tau, fa = previous_[i], fb = value[i];
            if (!(fa > 0))
              continue; // disarmed until positive (e.g. just released, lambda ~ 0)
            if (!(fb <= 0) && watched_[i].rate && previous_rate_[i] < 0 && rate[i] > 0)
              {
                // A minimum inside: look at it (grazing or a double crossing).
                const auto fu = [&, i](double t) {
                  State yy;
                  state_at_(t, yy);
                  return watched_[i].rate(t, yy);
                };
                std::uintmax_t it = 100;
                const auto r = boost::math::tools::toms748_solve(fu, a, b, previous_rate_[i], rate[i], tolerance, it);
                const double tm = 0.5 * (r.first + r.second);
                const double fm = f(tm);
                if (fm <= 0)
                  {
                    b  = tm;
                    fb = fm;
                  }
              }
            if (!(fb <= 0))
              continue;
            double root = b;
            if (fb < 0)
              {
                std::uintmax_t it = 200;
                const auto     r  = boost::math::tools::toms748_solve(f, a, b, fa, fb, tolerance, it);
                root              = watched_[i].late_side ? r.second : r.first;
              }
            if (!found || root < found->time)
              found = Found{root, static_cast<unsigned int>(i)};
          }
        previous_      = value;
        previous_rate_ = rate;
        previous_time_ = tau;
      }
    return found;
  }
} // namespace vibroimpact::integrators
