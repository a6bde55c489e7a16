// A one-line progress bar on stderr, shown only on a terminal and never under -q. A host (the
// Python module's progress callback) may follow the bars of its thread's calls, drawn or not.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace vibroimpact::io
{
  // Told (label, done, total) each time a bar of this thread moves by a thousandth, and at its end.
  using ProgressSink = std::function<void(const std::string &label, double done, double total)>;

  // Sets the calling thread's sink (empty: none); returns the one it replaces.
  ProgressSink set_progress_sink(ProgressSink sink);

  class ProgressBar
  {
  public:
    ProgressBar(std::string label, double total, bool quiet);
    ~ProgressBar();

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
    std::chrono::steady_clock::time_point start_;
  };
} // namespace vibroimpact::io
