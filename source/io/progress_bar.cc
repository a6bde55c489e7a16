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
    ProgressSink &thread_sink()
    {
      thread_local ProgressSink sink;
      return sink;
    }
  } // namespace

  ProgressSink set_progress_sink(ProgressSink sink)
  {
    std::swap(sink, thread_sink());
    return sink;
  }

  ProgressBar::ProgressBar(std::string label, const double total, const bool quiet)
    : label_(std::move(label))
    , total_(total > 0 ? total : 1.0)
    , visible_(!quiet && isatty(STDERR_FILENO) && isatty(STDOUT_FILENO))
    , start_(std::chrono::steady_clock::now())
  {}

  ProgressBar::~ProgressBar()
  {
    finish();
  }

  void ProgressBar::report(const double done)
  {
    const auto &sink = thread_sink();
    if (!sink)
      return;
    const int permille = static_cast<int>(1000 * std::clamp(done / total_, 0.0, 1.0));
    if (permille == last_reported_)
      return;
    last_reported_ = permille;
    sink(label_, done, total_);
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
