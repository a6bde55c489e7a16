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
#include <LOCA_MultiContinuation_ExtendedGroup.H>
#include <NOX_Observer.hpp>
#include <Teuchos_oblackholestream.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
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
    std::size_t largest_sample_index(const Vector &row, const OrbitSamples &samples)
    {
      std::size_t best = 0;
      for (std::size_t k = 0; k < samples.time.size(); ++k)
        if (std::abs(row.dot(samples.displacement[k])) > std::abs(row.dot(samples.displacement[best])))
          best = k;
      return best;
    }
  } // namespace

  double largest_sample(const Vector &row, const OrbitSamples &samples)
  {
    return samples.time.empty() ? 0.0 : std::abs(row.dot(samples.displacement[largest_sample_index(row, samples)]));
  }

  double largest_displacement(const PeriodicFlowMap &flow, const Vector &x0, const double period, const Vector &row,
                              const OrbitSamples &samples)
  {
    const std::size_t n       = samples.time.size();
    const std::size_t best    = largest_sample_index(row, samples);
    const double      at_best = largest_sample(row, samples);
    if (n < 3)
      return at_best;
    const auto at = [&](const double t) {
      const double tau = std::fmod(std::fmod(t, period) + period, period);
      if (tau < 1e-14 * period)
        return std::abs(row.dot(samples.displacement.front()));
      return std::abs(row.dot(flow.sample(x0, tau, 1).displacement.back()));
    };
    const double dt = samples.time[1] - samples.time[0];
    double       a = samples.time[best] - dt, b = samples.time[best] + dt;
    const double r = 0.5 * (std::sqrt(5.0) - 1);
    double       c = b - r * (b - a), d = a + r * (b - a), fc = at(c), fd = at(d);
    while (b - a > 1e-10 * period)
      if (fc > fd)
        b = d, d = c, fd = fc, c = b - r * (b - a), fc = at(c);
      else
        a = c, c = d, fc = fd, d = a + r * (b - a), fd = at(d);
    return std::max({at_best, fc, fd});
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
      bool        rejected_start = false; // a restart's first orbit is not the one sought
      bool        grazing = false;        // the steps crawl toward a grazing: locate it, restart past it
    };

    // The last points crawl toward a grazing, where the map has a kink and LOCA's steps shrink
    // without end: over five steps the parameter moved by less than 1e-4 (relative) a step while
    // the smallest impact velocity or open-gap minimum fell every step.
    bool approaching_grazing(const std::vector<BranchPoint> &points, const bool free)
    {
      constexpr std::size_t steps = 5;
      if (points.size() < steps + 1)
        return false;
      bool velocity_falls = points.back().impacts > 0, gap_falls = std::isfinite(points.back().grazing_gap);
      for (std::size_t k = points.size() - steps; k < points.size(); ++k)
        {
          const BranchPoint &a = points[k - 1], &b = points[k];
          const double       moved = free ? std::abs(b.energy - a.energy) / std::max(a.energy, 1e-300)
                                          : std::abs(b.frequency - a.frequency) / a.frequency;
          if (moved > 1e-4 || b.impacts != a.impacts || b.sticking_phases != a.sticking_phases)
            return false;
          velocity_falls = velocity_falls && b.min_impact_velocity < a.min_impact_velocity;
          gap_falls      = gap_falls && b.grazing_gap < a.grazing_gap;
        }
      return velocity_falls || gap_falls;
    }

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

    // What the step from q (and r before it) to p did: the parameter turned at q (`fold`), the
    // impacts per period changed, a real multiplier crossed −1 (`period_doubling`).
    void set_step_flags(BranchPoint &p, const BranchPoint &q, const BranchPoint *r, const bool free)
    {
      const auto parameter = [free](const BranchPoint &b) { return free ? b.energy : b.frequency; };
      p.fold               = r != nullptr && (parameter(p) - parameter(q)) * (parameter(q) - parameter(*r)) < 0;
      p.impacts_changed    = p.impacts != q.impacts;
      const auto flips     = [](const BranchPoint &b) {
        int n = 0;
        for (const auto &mu : b.multipliers)
          n += (std::abs(mu.imag()) < 1e-9 && mu.real() < -1.0) ? 1 : 0;
        return n;
      };
      p.period_doubling = flips(p) != flips(q);
    }

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

      // The iterate evaluated last against the last point: |T/T_last − 1| (T_last: the last
      // point's period, or the start's; 0 for forced orbits, whose period is the forcing's), and
      // whether its impacts or sticking phases per period differ.
      SameFamilyTest::Iterate iterate() const
      {
        SameFamilyTest::Iterate it;
        it.forced = !free_;
        if (cache_.key.empty())
          return it;
        if (free_)
          {
            const double last = branch_.points.empty() ? period_scale_ : branch_.points.back().period;
            it.period_change  = std::abs(cache_.key[n_] * period_scale_ / last - 1.0);
          }
        if (!branch_.points.empty())
          {
            BranchPoint counts;
            count_contact_events(counts, cache_.flow.events);
            const BranchPoint &last = branch_.points.back();
            it.contacts_changed = counts.impacts != last.impacts || counts.sticking_phases != last.sticking_phases;
            if (!free_) // T ∝ 1/Ω, Ω = p × the parameter scale
              it.forcing_period_change = std::abs(last.frequency / (cache_.parameter * parameter_scale_) - 1.0);
          }
        return it;
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

    public:
      // The orbit at scaled unknowns X and parameter p, with everything a branch point reports
      // (the flow run again with its Jacobian): the continuation's and the locator's points.
      BranchPoint make_point(const NOX::LAPACK::Vector &X, const double p)
      {
        parameter_      = p;
        const Vector x0 = state(X);
        const double T  = period(X);
        if (forced_flow_)
          forced_flow_->set_forcing_frequency(parameter_ * parameter_scale_);
        const FlowResult result = flow_.flow(x0, T, alpha(X), true);
        ++branch_.flow_evaluations;

        BranchPoint point;
        point.state     = x0;
        point.period    = T;
        point.frequency = 2 * M_PI / T;
        point.energy    = flow_.energy(x0);
        point.unfolding = alpha(X);
        point.residual  = (result.x - x0).norm() / std::max(x0.norm(), 1e-300);
        point.newton_iterations = counter ? counter->iterations : 0;
        count_contact_events(point, result.events);
        point.min_gap             = result.min_gap;
        point.min_impact_velocity = result.min_impact_velocity;
        point.max_penetration     = result.max_penetration;
        point.grazing_gap         = result.grazing_gap;
        point.multipliers         = floquet_multipliers(result.jacobian, free_ ? 2 : 0);
        point.max_multiplier      = 0.0;
        for (const auto &mu : point.multipliers)
          point.max_multiplier = std::max(point.max_multiplier, std::abs(mu));
        point.stable = point.max_multiplier <= 1.0 + settings_.stability_tolerance;
        // Grazing: an impact at vanishing velocity, or a gap closing without an impact.
        const double velocity_scale = std::max(result.x.tail(n_ / 2).norm(), 1e-300);
        // Time steppers penetrate by O(h²): a hundredth of the largest displacement is allowed.
        const double length_scale = std::max(x0.head(n_ / 2).lpNorm<Eigen::Infinity>(), 1e-300);
        point.admissible = point.max_penetration <= 1e-2 * length_scale &&
                           !(point.grazing_gap < 1e-6 * length_scale) &&
                           (point.impacts == 0 || point.min_impact_velocity > 1e-6 * velocity_scale);
        return point;
      }

      // Scaled unknowns and parameter of a branch point, and the residual and Jacobian there:
      // what the special-point locator solves with.
      NOX::LAPACK::Vector unknowns(const BranchPoint &point) const
      {
        NOX::LAPACK::Vector X(free_ ? n_ + 2 : n_);
        for (Eigen::Index k = 0; k < n_; ++k)
          X(k) = point.state[k] / state_scale_;
        if (free_)
          {
            X(n_)     = point.period / period_scale_;
            X(n_ + 1) = point.unfolding * period_scale_;
          }
        return X;
      }
      double parameter(const BranchPoint &point) const
      {
        return (free_ ? point.energy : point.frequency) / parameter_scale_;
      }
      // F(X, p) and ∂F/∂X (with_jacobian) in the scaled unknowns; a flow that fails throws.
      std::pair<Vector, Matrix> residual(const NOX::LAPACK::Vector &X, const double p, const bool with_jacobian)
      {
        parameter_           = p;
        const Evaluation &e  = evaluate(X, with_jacobian);
        return {e.residual, with_jacobian ? e.jacobian : Matrix()};
      }

    private:
      void record(const NOX::LAPACK::Vector &X)
      {
        BranchPoint p = make_point(X, parameter_);
        if (!branch_.points.empty())
          {
            set_step_flags(p, branch_.points.back(),
                           branch_.points.size() >= 2 ? &branch_.points[branch_.points.size() - 2] : nullptr, free_);
            // A step that changes the period by more than the tolerance has landed elsewhere:
            // kept, marked. A forced orbit's period is the forcing's, which smooth stretches
            // change by more on a step; but a step across a grazing is short (Grazing step), so
            // one that changes the contacts and the forcing period that much is marked too.
            const BranchPoint &q = branch_.points.back();
            p.jumped = (free_ || p.impacts_changed || p.sticking_phases != q.sticking_phases) &&
                       std::abs(p.period - q.period) > BranchPoint::jump_tolerance * q.period;
          }
        branch_.points.push_back(p);
        set_reference(p.state);
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
        if (!free_ && approaching_grazing(branch_.points, free_))
          throw StopContinuation{"approaching a grazing", false, false, true};
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
    // own size, is checked again), fails after Maximum Newton iterations, or at once when it
    // leaves its family (SameFamilyTest).
    Teuchos::RCP<NOX::StatusTest::Combo> corrector_tests(const ContinuationSettings &settings,
                                                         const ShootingInterface   &interface)
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
      interface.counter         = Teuchos::rcp(new NewtonCounter);
      interface.counter->report = settings.newton_iteration;
      const auto list = loca_parameters(settings, forced_flow != nullptr, parameter_min / scale, parameter_max / scale,
                                        interface.counter);

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

    // Where a restart may land: near the last orbit (a restart landing far away is on another
    // family: Newton from the last orbit can jump there).
    bool near_last(const BranchPoint &before, const BranchPoint &after)
    {
      return std::abs(after.period - before.period) <= 0.05 * before.period &&
             (after.state - before.state).norm() <= 0.2 * before.state.norm();
    }

    // Orbits of a branch found off LOCA's steps: Newton on the shooting system bordered by a
    // plane tᵀz = c in z = (scaled unknowns, parameter), the pseudo-arclength form, so that it
    // holds through folds. What locates special points and starts a branch past a grazing.
    class OrbitSolver
    {
    public:
      OrbitSolver(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow, const ContinuationSettings &settings,
                  const BranchPoint &reference)
        : settings_(settings)
        , interface_(flow, forced_flow, settings, reference.state, reference.period,
                     forced_flow ? reference.frequency : reference.energy, scratch_, {})
      {}

      Vector z(const BranchPoint &point) const
      {
        const auto X = interface_.unknowns(point);
        Vector     out(X.length() + 1);
        for (int k = 0; k < X.length(); ++k)
          out[k] = X(k);
        out[X.length()] = interface_.parameter(point);
        return out;
      }

      // The orbit on the plane tᵀz = c, Newton from `guess`; empty when Newton does not converge.
      // With a line search, a step that does not lower |F|² + (tᵀz − c)² is halved (at most six
      // times): for guesses far from the orbit, where full steps diverge.
      std::optional<BranchPoint> on_plane(const Vector &guess, const Vector &t, const double c,
                                          const bool line_search = false)
      {
        Vector             zk = guess;
        const Eigen::Index m  = zk.size() - 1;
        try
          {
            for (unsigned int iteration = 0; iteration < settings_.max_newton + 8; ++iteration)
              {
                const double p              = zk[m];
                const auto   X              = unknowns(zk);
                const auto [F, J]           = interface_.residual(X, p, true);
                const double plane          = t.dot(zk) - c;
                if (F.norm() < 0.1 * settings_.tolerance && std::abs(plane) < 1e-12 * (1 + std::abs(c)))
                  return interface_.make_point(X, p);
                const double dp = 1e-7 * std::max(1.0, std::abs(p));
                const Vector Fp = (interface_.residual(X, p + dp, false).first -
                                   interface_.residual(X, p - dp, false).first) / (2 * dp);
                Matrix A(m + 1, m + 1);
                A.topLeftCorner(m, m) = J;
                A.topRightCorner(m, 1) = Fp;
                A.bottomRows(1) = t.transpose();
                Vector rhs(m + 1);
                rhs.head(m) = -F;
                rhs[m]      = -plane;
                const Vector step = A.partialPivLu().solve(rhs);
                zk += line_search ? shortened(step, zk, t, c, F.squaredNorm() + plane * plane) : step;
                if (!zk.allFinite())
                  return std::nullopt;
              }
          }
        catch (const std::runtime_error &)
          {
          }
        return std::nullopt;
      }

      // The step, halved until |F|² + (tᵀz − c)² falls below `merit` (a flow that fails counts as
      // no decrease), the last halving kept.
      Vector shortened(Vector step, const Vector &z, const Vector &t, const double c, const double merit)
      {
        for (int halving = 0; halving < 6; ++halving, step *= 0.5)
          try
            {
              const Vector trial = z + step;
              const Vector F     = interface_.residual(unknowns(trial), trial[trial.size() - 1], false).first;
              const double plane = t.dot(trial) - c;
              if (F.squaredNorm() + plane * plane < merit)
                return step;
            }
          catch (const std::runtime_error &)
            {
            }
        return step;
      }

      // ∂F/∂X at z (scaled unknowns and parameter).
      Matrix jacobian(const Vector &z) { return interface_.residual(unknowns(z), z[z.size() - 1], true).second; }

      // The branch point of z as it stands (no Newton): its orbit's data from one flow.
      BranchPoint point_at(const Vector &z) { return interface_.make_point(unknowns(z), z[z.size() - 1]); }

    private:
      static NOX::LAPACK::Vector unknowns(const Vector &z)
      {
        NOX::LAPACK::Vector X(static_cast<int>(z.size() - 1));
        for (int k = 0; k < X.length(); ++k)
          X(k) = z[k];
        return X;
      }

      const ContinuationSettings &settings_;
      Branch                      scratch_;
      ShootingInterface           interface_;
    };

    bool same_contacts(const BranchPoint &a, const BranchPoint &b)
    {
      return a.impacts == b.impacts && a.sticking_phases == b.sticking_phases;
    }

    // Lagrange's polynomial through (v_k, y_k) at v = 0.
    template <typename Y>
    Y value_at_zero(const std::vector<double> &v, const std::vector<Y> &y)
    {
      Y sum = y[0] * 0.0;
      for (std::size_t k = 0; k < v.size(); ++k)
        {
          double weight = 1.0;
          for (std::size_t j = 0; j < v.size(); ++j)
            if (j != k)
              weight *= v[j] / (v[j] - v[k]);
          sum = sum + weight * y[k];
        }
      return sum;
    }

    // A stretch that ends where an impact's velocity V vanishes (the orbit meets the one with an
    // impact fewer): there the orbit and the parameter are smooth functions of V, but Newton at a
    // fixed parameter stops finding the low-velocity impact some way before (V ~ 1e-3 on the
    // impact oscillator), where `end` is. The orbits at parameters stepping back from `end`, each
    // by half of end's V along the stretch's dp/dV, give z(V) at five velocities; their
    // interpolating polynomial at V = 0 is the grazing orbit (to the fifth power of the spread of
    // V, a change of ~1e-10 of the parameter on that example between four and five orbits). Empty
    // when the orbits do not come out with falling V, or the two extrapolations disagree by more
    // than 1e-7 of the parameter.
    std::optional<BranchPoint>
    extrapolate_vanishing_impact(OrbitSolver &solver, const BranchPoint &last, const BranchPoint &end,
                                 const std::function<std::optional<BranchPoint>(double)> &of_kind)
    {
      const Vector       z_end = solver.z(end), z_last = solver.z(last);
      const Eigen::Index m     = z_end.size() - 1;
      const double       slope = (z_end[m] - z_last[m]) / (end.min_impact_velocity - last.min_impact_velocity);
      if (!std::isfinite(slope) || slope == 0)
        return std::nullopt;
      const double        step = 0.5 * slope * end.min_impact_velocity; // about V/2 a step back
      std::vector<double> v{end.min_impact_velocity};
      std::vector<Vector> z{z_end};
      for (int k = 1; k <= 4; ++k)
        {
          const auto orbit = of_kind(z_end[m] + k * step);
          if (!orbit || !(orbit->min_impact_velocity > v.back()))
            return std::nullopt;
          v.push_back(orbit->min_impact_velocity);
          z.push_back(solver.z(*orbit));
        }
      const Vector five = value_at_zero(v, z);
      const Vector four =
        value_at_zero(std::vector<double>(v.begin(), v.end() - 1), std::vector<Vector>(z.begin(), z.end() - 1));
      if (!(std::abs(five[m] - four[m]) <= 1e-7 * std::abs(five[m])))
        return std::nullopt;
      return solver.point_at(five);
    }

    // Where the stretch through `before` and `last` ends beyond `last`, in its parameter (a
    // grazing: its orbits gain or lose an impact or a sticking phase, or stop existing; near it
    // the orbit moves like the square root of the parameter, so the branch is monotone in it):
    // bisection on whether the orbit at a fixed parameter is still of the stretch's kind (same
    // contacts, near `last`), down to 1e-11 of the parameter. The last such orbit, or empty when
    // the stretch goes on over 1024 of its last steps.
    std::optional<BranchPoint> locate_stretch_end(OrbitSolver &solver, const BranchPoint &before,
                                                  const BranchPoint &last)
    {
      const Vector       zb   = solver.z(last);
      const Eigen::Index m    = zb.size() - 1;
      const double       step = zb[m] - solver.z(before)[m];
      if (!(std::abs(step) > 0))
        return std::nullopt;
      const Vector t = Vector::Unit(m + 1, m);
      // The two last orbits of the kind: Newton starts on their secant (from the last one alone,
      // near a nonsmooth fold it would land on the orbit of the other side, which is as near).
      Vector     z_ok = zb, z_before = solver.z(before);
      const auto of_kind = [&](const double p) -> std::optional<BranchPoint> {
        const Vector guess = z_ok + (p - z_ok[m]) / (z_ok[m] - z_before[m]) * (z_ok - z_before);
        auto         orbit = solver.on_plane(guess, t, p);
        if (orbit && same_contacts(*orbit, last) && near_last(last, *orbit))
          return orbit;
        return std::nullopt;
      };
      const auto accept = [&](const BranchPoint &orbit) {
        z_before = z_ok;
        z_ok     = solver.z(orbit);
      };
      double                     ok = zb[m], bad = zb[m] + step;
      std::optional<BranchPoint> end = last;
      // LOCA's last steps crawl: the end may lie a thousand of them further.
      for (double reach = 1; reach <= 1024; reach *= 2, bad = zb[m] + reach * step)
        {
          auto orbit = of_kind(bad);
          if (!orbit)
            break;
          if (reach == 1024)
            return std::nullopt;
          ok = bad, end = orbit, accept(*orbit);
        }
      while (std::abs(bad - ok) > 1e-11 * std::abs(ok))
        {
          const double mid = 0.5 * (ok + bad);
          if (auto orbit = of_kind(mid))
            ok = mid, end = orbit, accept(*orbit);
          else
            bad = mid;
        }
      if (end && end->impacts > 0 && end->min_impact_velocity < 0.5 * last.min_impact_velocity)
        if (auto grazing = extrapolate_vanishing_impact(solver, last, *end, of_kind))
          return grazing;
      return end;
    }

    double branch_parameter(const BranchPoint &p, const bool free) { return free ? p.energy : p.frequency; }

    // Test functions of the special points, from ∂F/∂X (forced: M − I; free: the bordered
    // Jacobian in (x0, T, α), whose state block is M − I): each changes sign where its point is
    // crossed. sign(det A)·|det A|^(1/m) keeps the sign and stays finite for large m.
    double signed_root_det(const Matrix &A)
    {
      const Eigen::PartialPivLU<Matrix> lu(A);
      const Vector diagonal = lu.matrixLU().diagonal();
      double       log_size = 0, sign = lu.permutationP().determinant();
      for (Eigen::Index k = 0; k < diagonal.size(); ++k)
        {
          if (diagonal[k] == 0)
            return 0.0;
          sign *= diagonal[k] < 0 ? -1 : 1;
          log_size += std::log(std::abs(diagonal[k]));
        }
      return sign * std::exp(log_size / static_cast<double>(diagonal.size()));
    }
    // A fold (or a branch point): F_X singular, a multiplier at +1.
    double fold_test(const Matrix &J, Eigen::Index) { return signed_root_det(J); }
    // A period doubling: det(M + I) = det((M − I) + 2I) over the state block, a multiplier at −1.
    double doubling_test(const Matrix &J, const Eigen::Index n)
    {
      return signed_root_det(J.topLeftCorner(n, n) + 2 * Matrix::Identity(n, n));
    }

    // A Neimark–Sacker point (forced responses): a complex pair of multipliers μ, μ̄ crossing the
    // unit circle, where μ μ̄ = 1, i.e. where det(M ⊙ M − I) vanishes, M ⊙ M the bialternate
    // product of the monodromy matrix M = (M − I) + I with itself (Kuznetsov, Elements of Applied
    // Bifurcation Theory, §10.2). Its eigenvalues are the products μ_i μ_j (i < j), so the
    // determinant is Π (μ_i μ_j − 1): computed from M's n eigenvalues (O(n³)), not from the
    // bialternate matrix itself (n²/2 square, O(n⁶)), with signed_root_det's scaling. The set of
    // multipliers is closed under conjugation, so the product is real: its sign is that of the
    // cosine of its summed arguments. A real pair μ, 1/μ (a neutral saddle) also makes it vanish:
    // the located point is checked.
    double neimark_sacker_test(const Matrix &J, const Eigen::Index n)
    {
      const Matrix M = J.topLeftCorner(n, n) + Matrix::Identity(n, n);
      if (n < 2)
        return 1.0;
      const Eigen::EigenSolver<Matrix> eigen(M, false);
      if (eigen.info() != Eigen::Success) // no sign to read: no point located here
        return std::numeric_limits<double>::quiet_NaN();
      const Eigen::VectorXcd mu = eigen.eigenvalues();
      double log_size = 0, angle = 0;
      for (Eigen::Index i = 1; i < n; ++i)
        for (Eigen::Index j = 0; j < i; ++j)
          {
            const std::complex<double> factor = mu[i] * mu[j] - 1.0;
            if (factor == 0.0)
              return 0.0;
            log_size += std::log(std::abs(factor));
            angle += std::arg(factor);
          }
      const double pairs = static_cast<double>(n * (n - 1) / 2);
      return (std::cos(angle) < 0 ? -1.0 : 1.0) * std::exp(log_size / pairs);
    }

    // Whether a located point has a complex pair of multipliers on the unit circle.
    bool complex_pair_on_unit_circle(const BranchPoint &point)
    {
      for (const auto &mu : point.multipliers)
        if (std::abs(mu.imag()) > 1e-6 * std::abs(mu) && std::abs(std::abs(mu) - 1) < 1e-6)
          return true;
      return false;
    }

    // Where the test function changes sign between the consecutive points a and b of one stretch:
    // Illinois false position in the arc length s along their secant, each orbit found on the
    // plane tᵀz = tᵀz_a + s, to 1e-12 of the secant's length (the parameter there to ~1e-12).
    // Ja and Jb: ∂F/∂X at a and b (each flowed once for all the tests).
    std::optional<BranchPoint> locate_between(OrbitSolver &solver, const BranchPoint &a, const BranchPoint &b,
                                              const Matrix &Ja, const Matrix &Jb,
                                              const std::function<double(const Matrix &, Eigen::Index)> &test,
                                              const Eigen::Index n)
    {
      const Vector za = solver.z(a), zb = solver.z(b);
      const double length = (zb - za).norm();
      if (!(length > 0))
        return std::nullopt;
      const Vector t  = (zb - za) / length;
      double       lo = 0, hi = length, f_lo = test(Ja, n), f_hi = test(Jb, n);
      if (!(f_lo * f_hi < 0))
        return std::nullopt;
      std::optional<BranchPoint> found;
      int                        side = 0;
      for (int k = 0; k < 80 && hi - lo > 1e-12 * length; ++k)
        {
          const double s     = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
          auto         orbit = solver.on_plane(za + s * t, t, t.dot(za) + s);
          // An orbit off the secant by more than its length is another branch's (seen: a fold
          // "located" at −4.7 rad/s between two orbits at 11.5).
          if (!orbit || (solver.z(*orbit) - (za + s * t)).norm() > length)
            return std::nullopt;
          const double f = test(solver.jacobian(solver.z(*orbit)), n);
          found          = orbit;
          if (f * f_lo > 0)
            {
              lo = s, f_lo = f;
              f_hi *= side == -1 ? 0.5 : 1.0; // Illinois: halve the end that stayed
              side = -1;
            }
          else
            {
              hi = s, f_hi = f;
              f_lo *= side == 1 ? 0.5 : 1.0;
              side = 1;
            }
          if (f == 0)
            break;
        }
      return found;
    }

    // Folds, branch points, period doublings and (forced responses) Neimark–Sacker points located
    // between consecutive points of one stretch (same contacts, no restart between) where their
    // test function changes sign, and inserted there (BranchPoint::special). A fold is where the parameter turns; a sign change
    // of the same test where it does not is a branch point.
    // The special points located between a and b (one pair of one stretch), in their order along it.
    std::vector<BranchPoint> special_points_between(OrbitSolver &solver, const BranchPoint &a, const BranchPoint &b,
                                                    const Matrix &J_a, const Matrix &J_b, const bool free,
                                                    const Eigen::Index n)
    {
      const auto locate = [&](const auto &test) { return locate_between(solver, a, b, J_a, J_b, test, n); };
      std::vector<BranchPoint> found;
      if (auto fold = locate(fold_test))
        {
          const double pa = branch_parameter(a, free), pf = branch_parameter(*fold, free), pb = branch_parameter(b, free);
          fold->special = (pf - pa) * (pb - pf) < 0 ? "fold" : "branch point";
          found.push_back(*fold);
        }
      if (auto doubling = locate(doubling_test))
        {
          doubling->special = "period doubling";
          found.push_back(*doubling);
        }
      // A conservative family keeps its pairs on the unit circle: forced responses only.
      if (!free)
        if (auto torus = locate(neimark_sacker_test); torus && complex_pair_on_unit_circle(*torus))
          {
            torus->special = "Neimark-Sacker";
            found.push_back(*torus);
          }
      const auto along = [&](const BranchPoint &p) { return (solver.z(p) - solver.z(a)).norm(); };
      std::sort(found.begin(), found.end(), [&](const auto &x, const auto &y) { return along(x) < along(y); });
      return found;
    }

    // The grazing (or chatter–sticking transition) an ordinary step from `a` to `b` crosses: where
    // a's kind of orbit ends beyond it (bisection of the stretch's kind, as where a stretch ends),
    // from `before` (the point before `a`, or null) and `a`, kept when it lies between a and b.
    // Without a point before `a` of its kind, the orbit 1 % of the step back from `a` serves.
    std::optional<BranchPoint> crossed_grazing(OrbitSolver &solver, const BranchPoint *before, const BranchPoint &a,
                                               const BranchPoint &b)
    {
      std::optional<BranchPoint> back;
      if (before == nullptr || !same_contacts(*before, a))
        {
          const Vector       za = solver.z(a), zb = solver.z(b);
          const Eigen::Index m  = za.size() - 1;
          const Vector       guess = za - 0.01 * (zb - za);
          back                     = solver.on_plane(guess, Vector::Unit(m + 1, m), guess[m]);
          if (!back || !same_contacts(*back, a))
            return std::nullopt;
          before = &*back;
        }
      auto g = locate_stretch_end(solver, *before, a);
      if (!g || g->frequency < std::min(a.frequency, b.frequency) || g->frequency > std::max(a.frequency, b.frequency))
        return std::nullopt;
      g->special = a.sticking_phases != b.sticking_phases ? "chatter-sticking" : "grazing";
      return g;
    }

    void locate_special_points(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                               const ContinuationSettings &settings, Branch &branch)
    {
      if (branch.points.size() < 2 || io::interrupt_signal() != 0)
        return;
      const bool         free = forced_flow == nullptr;
      const Eigen::Index n    = flow.dimension();
      OrbitSolver        solver(flow, forced_flow, settings, branch.points.front());
      std::vector<BranchPoint> points{branch.points.front()};
      // ∂F/∂X at each point, flowed once: it is the end of one pair and the start of the next.
      std::optional<Matrix> J_a, J_b;
      for (std::size_t k = 1; k < branch.points.size(); ++k, J_a = std::move(J_b), J_b.reset())
        {
          const BranchPoint &a = branch.points[k - 1], &b = branch.points[k];
          if (settings.locate_crossed_grazings && !free && !same_contacts(a, b) && !b.restarted &&
              io::interrupt_signal() == 0)
            if (auto g = crossed_grazing(solver, k >= 2 && !a.restarted ? &branch.points[k - 2] : nullptr, a, b))
              points.push_back(*g);
          if (same_contacts(a, b) && !b.restarted && a.special.empty() && b.special.empty() &&
              io::interrupt_signal() == 0)
            try
              {
                if (!J_a)
                  J_a = solver.jacobian(solver.z(a));
                J_b = solver.jacobian(solver.z(b));
                const auto found = special_points_between(solver, a, b, *J_a, *J_b, free, n);
                points.insert(points.end(), found.begin(), found.end());
              }
            catch (const io::Interrupted &) // the branch as continued, located so far
              {
              }
          points.push_back(b);
        }
      branch.points = std::move(points);
    }


    // The progress of a part of a branch that follows `offset` points.
    ProgressCallback progress_after(const ProgressCallback &progress, const std::size_t offset)
    {
      return [progress, offset](const BranchPoint &p, const unsigned int k) {
        if (progress)
          progress(p, static_cast<unsigned int>(offset + k));
      };
    }

    // One way past the point where LOCA failed: LOCA from a guess (the last orbit, or one through
    // the located grazing) at a parameter value, kept going while its first orbit is accepted.
    struct RestartAttempt
    {
      Vector state;
      double period, parameter, direction;
      // Its first orbit has to differ from the stretch just traced in impacts or sticking phases
      // (a start that is the other side of a grazing, not the way back).
      bool other_side;
    };

    // The ways past the end of a stretch (`stretch`, its points in order) at `end` (its located
    // grazing, or its last orbit): onward by Restart jump from it; from the stretch's orbit at
    // 10⁻⁴, 10⁻³ and 10⁻² of the parameter before it (Newton from the grazing orbit itself, where
    // the map's Jacobian is unbounded, can fail), onward the same, and that orbit reflected through
    // the end (2 x_end − x),
    // at the parameter continued (the other side going on: an impact gained) and at the parameter
    // turned back (a nonsmooth fold: the orbit with one impact fewer or more leaves the way the
    // branch came, as the unstable one-impact orbit of a forced oscillator meeting the orbit
    // without impacts); turned back by Restart jump; onward by 10× and 100× that.
    std::vector<RestartAttempt> restart_attempts(const std::vector<BranchPoint> &stretch, const BranchPoint &end,
                                                 const bool free, const double onward, const double jump)
    {
      const double                pe = branch_parameter(end, free);
      std::vector<RestartAttempt> attempts{{end.state, end.period, pe * (1 + onward * jump), onward, false}};
      for (const double distance : {1e-4, 1e-3, 1e-2})
        {
          // The stretch's point nearest that far before the end.
          const BranchPoint *before = nullptr;
          for (const auto &p : stretch)
            if (std::abs(branch_parameter(p, free) - pe) >= distance * std::abs(pe))
              before = &p;
          if (before == nullptr)
            continue;
          const double pb      = branch_parameter(*before, free);
          const Vector through = 2 * end.state - before->state;
          const double period  = 2 * end.period - before->period;
          attempts.push_back({before->state, before->period, pe * (1 + onward * jump), onward, false});
          attempts.push_back({through, period, 2 * pe - pb, onward, true});
          attempts.push_back({through, period, pb, -onward, true});
        }
      attempts.push_back({end.state, end.period, pe * (1 - onward * jump), -onward, true});
      // Further on, from the end and from the stretch's orbit farthest before it.
      const BranchPoint &first = stretch.front();
      for (const double factor : {10.0, 100.0})
        for (const BranchPoint *start : {&end, &first})
          attempts.push_back({start->state, start->period, pe * (1 + factor * onward * jump), onward, false});
      return attempts;
    }

    // A free family's ways past where LOCA failed: onward from its last orbit by Restart jump,
    // 10× and 100× that (its grazings gain an impact going on; the forced response's turns of
    // restart_attempts are not needed there, and its restarts keep to what the tests of the
    // conservative families measured).
    std::vector<RestartAttempt> onward_attempts(const BranchPoint &last, const double onward, const double jump)
    {
      std::vector<RestartAttempt> attempts;
      for (const double factor : {1.0, 10.0, 100.0})
        attempts.push_back({last.state, last.period, last.energy * (1 + factor * onward * jump), onward, false});
      return attempts;
    }

    // A located grazing that was located before (same contacts, parameter to 1e-8): the branch
    // has come round (a closed loop of chatter orbits) and would go round again.
    bool closes_on_itself(const std::vector<BranchPoint> &points, const BranchPoint &grazing, const bool free)
    {
      const double here = branch_parameter(grazing, free);
      return std::any_of(points.begin(), points.end(), [&](const BranchPoint &p) {
        return (p.special == "grazing" || p.special == "chatter-sticking") && same_contacts(p, grazing) &&
               std::abs(branch_parameter(p, free) - here) <= 1e-8 * std::abs(here);
      });
    }

    // The stretch the last LOCA run ended on: its points back to the last change of contacts or
    // restart. A last point across a change of contacts (LOCA stepped over the kink on a step
    // shorter than Grazing step and failed after it) is dropped: the located kink replaces it.
    std::vector<BranchPoint> last_stretch(Branch &branch, const bool free)
    {
      auto &points = branch.points;
      if (!free && points.size() >= 2 && !same_contacts(points[points.size() - 2], points.back()) && !points.back().restarted)
        points.pop_back();
      std::size_t first = points.size() - 1;
      while (first > 0 && same_contacts(points[first - 1], points.back()) && !points[first].restarted)
        --first;
      return {points.begin() + static_cast<std::ptrdiff_t>(first), points.end()};
    }

    // Points traced backwards put in the branch's order: reversed, each break (`restarted`,
    // `jumped`, on the first point after it) moved to the point that now follows it, and the
    // flags of each step (fold, impacts changed, period doubling) set for the new order.
    void in_branch_order(std::vector<BranchPoint> &points)
    {
      for (std::size_t k = 0; k + 1 < points.size(); ++k)
        {
          points[k].restarted = points[k + 1].restarted;
          points[k].jumped    = points[k + 1].jumped;
        }
      if (!points.empty())
        points.back().restarted = points.back().jumped = false;
      std::reverse(points.begin(), points.end());
      for (std::size_t k = 1; k < points.size(); ++k)
        set_step_flags(points[k], points[k - 1], k >= 2 ? &points[k - 2] : nullptr, false);
    }

    // A restart (forced responses) leaves the parameters between the stretch's end and its first
    // orbit without an orbit (a Restart jump past a grazing; a far restart): that orbit's own
    // stretch is traced back toward the end too (plain LOCA, bounded by the two), and put before
    // it in the branch's order, so that the branch covers what it stepped over with the orbits
    // there (the side of a grazing that gained an impact), up to where they end.
    void trace_start_back(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                          const ContinuationSettings &settings, const double onward, const BranchPoint &end,
                          Branch &part, const std::size_t offset, unsigned long &evaluations,
                          const ProgressCallback &progress)
    {
      const std::size_t used = offset + part.points.size();
      if (used + 2 > settings.max_points)
        return;
      const BranchPoint   &start = part.points.front();
      const double         from = branch_parameter(start, false), to = branch_parameter(end, false);
      if (!(std::abs(from - to) > 1e-9 * std::abs(to)))
        return;
      ContinuationSettings here = settings;
      here.direction            = -onward;
      here.max_points           = settings.max_points - static_cast<unsigned int>(used);
      Branch back = run_loca(flow, forced_flow, here, start.state, start.period, from, std::min(from, to),
                             std::max(from, to), progress_after(progress, used));
      evaluations += back.flow_evaluations;
      // Only its continuous part between the two: up to a step that left the interval or was
      // marked (a restart inside, or a period change that may be another family).
      const auto outside = std::find_if(back.points.begin() + 1, back.points.end(), [&](const BranchPoint &p) {
        const double q = branch_parameter(p, false);
        return p.restarted || p.jumped || q < std::min(from, to) || q > std::max(from, to);
      });
      back.points.erase(outside, back.points.end());
      if (back.points.size() <= 1)
        return;
      in_branch_order(back.points);
      back.points.pop_back(); // the restart's first orbit itself, part's first
      const std::size_t joint = back.points.size();
      part.points.insert(part.points.begin(), back.points.begin(), back.points.end());
      set_step_flags(part.points[joint], part.points[joint - 1], joint >= 2 ? &part.points[joint - 2] : nullptr, false);
    }

    // The first restart attempt whose first orbit is accepted (near the end, on the other side
    // where asked), continued by LOCA; else, for a forced response, the first that converged
    // anywhere, marked `jumped` (a visible break).
    std::optional<Branch> restart_past(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                                       const ContinuationSettings &settings, const std::vector<RestartAttempt> &attempts,
                                       const BranchPoint &end, const std::size_t offset, const double parameter_min,
                                       const double parameter_max, unsigned long &evaluations,
                                       const ProgressCallback &progress)
    {
      const bool free = forced_flow == nullptr;
      for (const bool allow_far : {false, true})
        for (const auto &attempt : attempts)
          {
            if (attempt.parameter > parameter_max || attempt.parameter < parameter_min || io::interrupt_signal() != 0 ||
                (allow_far && (free || attempt.other_side)))
              continue;
            ContinuationSettings here = settings;
            here.direction            = attempt.direction;
            here.max_points           = settings.max_points - static_cast<unsigned int>(offset);
            const auto shifted        = [&](const BranchPoint &p, unsigned int k) {
              if (k == 0)
                {
                  const bool far = !near_last(end, p);
                  if ((far && !allow_far) || (attempt.other_side && same_contacts(p, end)))
                    throw StopContinuation{"restart rejected", false, true};
                }
              if (progress)
                progress(p, static_cast<unsigned int>(offset + k));
            };
            Branch part = run_loca(flow, forced_flow, here, attempt.state, attempt.period, attempt.parameter,
                                   parameter_min, parameter_max, shifted);
            evaluations += part.flow_evaluations;
            if (part.points.empty())
              continue;
            if (!free)
              trace_start_back(flow, forced_flow, settings, attempt.direction, end, part, offset, evaluations,
                               progress);
            part.points.front().restarted = true;
            part.points.front().jumped    = allow_far;
            return part;
          }
      return std::nullopt;
    }

    // LOCA until it fails; then the grazing where its stretch ended is located (inserted as a
    // special point), and LOCA starts again past it (restart_attempts). A family whose map has
    // a kink (a grazing that adds an impact per period, a chatter sequence gaining an impact)
    // goes on past it. A restart that lands only on another orbit ends a free family; a forced
    // response keeps it as a visible break (`restarted` and `jumped`), the way a sweep jumps.
    Branch run_with_restarts(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                             const ContinuationSettings &settings, Vector x0, double period, double parameter,
                             const double parameter_min, const double parameter_max, const ProgressCallback &progress)
    {
      const bool free  = forced_flow == nullptr;
      Branch     total = run_loca(flow, forced_flow, settings, x0, period, parameter, parameter_min, parameter_max,
                                  progress);
      for (unsigned int restart = 0; total.failed && !total.points.empty() && restart < settings.max_restarts &&
                                     total.points.size() < settings.max_points && io::interrupt_signal() == 0;
           ++restart)
        {
          total.restarts.push_back(total.stop_reason);
          const auto         stretch = last_stretch(total, free);
          const BranchPoint &last    = stretch.back();
          const double onward = stretch.size() >= 2 ? (branch_parameter(last, free) >=
                                                       branch_parameter(stretch[stretch.size() - 2], free) ? 1.0 : -1.0)
                                                    : settings.direction;
          BranchPoint end = last;
          std::optional<std::size_t> located_at; // index of the located end in total.points
          if (!free && stretch.size() >= 2)
            {
              OrbitSolver solver(flow, forced_flow, settings, last);
              if (auto located = locate_stretch_end(solver, stretch[stretch.size() - 2], last))
                {
                  end         = *located;
                  end.special = "grazing";
                  if (closes_on_itself(total.points, end, free))
                    {
                      total.stop_reason = "the branch closes on itself: the grazing at " +
                                          std::to_string(branch_parameter(end, free)) + " was passed before";
                      break;
                    }
                  located_at = total.points.size();
                  total.points.push_back(end);
                  if (progress)
                    progress(end, static_cast<unsigned int>(total.points.size() - 1));
                }
            }
          auto found = restart_past(flow, forced_flow, settings,
                                    free ? onward_attempts(last, onward, settings.restart_jump)
                                         : restart_attempts(stretch, end, free, onward, settings.restart_jump),
                                    end, total.points.size(), parameter_min, parameter_max, total.flow_evaluations,
                                    progress);
          if (!found)
            {
              total.stop_reason = "no orbit beyond the last point (" + total.restarts.back() + ")";
              break;
            }
          // A located end past which the orbits gain or lose a sticking phase is where the chatter
          // time of the impact law turns a chatter sequence into sticking (or back): marked so.
          if (located_at && !found->points.empty() && !found->points.front().jumped &&
              found->points.front().sticking_phases != total.points[*located_at].sticking_phases)
            total.points[*located_at].special = "chatter-sticking";
          total.points.insert(total.points.end(), found->points.begin(), found->points.end());
          total.failed         = found->failed;
          total.stop_reason    = found->stop_reason;
          total.entered_tongue = found->entered_tongue;
        }
      locate_special_points(flow, forced_flow, settings, total);
      return total;
    }
  } // namespace

  namespace
  {
    // Unilateral springs (elastic contacts, massless nodes' condensed stops): the map's start is
    // mode j alone on the spring, exact for one mode. With
    // every FE mode, Newton from it fails where the spring excites the others much (k = 1e3 at 20
    // elements; 160 elements at k = 100). So the start climbs Galerkin subspaces: Newton at the
    // start's energy on the first 2j, 4j, 8j, ... modes, each level from the last one's orbit with
    // the new modes at rest; the full map's Newton (LOCA's first step) from the last. A level
    // Newton fails on ends the climb there, with the orbit of the level below. Maps without
    // subspaces keep their start.
    std::optional<std::pair<Vector, double>> start_orbit(const PeriodicFlowMap &flow,
                                                         const ContinuationSettings &settings, const double energy)
    {
      auto start = flow.one_impact_orbit(settings.mode, energy, settings.cycles);
      unsigned int modes = 2 * settings.mode;
      auto         level = start && settings.cycles == 1 ? flow.on_first_modes(modes) : nullptr;
      if (!level)
        return start;
      auto orbit = level->one_impact_orbit(settings.mode, energy, 1);
      while (level && orbit && io::interrupt_signal() == 0)
        {
          BranchPoint reference;
          reference.state  = orbit->first;
          reference.period = orbit->second;
          reference.energy = level->energy(orbit->first);
          OrbitSolver  solver(*level, nullptr, settings, reference);
          const Vector z0     = solver.z(reference);
          const auto   solved = solver.on_plane(z0, Vector::Unit(z0.size(), z0.size() - 1), z0[z0.size() - 1], true);
          if (!solved)
            break;
          start = std::make_pair(flow.from_first_modes(solved->state), solved->period);
          modes *= 2;
          auto next = flow.on_first_modes(modes);
          orbit     = next ? std::make_optional(std::make_pair(next->from_first_modes(solved->state), solved->period))
                           : std::nullopt;
          level     = std::move(next);
        }
      return start;
    }

    // A tongue the backbone stepped over: its last orbit before the jump (locked in the tongue)
    // and the first one past it.
    struct SteppedOverTongue
    {
      BranchPoint entry, beyond;
    };

    // A branch stopped at a tongue's entry goes on from the map's own orbit guess at tongue_jump
    // × that energy beyond it, again and again, until the energy bound or the point limit. A start
    // Newton does not converge on (near a tongue the guess is far from the orbit) is tried again
    // further on, Restarts times at most in a row; an empty branch from `start_energy` as well.
    // The first point of each new stretch is marked restarted; the tongues stepped over are returned.
    std::vector<SteppedOverTongue> continue_past_tongues(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                                         const double start_energy, Branch &branch,
                                                         const ProgressCallback &progress)
    {
      std::vector<SteppedOverTongue> tongues;
      // Starts in a row Newton did not converge on (the first one's included): the next is further on.
      unsigned int failures = branch.points.empty() ? 1 : 0;
      double       energy   = branch.points.empty() ? start_energy : branch.points.back().energy;
      while ((branch.entered_tongue || failures > 0) && failures <= settings.max_restarts &&
             branch.points.size() < settings.max_points && io::interrupt_signal() == 0)
        {
          energy *= 1 + settings.direction * settings.tongue_jump;
          if (energy > settings.max_energy || energy < settings.min_energy)
            break;
          const auto start = start_orbit(flow, settings, energy);
          if (!start)
            break;
          ContinuationSettings here = settings;
          here.max_points           = settings.max_points - static_cast<unsigned int>(branch.points.size());
          const auto shifted = progress_after(progress, branch.points.size());
          Branch part = continue_free_family(flow, here, start->first, start->second, shifted);
          branch.flow_evaluations += part.flow_evaluations;
          if (part.points.empty())
            {
              ++failures;
              continue;
            }
          failures = 0;
          if (branch.entered_tongue && !branch.points.empty())
            tongues.push_back({branch.points.back(), part.points.front()});
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
      return tongues;
    }

    // The tongues' own families (tongue_family_points): each followed with no tongue jump onward
    // from its entry and back from the first orbit past it, no further back than the family's
    // start energy. Where a flank goes is the dynamics': along the tongue's flank of the
    // subharmonic family, or (when the jump skipped no tongue orbit) back along the backbone.
    void trace_tongue_families(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                               const double start_energy, const std::vector<SteppedOverTongue> &tongues,
                               Branch &branch, const ProgressCallback &progress)
    {
      ContinuationSettings flank = settings;
      flank.tongue_jump          = 0;
      flank.max_points           = settings.tongue_family_points;
      if (settings.direction > 0)
        flank.min_energy = std::max(settings.min_energy, start_energy);
      else
        flank.max_energy = std::min(settings.max_energy, start_energy);
      std::size_t traced = branch.points.size();
      for (std::size_t t = 0; t < tongues.size() && io::interrupt_signal() == 0; ++t)
        for (const bool onward : {true, false})
          {
            const BranchPoint &from = onward ? tongues[t].entry : tongues[t].beyond;
            flank.direction         = onward ? settings.direction : -settings.direction;
            Branch part = continue_free_family(flow, flank, from.state, from.period, progress_after(progress, traced));
            part.family = family_name(settings) + ", tongue " + std::to_string(t + 1) + (onward ? " onward" : " back");
            traced += part.points.size();
            branch.tongue_families.push_back(std::move(part));
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
    // Below grazing, a fundamental family that first dips in energy (the 2-DOF chain's mode 1, by
    // 0.14 %) starts on its impacting orbit there, before its fold; otherwise on the linear mode.
    const double energy = settings.start_energy_factor * graze;
    if (settings.start_energy_factor != 1 || settings.cycles > 1)
      if (const auto start = start_orbit(flow, settings, energy);
          start && (settings.start_energy_factor > 1 || settings.cycles > 1 || flow.energy(start->first) < graze))
        {
          ContinuationSettings away = settings;
          away.direction            = flow.energy(start->first) >= graze ? 1.0 : -1.0;
          if (auto refused = inadmissible_start(flow, away, start->first, start->second))
            return *refused;
          Branch branch = continue_free_family(flow, away, start->first, start->second, progress);
          if (settings.tongue_jump > 0 && settings.cycles == 1)
            {
              const auto tongues = continue_past_tongues(flow, away, energy, branch, progress);
              if (settings.tongue_family_points > 0)
                trace_tongue_families(flow, away, energy, tongues, branch, progress);
            }
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

  namespace
  {
    // Forcing periods a forced response settles over before Newton: from rest at the start, and
    // at each sweep step.
    constexpr int settling_periods = 200;

    // The damped response at the flow's forcing frequency after `periods` forcing periods from x
    // (cut short on an interrupt: the caller checks).
    Vector settled(const PeriodicFlowMap &flow, Vector x, const double period, const int periods,
                   const std::string &what, const bool quiet)
    {
      io::ProgressBar bar(what, periods, quiet);
      for (int k = 0; k < periods && io::interrupt_signal() == 0; ++k)
        {
          x = flow.flow(x, period, 0.0, false).x;
          bar.update(k + 1);
        }
      bar.finish();
      return x;
    }

    // One sweep step to `next`: the response settled over 200 forcing periods from each of the
    // branch's orbits in `carried` (a sweep's carried state; the orbits on both sides of a break)
    // until Newton converges from one, else from rest (where a sweep value starts), continued
    // onward by LOCA and traced back toward `frontier` (the frequency the step skipped from; it
    // stops there or, turning at a fold, where the onward part starts), in the branch's order
    // (`what` names the step on the terminal). Empty where nothing converges.
    Branch sweep_step(PeriodicFlowMap &flow, const ContinuationSettings &settings, std::vector<Vector> carried,
                      const double frontier, const double next, const std::size_t used, const ProgressCallback &progress,
                      const std::string &what)
    {
      const double         d    = settings.direction < 0 ? -1.0 : 1.0;
      ContinuationSettings here = settings;
      here.max_points           = settings.max_points - static_cast<unsigned int>(used);
      Branch        part;
      Vector        start;
      unsigned long evaluations = 0;
      carried.push_back(Vector::Zero(flow.dimension()));
      for (const Vector &from : carried)
        {
          flow.set_forcing_frequency(next);
          start = settled(flow, from, 2 * M_PI / next, settling_periods, "forced response: a sweep step " + what,
                          settings.quiet);
          if (io::interrupt_signal() != 0)
            return part;
          part = run_with_restarts(flow, &flow, here, start, 2 * M_PI / next, next, settings.min_frequency,
                                   settings.max_frequency, progress_after(progress, used));
          evaluations += part.flow_evaluations;
          if (!part.points.empty())
            break;
        }
      part.flow_evaluations = evaluations;
      // Located special points come on top of Maximum points: the budget may be spent.
      const std::size_t spent = used + part.points.size();
      if (part.points.empty() || spent >= settings.max_points)
        return part;
      here.direction  = -d;
      here.max_points = settings.max_points - static_cast<unsigned int>(spent);
      Branch back     = run_with_restarts(flow, &flow, here, start, 2 * M_PI / next, next,
                                          std::min(frontier, next), std::max(frontier, next),
                                          progress_after(progress, spent));
      part.flow_evaluations += back.flow_evaluations;
      if (back.points.size() > 1)
        {
          in_branch_order(back.points);
          // Its last is now the start orbit, part's first: a break before it stays there.
          part.points.front().restarted = back.points.back().restarted;
          part.points.front().jumped    = back.points.back().jumped;
          back.points.pop_back();
          const std::size_t joint = back.points.size();
          part.points.insert(part.points.begin(), back.points.begin(), back.points.end());
          for (std::size_t k = joint; k < std::min(joint + 2, part.points.size()); ++k)
            set_step_flags(part.points[k], part.points[k - 1], k >= 2 ? &part.points[k - 2] : nullptr, false);
          part.restarts.insert(part.restarts.end(), back.restarts.begin(), back.restarts.end());
        }
      return part;
    }

    // `part` put into `branch` at `at` behind a visible break (`restarted` and `jumped` on its
    // first point), with why the break was needed, then part's own restarts.
    void insert_behind_break(Branch &branch, Branch &part, const std::size_t at, const std::string &why)
    {
      part.points.front().restarted = part.points.front().jumped = true;
      branch.restarts.push_back(why);
      branch.restarts.insert(branch.restarts.end(), part.restarts.begin(), part.restarts.end());
      branch.points.insert(branch.points.begin() + static_cast<std::ptrdiff_t>(at), part.points.begin(),
                           part.points.end());
    }

    // A forced response whose branch ends (it closes on itself, or no orbit near its end
    // converges) short of the far end of the frequency range goes on as a slow sweep does, by
    // sweep steps 10 × Restart jump beyond the farthest frequency reached (further each time
    // nothing new is reached, the last one at the end of the range; Restarts steps in a row that
    // converge on nothing end it), each new stretch marked `restarted` and `jumped`, a visible
    // break. An interrupt keeps what was found.
    void sweep_past_ends(PeriodicFlowMap &flow, const ContinuationSettings &settings, Branch &branch,
                         const ProgressCallback &progress)
    {
      const double d        = settings.direction < 0 ? -1.0 : 1.0;
      double       next     = std::numeric_limits<double>::quiet_NaN(); // the last sweep step's frequency
      const double bound    = d > 0 ? settings.max_frequency : settings.min_frequency;
      unsigned int failures = 0;
      while (!branch.points.empty() && branch.points.size() < settings.max_points && io::interrupt_signal() == 0 &&
             failures <= settings.max_restarts)
        {
          const BranchPoint farthest = *std::max_element(branch.points.begin(), branch.points.end(),
                                                         [&](const auto &a, const auto &b) { return d * a.frequency < d * b.frequency; });
          if (next == bound)
            return;
          next = (d * farthest.frequency <= d * next ? next : farthest.frequency) * (1 + d * 10 * settings.restart_jump);
          if (d * (next - bound) > 0)
            {
              if (!(d * (bound - farthest.frequency) > settings.restart_jump * std::abs(bound)))
                return;
              next = bound; // the last step, at the end of the range
            }
          Branch part;
          try
            {
              part = sweep_step(flow, settings, {farthest.state}, farthest.frequency, next, branch.points.size(), progress,
                                "past the branch's end");
            }
          catch (const io::Interrupted &)
            {
              return;
            }
          branch.flow_evaluations += part.flow_evaluations;
          if (part.points.empty())
            {
              ++failures;
              continue;
            }
          failures = 0;
          insert_behind_break(branch, part, branch.points.size(), branch.stop_reason);
          branch.failed      = part.failed;
          branch.stop_reason = part.stop_reason;
        }
    }

    // Whether sweep steps go into the frequencies from..to: wider than half of Restart jump.
    bool worth_a_sweep_step(const double from, const double to, const double jump)
    {
      return to - from > 0.5 * jump * to;
    }

    // The frequencies inside a visible break (every restart: past a grazing by Restart jump, or a
    // far one) that no stretch traced (the restart's own stretch, traced back, ended short of the
    // break's other side): uncovered pieces of each break wider than half of Restart jump, each as
    // the continued steps leave it, with the index of the point before the break.
    std::vector<std::pair<std::size_t, std::pair<double, double>>> untraced_breaks(const Branch &branch,
                                                                                  const double jump)
    {
      const auto &points = branch.points;
      std::vector<std::pair<double, double>> steps;
      for (std::size_t k = 1; k < points.size(); ++k)
        if (!points[k].restarted)
          steps.push_back(std::minmax(points[k - 1].frequency, points[k].frequency));
      std::sort(steps.begin(), steps.end());
      std::vector<std::pair<std::size_t, std::pair<double, double>>> pieces;
      for (std::size_t k = 1; k < points.size(); ++k)
        if (points[k].restarted)
          {
            double       low  = std::min(points[k - 1].frequency, points[k].frequency);
            const double high = std::max(points[k - 1].frequency, points[k].frequency);
            for (const auto &[a, b] : steps)
              {
                if (b <= low || a >= high)
                  continue;
                if (a > low && worth_a_sweep_step(low, a, jump))
                  pieces.push_back({k - 1, {low, a}});
                low = std::max(low, b);
              }
            if (worth_a_sweep_step(low, high, jump))
              pieces.push_back({k - 1, {low, high}});
          }
      return pieces;
    }

    // The ends of the range the branch does not reach (the sweep steps past its ends found
    // nothing there): from the range's bound to its lowest or highest orbit, when wider than half
    // of Restart jump, with the index of that orbit.
    std::vector<std::pair<std::size_t, std::pair<double, double>>> untraced_ends(const Branch                &branch,
                                                                                const ContinuationSettings &settings)
    {
      std::vector<std::pair<std::size_t, std::pair<double, double>>> pieces;
      const auto &points = branch.points;
      if (points.empty())
        return pieces;
      const auto [low, high] = std::minmax_element(points.begin(), points.end(), [](const auto &a, const auto &b) {
        return a.frequency < b.frequency;
      });
      const double jump = settings.restart_jump;
      if (worth_a_sweep_step(settings.min_frequency, low->frequency, jump))
        pieces.push_back({static_cast<std::size_t>(low - points.begin()), {settings.min_frequency, low->frequency}});
      if (worth_a_sweep_step(high->frequency, settings.max_frequency, jump))
        pieces.push_back({static_cast<std::size_t>(high - points.begin()), {high->frequency, settings.max_frequency}});
      return pieces;
    }

    // Where in `piece` the next sweep step goes: the middle of its widest part between the
    // frequencies sweep steps went to before (`tried`), as a sweep refines; NaN when that part is
    // no wider than half of Restart jump.
    double next_sweep_frequency(const std::pair<double, double> &piece, const std::vector<double> &tried,
                                const double jump)
    {
      std::vector<double> cuts{piece.first, piece.second};
      for (const double w : tried)
        if (w > piece.first && w < piece.second)
          cuts.push_back(w);
      std::sort(cuts.begin(), cuts.end());
      std::size_t widest = 0;
      for (std::size_t k = 1; k + 1 < cuts.size(); ++k)
        if (cuts[k + 1] - cuts[k] > cuts[widest + 1] - cuts[widest])
          widest = k;
      if (!worth_a_sweep_step(cuts[widest], cuts[widest + 1], jump))
        return std::numeric_limits<double>::quiet_NaN();
      return 0.5 * (cuts[widest] + cuts[widest + 1]);
    }

    // Sweep steps into the untraced pieces of the breaks and the ends of the range the branch does
    // not reach, each bounded by its piece, from the orbit before the break (or the branch's
    // farthest), else the one after it, else from rest: a new stretch where the response settles
    // on a periodic orbit there (what a slow sweep shows inside the gap), put inside the break (a
    // break before it and after it). Pass after pass, as a sweep refines: a piece that a step
    // traced part of is looked at again in what is left, one where it found nothing in its
    // halves, down to half of Restart jump.
    void sweep_into_gaps(PeriodicFlowMap &flow, const ContinuationSettings &settings, Branch &branch,
                         const ProgressCallback &progress)
    {
      std::vector<double> tried; // the sweep steps' frequencies
      for (bool stepped = true; stepped;)
        {
          stepped     = false;
          auto       pieces = untraced_breaks(branch, settings.restart_jump);
          const auto ends   = untraced_ends(branch, settings);
          pieces.insert(pieces.end(), ends.begin(), ends.end());
          // Inserted from the last, the indices stay valid.
          std::stable_sort(pieces.begin(), pieces.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
          for (const auto &[before, piece] : pieces)
            {
              const double next = next_sweep_frequency(piece, tried, settings.restart_jump);
              if (std::isnan(next))
                continue;
              if (branch.points.size() >= settings.max_points || io::interrupt_signal() != 0)
                return;
              stepped = true;
              tried.push_back(next);
              ContinuationSettings here = settings;
              here.min_frequency        = piece.first;
              here.max_frequency        = piece.second;
              here.direction            = 1.0;
              Branch part;
              try
                {
                  std::vector<Vector> sides{branch.points[before].state};
                  if (before + 1 < branch.points.size())
                    sides.push_back(branch.points[before + 1].state);
                  const bool end = piece.first == settings.min_frequency || piece.second == settings.max_frequency;
                  part = sweep_step(flow, here, sides, piece.first, next, branch.points.size(), progress,
                                    end ? "into the range's untraced end" : "into a break");
                }
              catch (const io::Interrupted &)
                {
                  return;
                }
              branch.flow_evaluations += part.flow_evaluations;
              if (part.points.empty())
                continue;
              insert_behind_break(branch, part, before + 1, "a sweep step into untraced frequencies");
            }
        }
    }
  } // namespace

  namespace
  {
    // The branch's orbits at the report frequencies: on each pair of consecutive points of one
    // stretch whose frequencies bracket one, Newton at that frequency (the plane p = ω) from the
    // secant's point there.
    std::vector<Branch::AtFrequency> orbits_at_frequencies(PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                                           const Branch &branch)
    {
      std::vector<Branch::AtFrequency> found;
      if (settings.report_frequencies.empty() || branch.points.empty())
        return found;
      OrbitSolver solver(flow, &flow, settings, branch.points.front());
      for (std::size_t k = 1; k < branch.points.size() && io::interrupt_signal() == 0; ++k)
        {
          const BranchPoint &a = branch.points[k - 1], &b = branch.points[k];
          if (b.restarted || a.frequency == b.frequency)
            continue;
          const Vector       za = solver.z(a), zb = solver.z(b);
          const Eigen::Index m  = za.size() - 1;
          // The stretch's last point counts its own frequency (elsewhere the next pair does).
          const bool         last = k + 1 == branch.points.size() || branch.points[k + 1].restarted;
          std::vector<double> along; // where the report frequencies fall on the secant, in order
          for (const double w : settings.report_frequencies)
            if (const double s = (w - a.frequency) / (b.frequency - a.frequency); s >= 0 && (s < 1 || (last && s == 1)))
              along.push_back(s);
          std::sort(along.begin(), along.end());
          for (const double s : along)
            {
              const Vector guess = za + s * (zb - za);
              if (auto orbit = solver.on_plane(guess, Vector::Unit(m + 1, m), guess[m]);
                  orbit && (solver.z(*orbit) - guess).norm() <= (zb - za).norm())
                found.push_back({k - 1, *orbit});
            }
        }
      return found;
    }
  } // namespace

  namespace
  {
    // One way over the range: from the lower end up, or from the upper end down (Direction).
    // Without a guess, the damped response settles from rest over some forcing periods.
    Branch one_way_forced_response(PeriodicFlowMap &flow, const ContinuationSettings &settings, const Vector &x0,
                                   const ProgressCallback &progress)
    {
      const double first = settings.direction < 0 ? settings.max_frequency : settings.min_frequency;
      const double T0    = 2 * M_PI / first;
      flow.set_forcing_frequency(first);
      const Vector start = x0.size() > 0 ? x0
                                         : settled(flow, Vector::Zero(flow.dimension()), T0, settling_periods,
                                                   "forced response settling from rest (200 periods)", settings.quiet);
      io::throw_if_interrupted("while the forced response settled from rest: nothing written");
      Branch branch = run_with_restarts(flow, &flow, settings, start, T0, first, settings.min_frequency,
                                        settings.max_frequency, progress);
      sweep_past_ends(flow, settings, branch, progress);
      sweep_into_gaps(flow, settings, branch, progress);
      return branch;
    }

    // Direction = both: the way down appended to the way up (each with Maximum points), the first
    // point down marked a visible break, as a rig's sweep up then down.
    Branch both_ways_forced_response(PeriodicFlowMap &flow, const ContinuationSettings &settings, const Vector &x0,
                                     const ProgressCallback &progress)
    {
      ContinuationSettings way = settings;
      way.direction            = 1.0;
      Branch branch            = one_way_forced_response(flow, way, x0, progress);
      if (io::interrupt_signal() != 0)
        return branch;
      way.direction = -1.0;
      Branch down;
      try
        {
          down = one_way_forced_response(flow, way, {}, progress_after(progress, branch.points.size()));
        }
      catch (const io::Interrupted &)
        {
          return branch; // the way up stays readable
        }
      const auto why = [](const Branch &way) {
        return way.points.empty() ? "no orbit (" + way.stop_reason + ")" : way.stop_reason;
      };
      const std::string stop_reason = "up: " + why(branch) + "; down: " + why(down);
      if (down.points.empty() || branch.points.empty())
        {
          // One way found no orbit at all: the other is the branch, and the failure is reported.
          Branch &found     = branch.points.empty() ? down : branch;
          found.failed      = true;
          found.stop_reason = stop_reason;
          return found;
        }
      branch.way_down = branch.points.size();
      insert_behind_break(branch, down, branch.points.size(), "the way down, from Maximum frequency");
      branch.flow_evaluations += down.flow_evaluations;
      branch.failed      = branch.failed || down.failed;
      branch.stop_reason = stop_reason;
      return branch;
    }
  } // namespace

  Branch continue_forced_response(PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                  const Vector &x0, const ProgressCallback &progress)
  {
    if (!flow.forced())
      throw std::invalid_argument("a forced response needs a harmonic load");
    Branch branch = settings.direction == 0 ? both_ways_forced_response(flow, settings, x0, progress)
                                            : one_way_forced_response(flow, settings, x0, progress);
    branch.at_frequencies = orbits_at_frequencies(flow, settings, branch);
    branch.family         = "forced";
    return branch;
  }
} // namespace vibroimpact::periodic
