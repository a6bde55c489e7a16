// A one-line progress bar on stderr, shown only on a terminal and never under -q.
#pragma once

#include <chrono>
#include <string>

namespace vibroimpact::io
{
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
    std::string                           label_;
    double                                total_;
    bool                                  visible_;
    std::string                           status_;
    double                                done_          = 0.0;
    int                                   last_permille_ = -1;
    bool                                  finished_      = false;
    std::chrono::steady_clock::time_point start_;
  };
} // namespace vibroimpact::io
