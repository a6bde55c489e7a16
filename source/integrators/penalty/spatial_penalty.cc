// The modal penalty solver's spatial supports: Hunt–Crossley normal forces and the elastic–plastic
// Coulomb stick spring on every candidate contact near its wall, their work and the contact
// episodes (see spatial_penalty.h and doc/udwadia_kalaba.md "Penalty contacts in space").
#include "spatial_penalty.h"

#include <algorithm>
#include <cmath>

namespace vibroimpact::integrators
{
  namespace
  {
  } // namespace

  SpatialPenalty::SpatialPenalty(const model::StructuralModel &model, const ModalProjection &projection,
                                 const ModalPenaltySettings &settings)
    : kp_(settings.stiffness)
    , mu_p_(settings.damping)
    , kt_(settings.tangential_stiffness)
    , supports_(project_supports(model.spatial_supports, projection))
  {
    for (unsigned int s = 0; s < supports_.size(); ++s)
      for (unsigned int k = 0; k < supports_[s].support.n_candidates(); ++k)
        {
          Contact c;
          c.support         = s;
          c.frame.candidate = k;
          contacts_.push_back(c);
        }
  }

  void SpatialPenalty::add_forces(const Eigen::VectorXd &q, const Eigen::VectorXd &v, const Eigen::VectorXd *dq,
                                  Eigen::VectorXd &generalized)
  {
    std::size_t first = 0; // the support's first contact in contacts_
    for (unsigned int s = 0; s < supports_.size(); ++s)
      {
        const ModalSupport &support = supports_[s];
        const unsigned int  n       = support.support.n_candidates();
        const auto          r       = support.position(q);
        bool                open    = false;
        for (unsigned int k = 0; k < n; ++k)
          open = open || contacts_[first + k].open || contacts_[first + k].fn > 0;
        // Far from every wall and in no episode: nothing to evaluate (the cheap, usual case).
        const double nearest = support.nearest_gap(r);
        if (nearest > 0 && !open)
          {
            for (unsigned int k = 0; k < n; ++k)
              contacts_[first + k].frame.gap = nearest; // a lower bound, for the entry's crossing
            first += n;
            continue;
          }
        bool velocity_read = false;
        for (unsigned int k = 0; k < n; ++k)
          {
            Contact &c = contacts_[first + k];
            c.frame    = support.candidate(k, r);
            c.slip     = 0.0;
            c.stuck    = false;
            if (c.frame.gap >= 0)
              {
                c.fn = 0.0, c.ft.setZero(), c.spring.setZero();
                continue;
              }
            if (!velocity_read)
              rows_v_ = support.read(v), velocity_read = true;
            const double delta = -c.frame.gap, rate = -c.frame.frame.row(0).dot(rows_v_);
            c.fn               = std::max(0.0, kp_ * delta * (1 + mu_p_ * rate));
            if (dq)
              tangential_force(c, support, support.read(*dq));
            const Eigen::Vector3d local(c.fn, c.ft[0], c.ft[1]);
            support.add_transpose(c.frame.frame.transpose() * local, generalized);
          }
        first += n;
      }
    if (!dq) // t = 0: the state the first step starts from
      for (auto &c : contacts_)
        {
          const Eigen::Vector3d U = c.frame.frame * supports_[c.support].read(v);
          c.fn_start = c.fn, c.ft_start = c.ft, c.un_start = U[0], c.ut_start = U.tail<2>();
          c.gap_start = c.frame.gap;
        }
  }

  // The return mapping of the stick spring over the step's tangential displacement.
  void SpatialPenalty::tangential_force(Contact &c, const ModalSupport &s, const Eigen::Matrix<double, 4, 1> &drows)
  {
    const Eigen::Vector2d increment(c.frame.frame.row(1).dot(drows), c.frame.frame.row(2).dot(drows));
    const double          mu = s.support.friction;
    if (!(mu > 0))
      {
        c.ft.setZero();
        c.slip = increment.norm(); // all of it slides
        return;
      }
    const Eigen::Vector2d stretched = c.spring + increment;
    const Eigen::Vector2d trial     = -kt_ * stretched;
    const double          cap = mu * c.fn, size = trial.norm();
    if (size <= cap)
      {
        c.ft     = trial;
        c.spring = stretched;
        c.stuck  = c.fn > 0;
        return;
      }
    c.ft     = trial * (cap / size);
    c.spring = -c.ft / kt_;
    c.slip   = (size - cap) / kt_;
  }

  void SpatialPenalty::finish_step(const Eigen::VectorXd &v, const double t, const double h, ModalRecorder &recorder,
                                   ResponseObserver &observer)
  {
    for (auto &c : contacts_)
      {
        if (!(c.fn > 0 || c.fn_start > 0 || c.open || c.frame.gap < 0))
          {
            c.gap_start = c.frame.gap;
            c.un_start  = 0.0;
            c.ut_start.setZero();
            continue;
          }
        const ModalSupport   &support = supports_[c.support];
        const Eigen::Vector3d U       = c.frame.frame * support.read(v);
        const double mu = support.support.friction, friction = mu * c.fn * c.slip;
        // −∫ F·U dt, trapezoidal: what the structure gave the contact over the step.
        const double taken = -0.5 * h *
                             (c.fn_start * c.un_start + c.fn * U[0] + c.ft_start.dot(c.ut_start) +
                              c.ft.dot(U.tail<2>()));
        recorder.friction_dissipation += friction;
        recorder.impact_dissipation += taken - friction;
        auto &sample = recorder.supports[c.support];
        sample.normal_impulse += 0.5 * h * (c.fn_start + c.fn);
        sample.tangential_impulse += 0.5 * h * (c.ft_start.norm() + c.ft.norm());
        sample.friction_work += friction;
        sample.wear_work += c.fn * c.slip;
        follow_episode(c, c.frame.gap, U[0], t, h, observer);
        c.fn_start = c.fn, c.ft_start = c.ft, c.un_start = U[0], c.ut_start = U.tail<2>();
        c.gap_start = c.frame.gap;
      }
  }

  // Opens, extends and closes contact c's episode over the step that ends at t.
  void SpatialPenalty::follow_episode(Contact &c, const double gap, const double un, const double t, const double h,
                                      ResponseObserver &observer)
  {
    if (gap < 0)
      {
        deepest_ = std::max(deepest_, -gap);
        if (!c.open)
          {
            // Entry: the crossing of g = 0 within the step, the normal velocity there.
            const double s         = zero_crossing_fraction(c.gap_start, gap);
            c.open                 = true;
            c.sticking = c.slipped = false;
            c.steps                = 0;
            c.impact               = SupportEvent{};
            c.impact.kind          = ContactEvent::Kind::impact;
            c.impact.time          = t - h + s * h;
            c.impact.support       = c.support;
            c.impact.candidate     = c.frame.candidate;
            c.impact.angle         = c.frame.angle;
            c.impact.pre_velocity  = c.un_start + s * (un - c.un_start);
            ++n_episodes_;
          }
        ++c.steps;
        c.impact.impulse += 0.5 * h * (c.fn_start + c.fn);
        // A sticking phase starts where a slipping contact stops slipping; the stick spring's
        // loading at the episode's entry (pre-sliding) is not one.
        if (c.stuck && !c.sticking && c.slipped)
          report_change(c, ContactEvent::Kind::sticking_start, t, observer);
        c.sticking = c.stuck && (c.sticking || c.slipped);
        c.slipped  = c.slipped || c.slip > 0;
        sticking_time_ += c.sticking ? h : 0.0;
      }
    else if (c.open)
      {
        const double s         = zero_crossing_fraction(c.gap_start, gap);
        c.impact.post_velocity = c.un_start + s * (un - c.un_start);
        c.impact.impulse += 0.5 * h * (c.fn_start + c.fn);
        close(c, t - h + s * h, true, observer);
      }
  }

  // A change of the episode's state (sticking start, separation) at t, where the contact is now.
  void SpatialPenalty::report_change(const Contact &c, const ContactEvent::Kind kind, const double t,
                                     ResponseObserver &observer)
  {
    SupportEvent change = c.impact;
    change.kind         = kind;
    change.time         = t;
    change.angle        = c.frame.angle;
    change.impulse = change.pre_velocity = change.post_velocity = 0.0;
    observer.support_event(change);
  }

  // The episode's impact (with its impulse) and, after more than one step, its separation.
  void SpatialPenalty::close(Contact &c, const double t, const bool separated, ResponseObserver &observer)
  {
    observer.support_event(c.impact);
    if (c.steps > 1 && separated)
      report_change(c, ContactEvent::Kind::separation, t, observer);
    c.open = c.sticking = false;
    c.steps             = 0;
  }

  void SpatialPenalty::close_open_episodes(const double t, ResponseObserver &observer)
  {
    for (auto &c : contacts_)
      if (c.open)
        {
          c.impact.post_velocity = c.un_start;
          close(c, t, false, observer);
        }
  }
} // namespace vibroimpact::integrators
