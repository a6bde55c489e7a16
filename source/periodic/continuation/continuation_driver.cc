// The continuation driver (continuation_driver.h): LOCA's LAPACK interface over a periodic
// problem, the corrector's tests (converged, failed, left its family), LOCA's parameters, and one
// run with its stop reason.
#include "continuation_driver.h"

#include "branch_tests.h"

#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/model/non_reentrant.h>
#include <vibroimpact/periodic/periodic_problem.h>

#include <LOCA.H>
#include <LOCA_LAPACK.H>
#include <LOCA_MultiContinuation_ExtendedGroup.H>
#include <NOX_Observer.hpp>
#include <Teuchos_oblackholestream.hpp>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::periodic
{
  namespace
  {
    // LOCA's exceptions span a dozen lines with its source file; a stop reason is one line:
    // "LOCA: <what failed>" where LOCA says it, else the text with its line breaks folded.
    std::string one_line(const std::string &message)
    {
      const auto error = message.find("ERROR: ");
      if (error != std::string::npos)
        return "LOCA: " + message.substr(error + 7, message.find('\n', error) - error - 7) + " failed";
      std::string out;
      for (const char c : message)
        if (c == '\n' || c == '\r' || c == '\t')
          {
            if (!out.empty() && out.back() != ' ')
              out += ' ';
          }
        else
          out += c;
      return out;
    }

    // Counts the Newton iterations of the corrector that converges (each solve starts afresh),
    // and tells settings.newton_iteration of each (a first shooting can take minutes).
    struct NewtonCounter : public NOX::Observer
    {
      std::function<void(unsigned int, double)> report;
      unsigned int iterations = 0;
      void         runPreSolve(const NOX::Solver::Generic &) override { iterations = 0; }
      void         runPostIterate(const NOX::Solver::Generic &solver) override
      {
        ++iterations;
        if (report)
          report(iterations, solver.getSolutionGroup().getNormF());
      }
    };

    // Fails a corrector that leaves the branch it steps along (LOCA then retries with a shorter
    // step): its iterate's period left the band |T/T_last − 1| ≤ Maximum period change (free
    // families), it moved farther from its predictor than Maximum corrector distance × the step
    // (Newton sliding along the arc-length hyperplane to another orbit), or its number of impacts
    // or sticking phases per period changed on a step longer than Grazing step. `iterate` reads
    // the iterate that NOX evaluated last.
    class SameFamilyTest : public NOX::StatusTest::Generic
    {
    public:
      struct Iterate
      {
        double period_change = 0.0;   // |T/T_last − 1|; 0 for forced orbits
        bool   contacts_changed = false; // impacts or sticking phases differ from the last point's
        bool   forced = false;
        double forcing_period_change = 0.0; // forced orbits: |T/T_last − 1| of the forcing period
        bool   lower_period = false; // a switched family's iterate of a lower period (its parent's)
      };

      SameFamilyTest(std::function<Iterate()> iterate, const ContinuationSettings &settings)
        : iterate_(std::move(iterate))
        , settings_(settings)
      {}

      NOX::StatusTest::StatusType checkStatus(const NOX::Solver::Generic &solver, NOX::StatusTest::CheckType) override
      {
        status_ = NOX::StatusTest::Unconverged;
        const auto *group = dynamic_cast<const LOCA::MultiContinuation::ExtendedGroup *>(&solver.getSolutionGroup());
        if (solver.getNumIterations() == 0) // the predictor, before the first Newton step
          {
            predictor_ = group ? group->getX().clone() : Teuchos::null;
            return status_;
          }
        const Iterate now = iterate_();
        if (settings_.max_period_change > 0 && now.period_change > settings_.max_period_change)
          return status_ = NOX::StatusTest::Failed;
        // The problem over several periods also has its parent's orbits: a corrector that slid
        // onto one is retried shorter, so that the family is followed as far as it goes.
        if (now.lower_period)
          return status_ = NOX::StatusTest::Failed;
        // What a kept point would be marked `jumped` for (a forced orbit whose contacts and
        // forcing period both changed that much) is refused: retried shorter. After a fold LOCA's
        // secant predictor can lie far beyond its short arc-length step, and the distance bound
        // below, relative to the predictor's own length, then lets the corrector slide to another
        // orbit (11.52 → 11.95 rad/s on the pinned beam, 9 → 6 impacts a period, arc length 3e-5).
        if (now.forced && now.contacts_changed && now.forcing_period_change > BranchPoint::jump_tolerance)
          return status_ = NOX::StatusTest::Failed;
        if (!group || predictor_.is_null())
          return status_;
        const double step = distance(*predictor_, group->getPrevX());
        if (step == 0) // the first solve of a run: no predictor to keep to
          return status_;
        if (now.contacts_changed && now.forced && settings_.grazing_step > 0 &&
            std::abs(group->getStepSize()) > settings_.grazing_step)
          return status_ = NOX::StatusTest::Failed;
        // Across a grazing a free family's orbit moves like the square root of the step: its short
        // steps that change the contacts may move the corrector farther. A forced response keeps
        // the bound: on the pinned beam every accepted corrector across a grazing moved less than
        // 10 steps, while those that moved 12 to 32 had slid along the arc-length plane to another
        // orbit (36 → 33, 31 → 28 and 31 → 13 impacts a period, 5.73 → 5.96 and 6.06 → 7.16 rad/s).
        if (now.contacts_changed && !now.forced)
          return status_;
        if (settings_.max_corrector_distance > 0 &&
            distance(group->getX(), *predictor_) > settings_.max_corrector_distance * step)
          return status_ = NOX::StatusTest::Failed;
        return status_;
      }
      NOX::StatusTest::StatusType getStatus() const override { return status_; }
      std::ostream &print(std::ostream &stream, int indent) const override
      {
        return stream << std::string(indent, ' ') << "on the same family: " << status_ << "\n";
      }

    private:
      static double distance(const NOX::Abstract::Vector &a, const NOX::Abstract::Vector &b)
      {
        const auto d = a.clone(NOX::DeepCopy);
        d->update(-1.0, b, 1.0);
        return d->norm();
      }

      std::function<Iterate()>                 iterate_;
      const ContinuationSettings              &settings_;
      Teuchos::RCP<NOX::Abstract::Vector>      predictor_;
      NOX::StatusTest::StatusType              status_ = NOX::StatusTest::Unevaluated;
    };

    // LOCA's view of a periodic problem (its LAPACK interface), and the record of each orbit LOCA
    // accepts: the step's flags, the point appended to the branch, the stop rules LOCA does not
    // know (a point bound, a tongue, crawling toward a grazing).
    class LocaInterface : public LOCA::LAPACK::Interface
    {
    public:
      LocaInterface(PeriodicProblem &problem, const ContinuationSettings &settings, const double start_period,
                    Branch &branch, const ProgressCallback &progress, Teuchos::RCP<NewtonCounter> counter)
        : problem_(problem)
        , settings_(settings)
        , start_period_(start_period)
        , initial_guess_(static_cast<int>(problem.size()))
        , branch_(branch)
        , progress_(progress)
        , counter_(std::move(counter))
      {
        const Vector guess = problem.initial_guess();
        for (Eigen::Index k = 0; k < guess.size(); ++k)
          initial_guess_(static_cast<int>(k)) = guess[k];
      }

      const NOX::LAPACK::Vector &getInitialGuess() override { return initial_guess_; }

      void setParams(const LOCA::ParameterVector &p) override { parameter_ = p.getValue(0); }

      // A Newton iterate that leaves the problem's domain gets a huge residual and a unit
      // Jacobian (LOCA ends the run on a failed evaluation): Newton then fails its iterations
      // and LOCA shortens the step instead.
      bool computeF(NOX::LAPACK::Vector &F, const NOX::LAPACK::Vector &X_nox) override
      {
        const Vector X = to_eigen(X_nox);
        if (!problem_.admits(X, parameter_))
          {
            for (int k = 0; k < F.length(); ++k)
              F(k) = 1e10;
            return true;
          }
        const Vector residual = problem_.residual(X, parameter_, false).first;
        for (Eigen::Index k = 0; k < residual.size(); ++k)
          F(static_cast<int>(k)) = residual[k];
        return true;
      }

      bool computeJacobian(NOX::LAPACK::Matrix<double> &J, const NOX::LAPACK::Vector &X_nox) override
      {
        const Vector X = to_eigen(X_nox);
        if (!problem_.admits(X, parameter_))
          {
            for (int i = 0; i < J.numRows(); ++i)
              for (int j = 0; j < J.numCols(); ++j)
                J(i, j) = i == j ? 1.0 : 0.0;
            return true;
          }
        const Matrix jacobian = problem_.residual(X, parameter_, true).second;
        for (Eigen::Index i = 0; i < jacobian.rows(); ++i)
          for (Eigen::Index j = 0; j < jacobian.cols(); ++j)
            J(static_cast<int>(i), static_cast<int>(j)) = jacobian(i, j);
        return true;
      }

      // The iterate evaluated last against the last point: |T/T_last − 1| (T_last: the last
      // point's period, or the start's; 0 for forced orbits, whose period is the forcing's), and
      // whether its impacts or sticking phases per period differ.
      SameFamilyTest::Iterate iterate() const
      {
        SameFamilyTest::Iterate it;
        it.forced            = !problem_.free();
        const auto evaluated = problem_.last_evaluated();
        if (!evaluated)
          return it;
        if (problem_.free())
          {
            const double last = branch_.points.empty() ? start_period_ : branch_.points.back().period;
            it.period_change  = std::abs(evaluated->period / last - 1.0);
          }
        it.lower_period = evaluated->of_lower_period;
        if (!branch_.points.empty())
          {
            const BranchPoint &last = branch_.points.back();
            it.contacts_changed =
              evaluated->impacts != last.impacts || evaluated->sticking_phases != last.sticking_phases;
            if (!problem_.free()) // T ∝ 1/Ω
              it.forcing_period_change = std::abs(last.frequency / evaluated->parameter - 1.0);
          }
        return it;
      }

      void printSolution(const NOX::LAPACK::Vector &X, const double parameter) override
      {
        parameter_ = parameter;
        record(to_eigen(X));
      }

    private:
      static Vector to_eigen(const NOX::LAPACK::Vector &X)
      {
        Vector x(X.length());
        for (int k = 0; k < X.length(); ++k)
          x[k] = X(k);
        return x;
      }

      void record(const Vector &X)
      {
        const bool  free    = problem_.free();
        BranchPoint p       = problem_.orbit(X, parameter_);
        p.newton_iterations = counter_->iterations;
        if (problem_.of_lower_period(p))
          throw StopContinuation{"back on the orbits of half the period (where the family was born, or at another "
                                 "period doubling)"};
        if (!branch_.points.empty())
          {
            set_step_flags(p, branch_.points.back(),
                           branch_.points.size() >= 2 ? &branch_.points[branch_.points.size() - 2] : nullptr, free);
            // A step that changes the period by more than the tolerance has landed elsewhere:
            // kept, marked. A forced orbit's period is the forcing's, which smooth stretches
            // change by more on a step; but a step across a grazing is short (Grazing step), so
            // one that changes the contacts and the forcing period that much is marked too.
            const BranchPoint &q = branch_.points.back();
            p.jumped = (free || p.impacts_changed || p.sticking_phases != q.sticking_phases) &&
                       std::abs(p.period - q.period) > BranchPoint::jump_tolerance * q.period;
          }
        branch_.points.push_back(p);
        problem_.set_reference(p);
        if (progress_)
          progress_(p, static_cast<unsigned int>(branch_.points.size() - 1));
        stop_where_asked(p);
      }

      void stop_where_asked(const BranchPoint &p) const
      {
        const bool free = problem_.free();
        if (p.frequency < settings_.min_frequency && free)
          throw StopContinuation{"frequency below the minimum"};
        if (p.frequency > settings_.max_frequency && free)
          throw StopContinuation{"frequency above the maximum"};
        if (branch_.points.size() >= settings_.max_points)
          throw StopContinuation{"maximum number of points"};
        if (free && settings_.tongue_jump > 0 && frequency_locked(branch_.points, settings_.tongue_lock))
          throw StopContinuation{"entered a tongue at energy " + std::to_string(p.energy) + ", frequency " +
                                   std::to_string(p.frequency),
                                 true};
        if (!free && approaching_grazing(branch_.points, free))
          throw StopContinuation{"approaching a grazing", false, false, true};
        if (const std::string reason = problem_.beyond_bounds(p); !reason.empty())
          throw StopContinuation{reason};
      }

      PeriodicProblem            &problem_;
      const ContinuationSettings &settings_;
      double                      start_period_;
      double                      parameter_ = 1.0;
      NOX::LAPACK::Vector         initial_guess_;
      Branch                     &branch_;
      ProgressCallback            progress_;
      Teuchos::RCP<NewtonCounter> counter_;
    };

    // When a corrector has converged or failed: Newton stops below the residual tolerance (the
    // scaled residual is relative to the start state; the reported one, relative to each orbit's
    // own size, is checked again), fails after Maximum Newton iterations, or at once when it
    // leaves its family (SameFamilyTest).
    Teuchos::RCP<NOX::StatusTest::Combo> corrector_tests(const ContinuationSettings &settings,
                                                         const LocaInterface       &interface)
    {
      auto norm  = Teuchos::rcp(new NOX::StatusTest::NormF(0.1 * settings.tolerance, NOX::StatusTest::NormF::Unscaled));
      auto iters = Teuchos::rcp(new NOX::StatusTest::MaxIters(static_cast<int>(settings.max_newton)));
      auto combo = Teuchos::rcp(new NOX::StatusTest::Combo(NOX::StatusTest::Combo::OR));
      // First: its failure outranks a converged norm.
      combo->addStatusTest(Teuchos::rcp(new SameFamilyTest([&interface] { return interface.iterate(); }, settings)));
      combo->addStatusTest(norm);
      combo->addStatusTest(iters);
      return combo;
    }

    // LOCA's and NOX's parameters of one run: arc length in the scaled parameter p (bounds
    // min_value, max_value), adaptive steps, the Newton observer `counter`, quiet unless
    // VIBROIMPACT_LOCA_DEBUG is set.
    Teuchos::RCP<Teuchos::ParameterList> loca_parameters(const ContinuationSettings &settings, const bool forced,
                                                         const double min_value, const double max_value,
                                                         const Teuchos::RCP<NewtonCounter> &counter)
    {
      auto  list   = Teuchos::rcp(new Teuchos::ParameterList);
      auto &loca   = list->sublist("LOCA");
      auto &stepper = loca.sublist("Stepper");
      stepper.set("Continuation Method", "Arc Length");
      stepper.set("Continuation Parameter", "p");
      stepper.set("Initial Value", 1.0);
      stepper.set("Max Value", max_value);
      stepper.set("Min Value", min_value);
      stepper.set("Max Steps", static_cast<int>(settings.max_points) + 10);
      stepper.set("Max Nonlinear Iterations", static_cast<int>(settings.max_newton));
      stepper.set("Compute Eigenvalues", false);
      auto &step = loca.sublist("Step Size");
      step.set("Method", "Adaptive");
      step.set("Initial Step Size", settings.direction < 0 ? -settings.initial_step : settings.initial_step);
      step.set("Min Step Size", settings.min_step);
      step.set("Max Step Size", settings.max_step);
      step.set("Aggressiveness", 0.5);
      // A forced response's steps are bounded in the forcing frequency too: LOCA's scaling of the
      // parameter's share of the arc length (down to 1e-3) would let one step cross a resonance.
      if (forced)
        stepper.set("Enable Arc Length Scaling", false);
      // The first step on the tangent (dF/dp by differences), then secants: a corrector is then
      // expected near its predictor from the first step on (SameFamilyTest).
      loca.sublist("Predictor").set("Method", "Secant");
      loca.sublist("Predictor").sublist("First Step Predictor").set("Method", "Tangent");
      auto &nox = list->sublist("NOX");
      nox.set("Nonlinear Solver", "Line Search Based");
      nox.sublist("Line Search").set("Method", "Full Step");
      nox.sublist("Solver Options").set<Teuchos::RCP<NOX::Observer>>("Observer", counter);
      const bool debug = std::getenv("VIBROIMPACT_LOCA_DEBUG") != nullptr;
      nox.sublist("Printing").set("Output Information", debug ? 0x7fff : 0);
      if (!debug) // LOCA's step-size notes go to its output stream whatever the level
        {
          nox.sublist("Printing").set<Teuchos::RCP<std::ostream>>("Output Stream",
                                                                  Teuchos::rcp(new Teuchos::oblackholestream));
          nox.sublist("Printing").set<Teuchos::RCP<std::ostream>>("Error Stream",
                                                                  Teuchos::rcp(new Teuchos::oblackholestream));
        }

      return list;
    }

  } // namespace

  Branch run_loca(PeriodicProblem &problem, const ContinuationSettings &settings, const double start_period,
                  const double scaled_min, const double scaled_max, const ProgressCallback &progress)
  {
    // Teuchos is not thread safe here: one LOCA run at a time, from its first object to its last.
    const std::lock_guard<std::mutex> one_loca(model::loca_mutex());
    Branch                            branch;
    const auto                        counter = Teuchos::rcp(new NewtonCounter);
    counter->report                           = settings.newton_iteration;
    LocaInterface interface(problem, settings, start_period, branch, progress, counter);
    const auto    list = loca_parameters(settings, !problem.free(), scaled_min, scaled_max, counter);

    auto               global = LOCA::createGlobalData(list, Teuchos::rcp(new LOCA::LAPACK::Factory));
    LOCA::ParameterVector parameters;
    parameters.addParameter("p", 1.0);
    auto group = Teuchos::rcp(new LOCA::LAPACK::Group(global, interface));
    group->setParams(parameters);
    const auto combo = corrector_tests(settings, interface);

    try
      {
        LOCA::Stepper stepper_run(global, group, combo, list);
        const auto    status = stepper_run.run();
        if (status == LOCA::Abstract::Iterator::Finished)
          branch.stop_reason = branch.points.empty() ? "no point converged" : "parameter bound reached";
        else
          {
            branch.failed      = true;
            branch.stop_reason = branch.points.empty() ? "Newton did not converge on the start point"
                                                       : "the step size fell below its minimum (Newton failed)";
          }
      }
    catch (const StopContinuation &stop)
      {
        branch.stop_reason    = stop.reason;
        branch.entered_tongue = stop.tongue;
        if (stop.rejected_start)
          branch.points.clear();
        branch.failed = stop.rejected_start || stop.grazing;
      }
    catch (const std::exception &error)
      {
        branch.failed      = true;
        branch.stop_reason = one_line(error.what());
      }
    LOCA::destroyGlobalData(global);
    branch.flow_evaluations = problem.evaluations();
    if (const int signal = io::interrupt_signal(); signal != 0) // NOX takes it for a failed step
      {
        branch.failed      = true;
        branch.stop_reason = "interrupted by signal " + std::to_string(signal);
      }
    if (branch.points.empty())
      branch.failed = true;
    return branch;
  }

  Branch run_loca(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                  const ContinuationSettings &settings, const Vector &x0, const double period,
                  const double parameter_start, const double parameter_min, const double parameter_max,
                  const ProgressCallback &progress)
  {
    // Parameters are scaled by their start value, so that the arc length sees O(1) numbers.
    const double scale   = parameter_start;
    const auto   problem = make_problem(flow, forced_flow, settings, x0, period, scale);
    Branch branch = run_loca(*problem, settings, period, parameter_min / scale, parameter_max / scale, progress);
    if (io::interrupt_signal() != 0)
      return branch;
    // A family of a given number of impacts per period ends where its orbit grazes a contact
    // (the map is not differentiable there): say so rather than "Newton failed".
    if (branch.failed && !branch.points.empty())
      {
        const auto  &last  = branch.points.back();
        const double scale = last.state.head(last.state.size() / 2).lpNorm<Eigen::Infinity>();
        if (last.grazing_gap < 1e-3 * scale)
          {
            std::ostringstream reason;
            reason << "grazing: a gap closes to " << last.grazing_gap << " between impacts at energy "
                   << last.energy << ", frequency " << last.frequency
                   << " (beyond, the orbits have one more impact per period)";
            branch.stop_reason = reason.str();
          }
      }
    if (branch.points.empty())
      branch.failed = true;
    return branch;
  }

  // The progress of a part of a branch that follows `offset` points.
  ProgressCallback progress_after(const ProgressCallback &progress, const std::size_t offset)
  {
    return [progress, offset](const BranchPoint &p, const unsigned int k) {
      if (progress)
        progress(p, static_cast<unsigned int>(offset + k));
    };
  }
} // namespace vibroimpact::periodic
