// The terminal progress bar (see io/progress_bar.h): drawn only on a terminal and without -q,
// redrawn in place with \r, a status text after it.
#include <vibroimpact/io/progress_bar.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace vibroimpact::io
{
  namespace
  {
    // One a thread: a call in another thread reports to its own caller.
    struct ThreadProgress
    {
      ProgressSink   sink;
      unsigned int   open_bars = 0;
      bool           planned   = false;
      unsigned int   phases    = 1;
      int            phase     = -1; // the phase running, -1 before the first
      double         fraction  = 0;  // the last reported
      ProgressReport last;
    };

    ThreadProgress &thread_progress()
    {
      thread_local ThreadProgress state;
      return state;
    }
  } // namespace

  ProgressSink set_progress_sink(ProgressSink sink)
  {
    std::swap(sink, thread_progress().sink);
    return sink;
  }

  ProgressPlan::ProgressPlan(const unsigned int phases)
  {
    auto &state    = thread_progress();
    state.planned  = true;
    state.phases   = std::max(phases, 1u);
    state.phase    = -1;
    state.fraction = 0;
  }

  ProgressPlan::~ProgressPlan()
  {
    auto &state = thread_progress();
    if (state.sink && state.phase >= 0 && state.fraction < 1)
      {
        state.last.done     = state.last.total;
        state.last.fraction = state.fraction = 1;
        state.sink(state.last);
      }
    state.planned = false;
    state.phases  = 1;
    state.phase   = -1;
  }

  ProgressBar::ProgressBar(std::string label, const double total, const bool quiet)
    : label_(std::move(label))
    , total_(total > 0 ? total : 1.0)
    , visible_(!quiet && isatty(STDERR_FILENO) && isatty(STDOUT_FILENO))
    , start_(std::chrono::steady_clock::now())
  {
    auto &state = thread_progress();
    outermost_  = state.open_bars++ == 0;
    if (!outermost_)
      return;
    if (state.planned)
      ++state.phase;
    else
      {
        state.phase    = 0;
        state.fraction = 0;
      }
    report(0.0); // the phase starts: its name before its first thousandth
  }

  ProgressBar::~ProgressBar()
  {
    finish();
    --thread_progress().open_bars;
  }

  void ProgressBar::report(const double done)
  {
    auto &state = thread_progress();
    if (!state.sink || !outermost_)
      return;
    const double within   = std::clamp(done / total_, 0.0, 1.0);
    const int    permille = static_cast<int>(1000 * within);
    if (permille == last_reported_)
      return;
    last_reported_    = permille;
    const auto phase  = static_cast<unsigned int>(std::max(state.phase, 0));
    const auto count  = std::max(state.phases, phase + 1);
    state.fraction    = std::max(state.fraction, (phase + within) / count);
    state.last        = ProgressReport{label_, phase, count, done, total_, state.fraction};
    state.sink(state.last);
  }

  void ProgressBar::update(const double done)
  {
    if (finished_)
      return;
    report(done);
    if (!visible_)
      return;
    done_                 = done;
    const double fraction = std::clamp(done / total_, 0.0, 1.0);
    const int    permille = static_cast<int>(1000 * fraction);
    if (permille == last_permille_)
      return;
    last_permille_ = permille;

    constexpr int width  = 40;
    const int     filled = static_cast<int>(width * fraction);
    const double  elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double remaining = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0.0;
    std::fprintf(stderr,
                 "\r%s [%.*s%*s] %5.1f%%  %6.1fs elapsed, %6.1fs left%s%s\033[K",
                 label_.c_str(),
                 filled,
                 "########################################",
                 width - filled,
                 "",
                 100 * fraction,
                 elapsed,
                 remaining,
                 status_.empty() ? "" : "  ",
                 status_.c_str());
    std::fflush(stderr);
  }

  void ProgressBar::status(std::string text)
  {
    if (!visible_ || finished_)
      return;
    status_        = std::move(text);
    last_permille_ = -1;
    update(done_);
  }

  void ProgressBar::say(const std::string &line) const
  {
    if (visible_ && !finished_)
      std::fprintf(stderr, "%s\n", line.c_str());
  }

  void ProgressBar::finish()
  {
    if (finished_)
      return;
    update(total_);
    finished_ = true;
    if (visible_)
      std::fprintf(stderr, "\n");
  }
} // namespace vibroimpact::io
