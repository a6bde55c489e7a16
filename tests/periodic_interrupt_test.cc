// Period maps and SIGTERM: a pass under way when the signal comes throws io::Interrupted within
// milliseconds however long it would run (every map checks at each of its steps), so a study
// stops well inside the watchdog's grace time and keeps what it finished; a pass started after
// the signal, or inside an io::UninterruptedScope, runs to its end with the numbers it has
// without a signal (the finished results a study keeps are post-processed by such passes).
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/interrupt_scope.h>
#include <vibroimpact/periodic/flow_map.h>
#include <vibroimpact/studies/continuation_study.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>

using namespace vibroimpact;
using periodic::Vector;
using Clock = std::chrono::steady_clock;

namespace
{
  struct Ending
  {
    bool   interrupted  = false; // the work threw io::Interrupted
    double after_signal = 0.0;   // seconds from the signal to the end of the work (< 0: it ended before)
  };

  // Runs `work` while SIGTERM comes `after` its start; the library's handler holds the signal
  // (io::InterruptScope, as in the Python module: no watchdog, the process survives).
  template <typename Work>
  Ending end_of(Work &&work, const std::chrono::milliseconds after)
  {
    const io::InterruptScope scope;
    Clock::time_point        sent;
    std::thread              signaller([&] {
      std::this_thread::sleep_for(after);
      sent = Clock::now();
      ::kill(::getpid(), SIGTERM);
    });
    Ending ending;
    try
      {
        work();
      }
    catch (const io::Interrupted &)
      {
        ending.interrupted = true;
      }
    const auto end = Clock::now();
    signaller.join();
    while (scope.signal() == 0) // delivered before the scope gives the host's handler back
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ending.after_signal = std::chrono::duration<double>(end - sent).count();
    return ending;
  }

  // How many periods of x0 the map takes about `seconds` for, from passes doubled until one
  // takes 50 ms.
  double periods_lasting(const periodic::PeriodicFlowMap &flow, const Vector &x0, const double seconds)
  {
    for (double n = 10;; n *= 2)
      {
        const auto start = Clock::now();
        flow.flow(x0, n * flow.linear_period(1), 0.0, true);
        const double took = std::chrono::duration<double>(Clock::now() - start).count();
        if (took >= 0.05)
          return n * seconds / took;
      }
  }

  studies::ContinuationSetup setup_of(const std::string &example, const std::string &file = "case.prm")
  {
    return studies::prepare_continuation(
      test_cases::load_case(std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/" + example + "/" + file));
  }
} // namespace

// Each map (Moreau–Jean steps; event-driven by exponentials with rigid impacts; event-driven by
// the oscillators of an elastic stop), asked for the periods of a mode below grazing that take
// it three seconds: SIGTERM 100 ms in ends it within a small share of the watchdog's 0.5 s.
TEST(PeriodicInterrupt, APassUnderWayStopsWithinMillisecondsOfTheSignal)
{
  for (const auto &[example, file] : {std::pair{"two_dof_sticking_family", "case.prm"},
                                      std::pair{"pinned_beam_backbone", "case.prm"},
                                      std::pair{"pinned_beam_backbone", "elastic.prm"}})
    {
      const auto  setup = setup_of(example, file);
      const auto &flow  = *setup.flow;
      const Vector x0   = flow.linear_mode_state(1, 0.5 * flow.grazing_energy(1));
      const double T    = periods_lasting(flow, x0, 3.0) * flow.linear_period(1);
      const Ending e    = end_of([&] { flow.flow(x0, T, 0.0, true); }, std::chrono::milliseconds(100));
      EXPECT_TRUE(e.interrupted) << example << "/" << file << " (" << flow.name() << ")";
      EXPECT_GT(e.after_signal, 0.0) << example << "/" << file;
      EXPECT_LT(e.after_signal, 0.2) << example << "/" << file << " (" << flow.name() << ")";
      std::cerr << example << "/" << file << " (" << flow.name() << "): stopped " << 1e3 * e.after_signal
                << " ms after the signal\n";
    }
}

// A pass of about a third of a second, its signal 20 ms in: inside an UninterruptedScope, or
// started after the signal, it ends as it ends without one, to the last bit.
TEST(PeriodicInterrupt, APassStartedAfterTheSignalOrInAnUninterruptedScopeRunsToItsEnd)
{
  const auto  setup = setup_of("two_dof_sticking_family");
  const auto &flow  = *setup.flow;
  const Vector x0   = flow.linear_mode_state(1, 5 * flow.grazing_energy(1));
  const double T    = 20 * flow.linear_period(1); // impacts and sticking all along
  const auto   start           = Clock::now();
  const auto   reference       = flow.flow(x0, T, 0.0, true);
  const double seconds         = std::chrono::duration<double>(Clock::now() - start).count();
  const auto   expect_reference = [&](const periodic::FlowResult &r, const std::string &how) {
    ASSERT_EQ(r.x.size(), reference.x.size()) << how << ": no result";
    ASSERT_EQ(r.jacobian.size(), reference.jacobian.size()) << how << ": no Jacobian";
    EXPECT_EQ(r.x, reference.x) << how;
    EXPECT_EQ(r.jacobian, reference.jacobian) << how;
    EXPECT_EQ(r.events.size(), reference.events.size()) << how;
  };
  ASSERT_GT(reference.events.size(), 10u);
  ASSERT_GT(seconds, 0.05) << "too short a pass to be signalled midway";

  periodic::FlowResult scoped;
  const Ending         in_scope = end_of(
    [&] {
      const io::UninterruptedScope finishing;
      scoped = flow.flow(x0, T, 0.0, true);
    },
    std::chrono::milliseconds(20));
  EXPECT_FALSE(in_scope.interrupted);
  EXPECT_GT(in_scope.after_signal, 0.0) << "the signal came after the pass";
  expect_reference(scoped, "in an UninterruptedScope");

  periodic::FlowResult later;
  const Ending         after = end_of(
    [&] {
      while (io::interrupt_signal() == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      later = flow.flow(x0, T, 0.0, true);
    },
    std::chrono::milliseconds(20));
  EXPECT_FALSE(after.interrupted);
  expect_reference(later, "started after the signal");

  // Without the scope the same pass, signalled midway, stops.
  EXPECT_TRUE(end_of([&] { flow.flow(x0, T, 0.0, true); }, std::chrono::milliseconds(20)).interrupted);
}
