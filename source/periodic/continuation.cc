// Continuation of periodic orbits (continuation.h): the shooting residual and its Jacobian as a
// LOCA LAPACK interface, Floquet multipliers, the record of each converged orbit, and restarts
// after Newton fails at a grazing or a chatter sequence.
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/model/non_reentrant.h>
#include <vibroimpact/periodic/continuation.h>

#include <Eigen/Eigenvalues>

#include <LOCA.H>
#include <LOCA_LAPACK.H>
#include <NOX_Observer.hpp>
#include <Teuchos_oblackholestream.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::periodic
{
  std::vector<std::complex<double>> floquet_multipliers(const Matrix &monodromy, const unsigned int trivial)
  {
    Eigen::EigenSolver<Matrix>        solver(monodromy, false);
    std::vector<std::complex<double>> mu(solver.eigenvalues().data(),
                                         solver.eigenvalues().data() + solver.eigenvalues().size());
    std::sort(mu.begin(), mu.end(), [](const auto &a, const auto &b) {
      return std::abs(a - 1.0) < std::abs(b - 1.0);
    });
    mu.erase(mu.begin(), mu.begin() + std::min<std::size_t>(trivial, mu.size()));
    std::sort(mu.begin(), mu.end(), [](const auto &a, const auto &b) { return std::abs(a) > std::abs(b); });
    return mu;
  }

  namespace
  {
    // A point's impacts and sticking phases per period, from its flow's events.
    void count_contact_events(BranchPoint &p, const std::vector<ContactEvent> &events)
    {
      for (const auto &event : events)
        {
          p.impacts += event.kind == ContactEvent::Kind::impact ? 1 : 0;
          p.sticking_phases += event.kind == ContactEvent::Kind::sticking_start ? 1 : 0;
        }
    }

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

    // Thrown from the bookkeeping to end a continuation at a bound LOCA does not know.
    struct StopContinuation
    {
      std::string reason;
      bool        tongue = false;
    };

    // Whether the last three points have the frequency locked while the energy moves: the
    // branch has entered an internal-resonance tongue (the criterion of tongues.h).
    bool frequency_locked(const std::vector<BranchPoint> &points, const double lock)
    {
      const std::size_t n = points.size();
      if (n < 3)
        return false;
      for (std::size_t k = n - 2; k < n; ++k)
        {
          const double d_energy = std::abs(std::log(points[k].energy / points[k - 1].energy));
          const double d_freq   = std::abs(std::log(points[k].frequency / points[k - 1].frequency));
          if (!(d_energy > 1e-4 && d_freq < lock * d_energy))
            return false;
        }
      return true;
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

    // Fails a corrector whose latest iterate's period left the band |T/T_last − 1| ≤ limit around
    // the last point's (LOCA then shortens the step): `period_change` reads the iterate that NOX
    // evaluated last.
    class PeriodChangeTest : public NOX::StatusTest::Generic
    {
    public:
      PeriodChangeTest(std::function<double()> period_change, const double limit)
        : period_change_(std::move(period_change))
        , limit_(limit)
      {}
      NOX::StatusTest::StatusType checkStatus(const NOX::Solver::Generic &, NOX::StatusTest::CheckType) override
      {
        status_ = period_change_() > limit_ ? NOX::StatusTest::Failed : NOX::StatusTest::Unconverged;
        return status_;
      }
      NOX::StatusTest::StatusType getStatus() const override { return status_; }
      std::ostream &print(std::ostream &stream, int indent) const override
      {
        return stream << std::string(indent, ' ') << "period change within " << limit_ << ": " << status_ << "\n";
      }

    private:
      std::function<double()>     period_change_;
      double                      limit_;
      NOX::StatusTest::StatusType status_ = NOX::StatusTest::Unevaluated;
    };

    // The shooting system in scaled unknowns, for LOCA's LAPACK group. Free families:
    // X = (x0 / s_x, T / s_T, α s_T), parameter E / s_E. Forced: X = x0 / s_x, parameter Ω / Ω0.
    class ShootingInterface : public LOCA::LAPACK::Interface
    {
    public:
      ShootingInterface(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                        const ContinuationSettings &settings, const Vector &x0, double period,
                        double parameter_scale, Branch &branch, const ProgressCallback &progress)
        : flow_(flow)
        , forced_flow_(forced_flow)
        , settings_(settings)
        , n_(flow.dimension())
        , free_(forced_flow == nullptr)
        , state_scale_(std::max(x0.norm(), 1e-300))
        , period_scale_(period)
        , parameter_scale_(parameter_scale)
        , initial_guess_(free_ ? n_ + 2 : n_)
        , branch_(branch)
        , progress_(progress)
      {
        for (Eigen::Index k = 0; k < n_; ++k)
          initial_guess_(k) = x0[k] / state_scale_;
        if (free_)
          {
            initial_guess_(n_)     = 1.0; // T / s_T
            initial_guess_(n_ + 1) = 0.0; // α
          }
        set_reference(x0);
      }

      const NOX::LAPACK::Vector &getInitialGuess() override { return initial_guess_; }

      void setParams(const LOCA::ParameterVector &p) override { parameter_ = p.getValue(0); }

      // A Newton iterate that leaves the domain of the map (a period ≤ 0 or far from the start's,
      // a flow that fails)
      // gets a huge residual and a unit Jacobian (LOCA ends the run on a failed evaluation):
      // Newton then fails its iterations and LOCA shortens the step instead.
      bool computeF(NOX::LAPACK::Vector &F, const NOX::LAPACK::Vector &X) override
      {
        if (!valid(X))
          {
            for (int k = 0; k < F.length(); ++k)
              F(k) = 1e10;
            return true;
          }
        const Evaluation &e = evaluate(X, false);
        for (Eigen::Index k = 0; k < e.residual.size(); ++k)
          F(k) = e.residual[k];
        return true;
      }

      bool computeJacobian(NOX::LAPACK::Matrix<double> &J, const NOX::LAPACK::Vector &X) override
      {
        if (!valid(X))
          {
            for (int i = 0; i < J.numRows(); ++i)
              for (int j = 0; j < J.numCols(); ++j)
                J(i, j) = i == j ? 1.0 : 0.0;
            return true;
          }
        const Evaluation &e = evaluate(X, true);
        for (Eigen::Index i = 0; i < e.jacobian.rows(); ++i)
          for (Eigen::Index j = 0; j < e.jacobian.cols(); ++j)
            J(i, j) = e.jacobian(i, j);
        return true;
      }

      // |T/T_last − 1| of the iterate evaluated last (T_last: the last point's period, or the
      // start's); 0 for forced orbits, whose period is the forcing's.
      double period_change() const
      {
        if (!free_ || cache_.key.empty())
          return 0.0;
        const double last = branch_.points.empty() ? period_scale_ : branch_.points.back().period;
        return std::abs(cache_.key[n_] * period_scale_ / last - 1.0);
      }

      void printSolution(const NOX::LAPACK::Vector &X, const double parameter) override
      {
        parameter_ = parameter;
        record(X);
      }

    private:
      bool valid(const NOX::LAPACK::Vector &X)
      {
        // A family's period stays within a bounded factor of its start's; an iterate far outside
        // is Newton wandering (and a flow over 10⁵ periods would cost minutes).
        constexpr double period_range = 20.0;
        const double     T            = period(X);
        if (!(T > period_scale_ / period_range) || !(T < period_scale_ * period_range))
          return false;
        try
          {
            evaluate(X, false);
            return true;
          }
        catch (const std::runtime_error &)
          {
            return false;
          }
      }

      struct Evaluation
      {
        std::vector<double> key;
        double              parameter = 0.0;
        bool                has_jacobian = false;
        Vector              residual;
        Matrix              jacobian;
        FlowResult          flow;
      };

      Vector state(const NOX::LAPACK::Vector &X) const
      {
        Vector x(n_);
        for (Eigen::Index k = 0; k < n_; ++k)
          x[k] = X(k) * state_scale_;
        return x;
      }
      double period(const NOX::LAPACK::Vector &X) const
      {
        return free_ ? X(n_) * period_scale_ : 2 * M_PI / (parameter_ * parameter_scale_);
      }
      double alpha(const NOX::LAPACK::Vector &X) const { return free_ ? X(n_ + 1) / period_scale_ : 0.0; }

      void set_reference(const Vector &x)
      {
        reference_ = x;
        if (free_)
          {
            phase_direction_ = flow_.vector_field(x);
            phase_direction_ /= std::max(phase_direction_.norm(), 1e-300);
          }
      }

      FlowResult run_flow(const Vector &x0, double T, double a, bool jacobian) const
      {
        if (forced_flow_)
          forced_flow_->set_forcing_frequency(parameter_ * parameter_scale_);
        if (!jacobian || settings_.exact_jacobian)
          return flow_.flow(x0, T, a, jacobian);
        // Finite differences of the flow map, column by column (the seed's method).
        FlowResult   base = flow_.flow(x0, T, a, false);
        const double step = 1e-7 * state_scale_;
        base.jacobian.resize(n_, n_);
        for (Eigen::Index k = 0; k < n_; ++k)
          {
            Vector x = x0;
            x[k] += step;
            base.jacobian.col(k) = (flow_.flow(x, T, a, false).x - base.x) / step;
          }
        base.evaluations += n_;
        if (free_)
          {
            const double dT = 1e-7 * period_scale_, da = 1e-7 / period_scale_;
            base.d_period    = (flow_.flow(x0, T + dT, a, false).x - base.x) / dT;
            base.d_unfolding = (flow_.flow(x0, T, a + da, false).x - base.x) / da;
            base.evaluations += 2;
          }
        return base;
      }

      const Evaluation &evaluate(const NOX::LAPACK::Vector &X, const bool jacobian)
      {
        std::vector<double> key(X.length());
        for (int k = 0; k < X.length(); ++k)
          key[k] = X(k);
        if (cache_.key == key && cache_.parameter == parameter_ && (cache_.has_jacobian || !jacobian))
          return cache_;

        // One flow evaluation is the longest step between two checks (the branch so far stays).
        io::throw_if_interrupted("during the continuation");
        const Vector x0 = state(X);
        const double T  = period(X);
        const double a  = alpha(X);
        // Ask for the Jacobian whenever it is cheap to have: Newton needs it next.
        const bool want_jacobian = jacobian || settings_.exact_jacobian;
        cache_.flow              = run_flow(x0, T, a, want_jacobian);
        branch_.flow_evaluations += cache_.flow.evaluations;
        cache_.key          = key;
        cache_.parameter    = parameter_;
        cache_.has_jacobian = want_jacobian;

        const Eigen::Index rows = free_ ? n_ + 2 : n_;
        cache_.residual.resize(rows);
        cache_.residual.head(n_) = (cache_.flow.x - x0) / state_scale_;
        if (free_)
          {
            cache_.residual[n_]     = phase_direction_.dot(x0 - reference_) / state_scale_;
            cache_.residual[n_ + 1] = (flow_.energy(x0) - parameter_ * parameter_scale_) / parameter_scale_;
          }
        if (want_jacobian)
          {
            Matrix &J = cache_.jacobian;
            J.setZero(rows, rows);
            J.topLeftCorner(n_, n_) = cache_.flow.jacobian - Matrix::Identity(n_, n_);
            if (free_)
              {
                J.block(0, n_, n_, 1)     = cache_.flow.d_period * period_scale_ / state_scale_;
                J.block(0, n_ + 1, n_, 1) = cache_.flow.d_unfolding / (period_scale_ * state_scale_);
                J.block(n_, 0, 1, n_)     = phase_direction_.transpose();
                // ∇H by central differences: exact for a quadratic energy up to round-off.
                const double h = 1e-3 * state_scale_;
                for (Eigen::Index k = 0; k < n_; ++k)
                  {
                    Vector xp = x0, xm = x0;
                    xp[k] += h;
                    xm[k] -= h;
                    J(n_ + 1, k) = (flow_.energy(xp) - flow_.energy(xm)) / (2 * h) * state_scale_ / parameter_scale_;
                  }
              }
          }
        return cache_;
      }

      void record(const NOX::LAPACK::Vector &X)
      {
        const Vector x0 = state(X);
        const double T  = period(X);
        if (forced_flow_)
          forced_flow_->set_forcing_frequency(parameter_ * parameter_scale_);
        const FlowResult result = flow_.flow(x0, T, alpha(X), true);
        ++branch_.flow_evaluations;

        BranchPoint p;
        p.state     = x0;
        p.period    = T;
        p.frequency = 2 * M_PI / T;
        p.energy    = flow_.energy(x0);
        p.unfolding = alpha(X);
        p.residual  = (result.x - x0).norm() / std::max(x0.norm(), 1e-300);
        p.newton_iterations = counter ? counter->iterations : 0;
        count_contact_events(p, result.events);
        p.min_gap             = result.min_gap;
        p.min_impact_velocity = result.min_impact_velocity;
        p.max_penetration     = result.max_penetration;
        p.grazing_gap         = result.grazing_gap;
        p.multipliers         = floquet_multipliers(result.jacobian, free_ ? 2 : 0);
        p.max_multiplier      = 0.0;
        for (const auto &mu : p.multipliers)
          p.max_multiplier = std::max(p.max_multiplier, std::abs(mu));
        p.stable = p.max_multiplier <= 1.0 + settings_.stability_tolerance;
        // Grazing: an impact at vanishing velocity, or a gap closing without an impact.
        const double velocity_scale = std::max(result.x.tail(n_ / 2).norm(), 1e-300);
        // Time steppers penetrate by O(h²): a hundredth of the largest displacement is allowed.
        const double length_scale = std::max(x0.head(n_ / 2).lpNorm<Eigen::Infinity>(), 1e-300);
        p.admissible = p.max_penetration <= 1e-2 * length_scale && !(p.grazing_gap < 1e-6 * length_scale) &&
                       (p.impacts == 0 || p.min_impact_velocity > 1e-6 * velocity_scale);

        if (!branch_.points.empty())
          {
            const BranchPoint &q = branch_.points.back();
            const double here = free_ ? p.energy : p.frequency, there = free_ ? q.energy : q.frequency;
            if (branch_.points.size() >= 2)
              {
                const BranchPoint &r = branch_.points[branch_.points.size() - 2];
                const double before = free_ ? r.energy : r.frequency;
                p.fold = (here - there) * (there - before) < 0;
              }
            p.impacts_changed = p.impacts != q.impacts;
            p.jumped          = std::abs(p.period - q.period) > BranchPoint::jump_tolerance * q.period;
            const auto flips = [](const BranchPoint &b) {
              int n = 0;
              for (const auto &mu : b.multipliers)
                n += (std::abs(mu.imag()) < 1e-9 && mu.real() < -1.0) ? 1 : 0;
              return n;
            };
            p.period_doubling = flips(p) != flips(q);
          }
        branch_.points.push_back(p);
        set_reference(x0);
        if (progress_)
          progress_(p, static_cast<unsigned int>(branch_.points.size() - 1));

        if (p.frequency < settings_.min_frequency && free_)
          throw StopContinuation{"frequency below the minimum"};
        if (p.frequency > settings_.max_frequency && free_)
          throw StopContinuation{"frequency above the maximum"};
        if (branch_.points.size() >= settings_.max_points)
          throw StopContinuation{"maximum number of points"};
        if (free_ && settings_.tongue_jump > 0 && frequency_locked(branch_.points, settings_.tongue_lock))
          throw StopContinuation{"entered a tongue at energy " + std::to_string(p.energy) + ", frequency " +
                                   std::to_string(p.frequency),
                                 true};
      }

      const PeriodicFlowMap     &flow_;
      PeriodicFlowMap           *forced_flow_;
      ContinuationSettings       settings_;
      Eigen::Index               n_;
      bool                       free_;
      double                     state_scale_, period_scale_, parameter_scale_;
      double                     parameter_ = 1.0;
      NOX::LAPACK::Vector        initial_guess_;
      Vector                     reference_, phase_direction_;
      Evaluation                 cache_;
    public:
      Teuchos::RCP<NewtonCounter> counter;

    private:
      Branch                    &branch_;
      ProgressCallback           progress_;
    };

    // When a corrector has converged or failed: Newton stops below the residual tolerance (the
    // scaled residual is relative to the start state; the reported one, relative to each orbit's
    // own size, is checked again), fails after Maximum Newton iterations, or at once when its
    // period leaves the band of Maximum period change.
    Teuchos::RCP<NOX::StatusTest::Combo> corrector_tests(const ContinuationSettings &settings,
                                                         const ShootingInterface   &interface)
    {
      auto norm  = Teuchos::rcp(new NOX::StatusTest::NormF(0.1 * settings.tolerance, NOX::StatusTest::NormF::Unscaled));
      auto iters = Teuchos::rcp(new NOX::StatusTest::MaxIters(static_cast<int>(settings.max_newton)));
      auto combo = Teuchos::rcp(new NOX::StatusTest::Combo(NOX::StatusTest::Combo::OR));
      if (settings.max_period_change > 0) // first: its failure outranks a converged norm
        combo->addStatusTest(Teuchos::rcp(
          new PeriodChangeTest([&interface] { return interface.period_change(); }, settings.max_period_change)));
      combo->addStatusTest(norm);
      combo->addStatusTest(iters);
      return combo;
    }

    Branch run_loca(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                    const ContinuationSettings &settings, const Vector &x0, const double period,
                    const double parameter_start, const double parameter_min, const double parameter_max,
                    const ProgressCallback &progress)
    {
      // Teuchos is not thread safe here: one LOCA run at a time, from its first object to its last.
      const std::lock_guard<std::mutex> one_loca(model::loca_mutex());
      Branch                            branch;
      // Parameters are scaled by their start value, so that the arc length sees O(1) numbers.
      const double scale = parameter_start;
      ShootingInterface interface(flow, forced_flow, settings, x0, period, scale, branch, progress);

      auto  list   = Teuchos::rcp(new Teuchos::ParameterList);
      auto &loca   = list->sublist("LOCA");
      auto &stepper = loca.sublist("Stepper");
      stepper.set("Continuation Method", "Arc Length");
      stepper.set("Continuation Parameter", "p");
      stepper.set("Initial Value", 1.0);
      stepper.set("Max Value", parameter_max / scale);
      stepper.set("Min Value", parameter_min / scale);
      stepper.set("Max Steps", static_cast<int>(settings.max_points) + 10);
      stepper.set("Max Nonlinear Iterations", static_cast<int>(settings.max_newton));
      stepper.set("Compute Eigenvalues", false);
      auto &step = loca.sublist("Step Size");
      step.set("Method", "Adaptive");
      step.set("Initial Step Size", settings.direction < 0 ? -settings.initial_step : settings.initial_step);
      step.set("Min Step Size", settings.min_step);
      step.set("Max Step Size", settings.max_step);
      step.set("Aggressiveness", 0.5);
      loca.sublist("Predictor").set("Method", "Secant");
      auto &nox = list->sublist("NOX");
      nox.set("Nonlinear Solver", "Line Search Based");
      nox.sublist("Line Search").set("Method", "Full Step");
      interface.counter         = Teuchos::rcp(new NewtonCounter);
      interface.counter->report = settings.newton_iteration;
      nox.sublist("Solver Options").set<Teuchos::RCP<NOX::Observer>>("Observer", interface.counter);
      const bool debug = std::getenv("VIBROIMPACT_LOCA_DEBUG") != nullptr;
      nox.sublist("Printing").set("Output Information", debug ? 0x7fff : 0);
      if (!debug) // LOCA's step-size notes go to its output stream whatever the level
        {
          nox.sublist("Printing").set<Teuchos::RCP<std::ostream>>("Output Stream",
                                                                  Teuchos::rcp(new Teuchos::oblackholestream));
          nox.sublist("Printing").set<Teuchos::RCP<std::ostream>>("Error Stream",
                                                                  Teuchos::rcp(new Teuchos::oblackholestream));
        }

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
        }
      catch (const std::exception &error)
        {
          branch.failed      = true;
          branch.stop_reason = one_line(error.what());
        }
      LOCA::destroyGlobalData(global);
      if (const int signal = io::interrupt_signal(); signal != 0) // NOX takes it for a failed step
        {
          branch.failed      = true;
          branch.stop_reason = "interrupted by signal " + std::to_string(signal);
          return branch;
        }
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

    // LOCA until it fails, then again from just beyond the last orbit (Newton from it, the
    // parameter moved by Restart jump): a family whose map has a kink there (a grazing that
    // adds an impact per period, a chatter sequence gaining an impact) goes on past it.
    Branch run_with_restarts(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                             const ContinuationSettings &settings, Vector x0, double period, double parameter,
                             const double parameter_min, const double parameter_max, const ProgressCallback &progress)
    {
      Branch total;
      double jump = settings.restart_jump, restart_direction = settings.direction;
      for (unsigned int restart = 0;; ++restart)
        {
          ContinuationSettings here = settings;
          here.direction            = restart_direction;
          here.max_points           = settings.max_points - static_cast<unsigned int>(total.points.size());
          const std::size_t offset  = total.points.size();
          const auto        shifted = [&](const BranchPoint &p, unsigned int k) {
            if (progress)
              progress(p, static_cast<unsigned int>(offset + k));
          };
          Branch part = run_loca(flow, forced_flow, here, x0, period, parameter, parameter_min, parameter_max, shifted);
          total.flow_evaluations += part.flow_evaluations;
          // A restart must land near where the branch stopped; an orbit far from it belongs to
          // another family (Newton from the last orbit can jump there), which is not this branch.
          // A forced response may jump (the response past a grazing of a chatter sequence is
          // another orbit at the same forcing, as in a sweep): kept, flagged `jumped`.
          if (restart > 0 && !part.points.empty())
            {
              const auto &before = total.points.back(), &after = part.points.front();
              const bool  near   = std::abs(after.period - before.period) <= 0.05 * before.period &&
                                (after.state - before.state).norm() <= 0.2 * before.state.norm();
              if (!near && forced_flow != nullptr)
                part.points.front().jumped = true;
              else if (!near)
                {
                  total.stop_reason = total.restarts.back() + "; a restart past it found only another family (T = " +
                                      std::to_string(after.period) + ")";
                  break;
                }
            }
          if (restart > 0 && !part.points.empty())
            part.points.front().restarted = true;
          total.points.insert(total.points.end(), part.points.begin(), part.points.end());
          total.failed         = part.failed;
          total.stop_reason    = part.stop_reason;
          total.entered_tongue = part.entered_tongue;
          if (io::interrupt_signal() != 0)
            break;
          if (restart > 0 && part.points.empty())
            {
              // Nothing converged past the kink: jump further (10× at most twice), then give up.
              total.stop_reason = "no orbit beyond the last point (" + total.restarts.back() + ")";
              if (jump < 100 * settings.restart_jump && restart < settings.max_restarts)
                {
                  jump *= 10;
                  const auto &last   = total.points.back();
                  const bool  free   = forced_flow == nullptr;
                  const double value = free ? last.energy : last.frequency;
                  parameter          = value * (1 + restart_direction * jump);
                  continue;
                }
              break;
            }
          jump = settings.restart_jump;
          if (!part.failed || part.points.empty() || restart >= settings.max_restarts ||
              total.points.size() >= settings.max_points)
            break;
          // Restart past the last point, toward the upper bound (the way every branch is traced:
          // energy up from grazing, forcing frequency up from its minimum).
          const auto  &last  = total.points.back();
          const bool   free  = forced_flow == nullptr;
          const auto   value = [&](const BranchPoint &p) { return free ? p.energy : p.frequency; };
          // Onward: the way the branch was going (energy up from grazing, forcing frequency up;
          // down for a family that leaves grazing toward lower energies and has not turned).
          const std::size_t n_points = total.points.size();
          const double direction =
            n_points >= 2 ? (value(last) >= value(total.points[n_points - 2]) ? 1.0 : -1.0) : settings.direction;
          restart_direction = direction;
          parameter = value(last) * (1 + direction * jump);
          if (parameter > parameter_max || parameter < parameter_min)
            break;
          total.restarts.push_back(part.stop_reason);
          x0     = last.state;
          period = last.period;
        }
      return total;
    }
  } // namespace

  namespace
  {
    // A branch stopped at a tongue's entry goes on from the map's own orbit guess at tongue_jump
    // × that energy beyond it, again and again, until the energy bound or the point limit. A start
    // Newton does not converge on (near a tongue the guess is far from the orbit) is tried again
    // further on, Restarts times at most in a row; an empty branch from `start_energy` as well.
    // The first point of each new stretch is marked restarted.
    void continue_past_tongues(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                               const double start_energy, Branch &branch, const ProgressCallback &progress)
    {
      // Starts in a row Newton did not converge on (the first one's included): the next is further on.
      unsigned int failures = branch.points.empty() ? 1 : 0;
      double       energy   = branch.points.empty() ? start_energy : branch.points.back().energy;
      while ((branch.entered_tongue || failures > 0) && failures <= settings.max_restarts &&
             branch.points.size() < settings.max_points && io::interrupt_signal() == 0)
        {
          energy *= 1 + settings.direction * settings.tongue_jump;
          if (energy > settings.max_energy || energy < settings.min_energy)
            break;
          const auto start = flow.one_impact_orbit(settings.mode, energy, 1);
          if (!start)
            break;
          ContinuationSettings here = settings;
          here.max_points           = settings.max_points - static_cast<unsigned int>(branch.points.size());
          const std::size_t offset  = branch.points.size();
          const auto        shifted = [&](const BranchPoint &p, unsigned int k) {
            if (progress)
              progress(p, static_cast<unsigned int>(offset + k));
          };
          Branch part = continue_free_family(flow, here, start->first, start->second, shifted);
          branch.flow_evaluations += part.flow_evaluations;
          if (part.points.empty())
            {
              ++failures;
              continue;
            }
          failures = 0;
          if (!branch.points.empty())
            branch.restarts.push_back(branch.stop_reason);
          if (!part.points.empty())
            part.points.front().restarted = true;
          branch.points.insert(branch.points.end(), part.points.begin(), part.points.end());
          branch.stop_reason    = part.stop_reason;
          branch.failed         = part.failed;
          branch.entered_tongue = part.entered_tongue;
          if (!part.points.empty())
            energy = std::max(energy, part.points.back().energy);
        }
    }
  } // namespace

  std::string family_name(const ContinuationSettings &settings)
  {
    return "mode " + std::to_string(settings.mode) +
           (settings.cycles > 1 ? ", " + std::to_string(settings.cycles) + " cycles" : std::string());
  }

  namespace
  {
    // The symmetric orbit near a grazing linear mode is an orbit of the impact system only if the
    // flow from it meets the stop once, at T/2: one that meets it again inside (a subharmonic one
    // can, like mode 1 of the 2-DOF chain over two periods) means no family leaves there. One that
    // meets it once but does not return (its two conditions have no exact solution with many
    // modes, e.g. the beam with all FE modes) is still Newton's start.
    std::optional<Branch> inadmissible_start(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                             const Vector &x0, const double period)
    {
      const FlowResult once    = flow.flow(x0, period, 0.0, false);
      unsigned int     impacts = 0;
      for (const auto &event : once.events)
        impacts += event.kind == ContactEvent::Kind::impact ? 1 : 0;
      const double return_error = (once.x - x0).norm() / std::max(x0.norm(), 1e-300);
      if (impacts <= 1)
        return std::nullopt;
      Branch branch;
      branch.family           = family_name(settings);
      branch.failed           = true;
      branch.flow_evaluations = once.evaluations;
      std::ostringstream reason;
      reason << "no family: the symmetric one-impact orbit of period " << period << " near the grazing mode meets the "
             << "stop " << impacts << " times (returns to " << return_error << "), it penetrates inside its period";
      branch.stop_reason = reason.str();
      return branch;
    }
  } // namespace

  namespace
  {
    // A family of a map whose periods are whole steps (scanned_in_energy): its orbit at each of
    // max_points energies log-spaced from `from` to the energy bound, each found by the map
    // without Newton (the reversible start and its return), no LOCA. Its monodromy is a signed
    // permutation (orthogonal): every multiplier has modulus 1, reported as such.
    Branch scan_free_family(const PeriodicFlowMap &flow, const ContinuationSettings &settings, const double from,
                            const ProgressCallback &progress)
    {
      Branch branch;
      branch.family = family_name(settings);
      if (!(from > 0))
        throw std::invalid_argument("a family scanned in energy needs a start of positive energy (the start state "
                                    "has E = " + std::to_string(from) + ")");
      if (!std::isfinite(settings.max_energy) || !(settings.max_energy > from))
        throw std::invalid_argument("a family scanned in energy runs from its start (E = " + std::to_string(from) +
                                    ") up to the energy bound (Maximum energy, or Maximum energy factor × the "
                                    "grazing energy), which must lie above it");
      const unsigned int n = std::max(2u, settings.max_points);
      for (unsigned int k = 0; k < n; ++k)
        {
          if (const int signal = io::interrupt_signal(); signal != 0)
            {
              branch.stop_reason = "interrupted by signal " + std::to_string(signal);
              return branch;
            }
          const double energy = from * std::pow(settings.max_energy / from, double(k) / (n - 1));
          const auto   orbit  = flow.one_impact_orbit(settings.mode, energy, settings.cycles);
          if (!orbit)
            {
              branch.failed      = true;
              branch.stop_reason = "no orbit returns from the state of rest at E = " + std::to_string(energy);
              return branch;
            }
          const FlowResult result = flow.flow(orbit->first, orbit->second, 0.0, false);
          ++branch.flow_evaluations;
          BranchPoint p;
          p.state          = orbit->first;
          p.period         = orbit->second;
          p.frequency      = 2 * M_PI / p.period;
          p.energy         = flow.energy(p.state);
          p.residual       = (result.x - p.state).norm() / std::max(p.state.norm(), 1e-300);
          p.max_multiplier = 1.0;
          p.stable         = true;
          p.min_gap        = result.min_gap;
          p.grazing_gap    = result.grazing_gap;
          count_contact_events(p, result.events);
          // No penetration (the map holds a contact on or short of its stop, Signorini each step).
          p.admissible = result.min_gap >= -1e-12 * std::max(1.0, std::abs(result.min_gap));
          branch.points.push_back(p);
          if (progress)
            progress(branch.points.back(), k);
        }
      branch.stop_reason = "energy bound (scanned)";
      return branch;
    }
  } // namespace

  Branch continue_free_family(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                              const ProgressCallback &progress)
  {
    if (flow.scanned_in_energy())
      return scan_free_family(flow, settings, settings.start_energy_factor * flow.grazing_energy(settings.mode),
                              progress);
    const double graze = flow.grazing_energy(settings.mode);
    if (!std::isfinite(graze))
      throw std::invalid_argument("linear mode " + std::to_string(settings.mode) + " never reaches a contact");
    // Above grazing, start on the impacting orbit itself where the map knows it: Newton from the
    // linear mode does not cross the grazing point (the map's Jacobian grows like 1/U− there).
    const double energy = settings.start_energy_factor * graze;
    if (settings.start_energy_factor > 1 || settings.cycles > 1)
      if (const auto start = flow.one_impact_orbit(settings.mode, energy, settings.cycles))
        {
          ContinuationSettings away = settings;
          away.direction            = flow.energy(start->first) >= graze ? 1.0 : -1.0;
          if (auto refused = inadmissible_start(flow, away, start->first, start->second))
            return *refused;
          Branch branch = continue_free_family(flow, away, start->first, start->second, progress);
          if (settings.tongue_jump > 0 && settings.cycles == 1)
            continue_past_tongues(flow, away, energy, branch, progress);
          return branch;
        }
    if (settings.cycles > 1)
      throw std::invalid_argument("mode " + std::to_string(settings.mode) + " with " +
                                  std::to_string(settings.cycles) +
                                  " cycles: the map knows no one-impact orbit to start from (e = 1, undamped, rigid "
                                  "contacts only)");
    return continue_free_family(flow, settings, flow.linear_mode_state(settings.mode, energy),
                                flow.linear_period(settings.mode), progress);
  }

  Branch continue_free_family(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                              const Vector &x0, const double period, const ProgressCallback &progress)
  {
    if (flow.scanned_in_energy()) // only the guess's energy matters: the map finds its orbits
      return scan_free_family(flow, settings, flow.energy(x0), progress);
    Branch branch = run_with_restarts(flow, nullptr, settings, x0, period, flow.energy(x0), settings.min_energy,
                                      settings.max_energy, progress);
    branch.family = family_name(settings);
    return branch;
  }

  Branch continue_forced_response(PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                  const Vector &x0, const ProgressCallback &progress)
  {
    if (!flow.forced())
      throw std::invalid_argument("a forced response needs a harmonic load");
    // Without a guess, the damped response settles from rest over some forcing periods.
    const double T0    = 2 * M_PI / settings.min_frequency;
    flow.set_forcing_frequency(settings.min_frequency);
    Vector start = x0;
    if (start.size() == 0)
      {
        start = Vector::Zero(flow.dimension());
        io::ProgressBar bar("forced response settling from rest (200 periods)", 200, settings.quiet);
        for (int k = 0; k < 200; ++k)
          {
            io::throw_if_interrupted("while the forced response settled from rest: nothing written");
            start = flow.flow(start, T0, 0.0, false).x;
            bar.update(k + 1);
          }
        bar.finish();
      }
    Branch branch = run_with_restarts(flow, &flow, settings, start, T0, settings.min_frequency,
                                      settings.min_frequency, settings.max_frequency, progress);
    branch.family = "forced";
    return branch;
  }
} // namespace vibroimpact::periodic
