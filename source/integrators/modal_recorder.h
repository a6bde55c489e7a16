// Internal to the fixed-step modal solvers (modal-uk, modal-penalty): the energy ledger of a
// modal velocity-Verlet run and the rows it reports (ModalRecorder), and the state every such
// run holds (ModalSteppingRun). Gaps and probes are read in modal coordinates; the DoF vectors
// u = Φ q, v = Φ q' are formed only for the first and final rows and for VTK frames (each costs n N).
#pragma once

#include <vibroimpact/integrators/modal_projection.h>
#include "modal_supports.h"
#include <vibroimpact/integrators/modal_time_stepping.h>
#include <vibroimpact/integrators/solver_base.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace vibroimpact::integrators
{
  class ModalRecorder
  {
  public:
    ModalRecorder(const ModalProjection &projection, const RunControl &control, double h, unsigned long n_steps,
                  ResponseObserver &observer)
      : P_(projection)
      , control_(control)
      , h_(h)
      , n_steps_(n_steps)
      , observer_(observer)
    {
      impulse_since_row = Eigen::VectorXd::Zero(projection.contact_rows().rows());
    }

    // Work of the load and of the modal damping over one step, by the trapezoidal rule on the
    // step's end states (the quadrature of the scheme itself is of the same order).
    void add_step_work(const Eigen::VectorXd &v0, const Eigen::VectorXd &f0, const Eigen::VectorXd &v1,
                       const Eigen::VectorXd &f1)
    {
      external_work += 0.5 * h_ * (v0.dot(f0) + v1.dot(f1));
      damping_dissipation +=
        0.5 * h_ * (v0.cwiseAbs2().dot(P_.damping()) + v1.cwiseAbs2().dot(P_.damping()));
    }

    double energy(const Eigen::VectorXd &q, const Eigen::VectorXd &v) const
    {
      return P_.kinetic_energy(v) + P_.potential_energy(q) + P_.spring_energy(q);
    }

    // The row of step k (k = 0: the initial state) if one is due; contact_force per contact.
    void record(unsigned long k, const Eigen::VectorXd &q, const Eigen::VectorXd &v,
                const Eigen::VectorXd &contact_force)
    {
      const bool frame = control_.frame_interval > 0 && (k == 0 || k == n_steps_ || due(k, control_.frame_interval));
      if (!(k == 0 || k == n_steps_ || frame || control_.output_interval <= 0 || due(k, control_.output_interval)))
        return;
      ResponseSample s;
      s.time = k == n_steps_ ? control_.final_time : k * h_; // not a sum of k rounded steps
      Eigen::VectorXd u, w;
      if (k == 0 || k == n_steps_ || frame)
        {
          u   = P_.shapes() * q;
          w   = P_.shapes() * v;
          s.u = &u;
          s.v = &w;
        }
      Eigen::VectorXd gap = P_.gap0() + P_.contact_rows() * q;
      Eigen::VectorXd pu = P_.probe_rows() * q, pv = P_.probe_rows() * v;
      s.set_fields(&gap, &pu, &pv);
      s.set_contacts(&impulse_since_row, &contact_force);
      s.frame                        = frame;
      s.energy.kinetic               = P_.kinetic_energy(v);
      s.energy.potential             = P_.potential_energy(q) + P_.spring_energy(q); // strain and elastic contacts
      s.energy.external_work         = external_work;
      s.energy.damping_dissipation   = damping_dissipation;
      s.energy.impact_dissipation    = impact_dissipation;
      if (!supports.empty())
        {
          // Mean forces over the row's span; the impulses restart at the next row.
          const double          span  = s.time - last_row_time;
          const Eigen::VectorXd orbit = orbit_rows_ * q;
          for (std::size_t k = 0; k < supports.size(); ++k)
            supports[k].position = {{orbit[2 * k], orbit[2 * k + 1]}};
          for (auto &support : supports)
            {
              support.normal_force     = span > 0 ? support.normal_impulse / span : 0.0;
              support.tangential_force = span > 0 ? support.tangential_impulse / span : 0.0;
            }
          supports_shown_               = supports;
          s.supports                    = &supports_shown_;
          s.energy.friction_dissipation = friction_dissipation;
          for (auto &support : supports)
            support.normal_impulse = support.tangential_impulse = 0.0;
        }
      last_row_time = s.time;
      s.energy.balance_error         = balance_error(q, v);
      if (k == 0)
        initial_energy = s.energy.total();
      observer_.sample(s);
      impulse_since_row.setZero();
    }

    // A run with spatial supports reports them: a sample per support in every row, with its orbit
    // r1, r2 read on the modes (the rows form no u).
    void watch_supports(const std::vector<ModalSupport> &modal_supports)
    {
      supports.assign(modal_supports.size(), SupportSample{});
      orbit_rows_.resize(2 * static_cast<Eigen::Index>(modal_supports.size()), P_.size());
      for (std::size_t k = 0; k < modal_supports.size(); ++k)
        orbit_rows_.middleRows(2 * static_cast<Eigen::Index>(k), 2) = modal_supports[k].rows.topRows(2);
    }

    // E − E0 − W_ext + damping, impact and (with spatial supports) friction dissipation.
    double balance_error(const Eigen::VectorXd &q, const Eigen::VectorXd &v) const
    {
      const double error = energy(q, v) - initial_energy - external_work + damping_dissipation + impact_dissipation;
      return supports.empty() ? error : error + friction_dissipation;
    }

    void finish(RunSummary &summary, const Eigen::VectorXd &q, const Eigen::VectorXd &v) const
    {
      summary.steps                  = n_steps_;
      summary.initial_energy         = initial_energy;
      summary.final_energy           = energy(q, v);
      summary.balance_error          = balance_error(q, v);
      const double scale             = std::max({std::abs(initial_energy), std::abs(external_work), 1e-300});
      summary.relative_balance_error = summary.balance_error / scale;
    }

    double initial_energy = 0.0, external_work = 0.0, damping_dissipation = 0.0, impact_dissipation = 0.0;
    Eigen::VectorXd impulse_since_row; // per contact, since the last row
    // Spatial supports (empty without them): impulses since the last row, friction and wear work
    // since t = 0, accumulated by the solver at every step; and the ledger's friction term.
    std::vector<SupportSample> supports;
    double                     friction_dissipation = 0.0;

  private:
    // Whether step k is the first at or after a multiple of `interval`.
    bool due(unsigned long k, double interval) const
    {
      const double before = std::floor((k - 1) * h_ / interval + 1e-9), now = std::floor(k * h_ / interval + 1e-9);
      return now > before;
    }

    const ModalProjection &P_;
    const RunControl      &control_;
    double                 h_;
    unsigned long          n_steps_;
    ResponseObserver      &observer_;
    double                     last_row_time = 0.0;
    std::vector<SupportSample> supports_shown_;
    Eigen::MatrixXd            orbit_rows_; // r1, r2 of each support on the modes
  };

  // What a fixed-step modal run holds: the projection, the step, the modal state at the step
  // start (q, q̇, the load and the acceleration) and the recorder. A solver's run derives from it
  // and adds its contact law.
  class ModalSteppingRun : protected SolverRun
  {
  protected:
    // `method` names the solver in the failure of a final time shorter than a step.
    ModalSteppingRun(const ModalProjection &projection, const double h, const RunControl &control,
                     ResponseObserver &observer, const std::string &method)
      : SolverRun(control, observer, "steps")
      , P_(projection)
      , B_(projection.contact_rows())
      , nc_(static_cast<unsigned int>(projection.contact_rows().rows()))
      , h_(h)
      , n_(modal_step_count(h, control.final_time))
      , q_(projection.initial_displacement())
      , v_(projection.initial_velocity())
      , f_(projection.load(0.0))
      , recorder_(projection, control, h, n_, observer)
    {
      if (n_ == 0)
        throw std::invalid_argument(method + ": the final time is shorter than a step");
    }

    // The time at the end of step k: not a sum of k rounded steps.
    double time_of(const unsigned long k) const { return k == n_ ? control_.final_time : k * h_; }

    // One velocity-Verlet step to t, the one loop of the fixed-step modal solvers: q from the
    // start's acceleration (dq_ its increment), the end's acceleration from the load, the modal
    // damping at the predicted velocity v + h a and the stiffness, to which
    // `contact_law(a_end, v_predicted)` adds the contacts' part (the penalty forces; the
    // Udwadia–Kalaba constrained acceleration); then v from the mean acceleration, and the
    // step's work booked.
    template <typename ContactLaw>
    void verlet_step(const double t, ContactLaw &&contact_law)
    {
      dq_ = h_ * v_ + 0.5 * h_ * h_ * a_;
      q_ += dq_;
      const Eigen::VectorXd v_predicted = v_ + h_ * a_;
      const Eigen::VectorXd f_end       = P_.load(t);
      Eigen::VectorXd a_end = f_end - P_.damping().cwiseProduct(v_predicted) - P_.omegas().cwiseAbs2().cwiseProduct(q_);
      contact_law(a_end, v_predicted);
      const Eigen::VectorXd v_start = v_;
      v_ += 0.5 * h_ * (a_ + a_end);
      recorder_.add_step_work(v_start, f_, v_, f_end);
      a_ = a_end;
      f_ = f_end;
    }

    // The step count, the energies and the balance into the summary; the first counter, "modes".
    void finish_summary()
    {
      recorder_.finish(summary_, q_, v_);
      count("modes", double(P_.size()));
    }

    const ModalProjection &P_;
    const Eigen::MatrixXd &B_; // H Φ: one row per contact
    const unsigned int     nc_;
    const double           h_;
    const unsigned long    n_; // steps to the final time
    Eigen::VectorXd        q_, v_, f_, a_, dq_;
    ModalRecorder          recorder_;
  };
} // namespace vibroimpact::integrators
