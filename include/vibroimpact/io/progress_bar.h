// A one-line progress bar on stderr, shown only on a terminal and never under -q. A host (the
// Python module's progress callback) may follow the bars of its thread's calls, drawn or not, as
// one stream a call: a call of several phases (a comparison's runs, a continuation's families)
// declares them (ProgressPlan), and its fraction then only grows.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace vibroimpact::io
{
  // Where a call stands: the phase running (its bar's label), which of how many, how far it is
  // in its own unit, and how far the whole call is.
  struct ProgressReport
  {
    std::string  phase;
    unsigned int phase_index = 0; // from 0
    unsigned int phase_count = 1; // at least phase_index + 1
    double       done = 0, total = 1;
    double       fraction = 0; // of the whole call, 0 to 1, never smaller than the last report's
  };

  // Told where the call stands when a phase starts, each time its bar moves by a thousandth, and
  // at its end. Bars opened inside another (a family's settling runs) report nothing of their own.
  using ProgressSink = std::function<void(const ProgressReport &report)>;

  // Sets the calling thread's sink (empty: none); returns the one it replaces.
  ProgressSink set_progress_sink(ProgressSink sink);

  // The phases of one call in this thread: each bar opened while no other is open starts the
  // next one. Without a plan every such bar is a call of one phase. On leaving, a last report at
  // fraction 1 (a call may end short of its plan: a family that failed). Plans do not nest.
  class ProgressPlan
  {
  public:
    explicit ProgressPlan(unsigned int phases);
    ~ProgressPlan();
    ProgressPlan(const ProgressPlan &)            = delete;
    ProgressPlan &operator=(const ProgressPlan &) = delete;
  };

  class ProgressBar
  {
  public:
    ProgressBar(std::string label, double total, bool quiet);
    ~ProgressBar();
    ProgressBar(const ProgressBar &)            = delete;
    ProgressBar &operator=(const ProgressBar &) = delete;

    void update(double done);
    void finish();
    // A short text after the bar (what is being solved now), redrawn at once.
    void status(std::string text);
    // A line of its own above the bar (what the bar is about), only where the bar is drawn.
    void say(const std::string &line) const;

    // Whether a bar would be drawn at all (a terminal, not quiet).
    bool visible() const { return visible_; }

  private:
    void report(double done);

    std::string                           label_;
    double                                total_;
    bool                                  visible_;
    std::string                           status_;
    double                                done_          = 0.0;
    int                                   last_permille_ = -1;
    int                                   last_reported_ = -1; // to the thread's sink
    bool                                  finished_      = false;
    bool                                  outermost_     = false; // a phase of the call, not a bar inside one
    std::chrono::steady_clock::time_point start_;
  };
} // namespace vibroimpact::io
