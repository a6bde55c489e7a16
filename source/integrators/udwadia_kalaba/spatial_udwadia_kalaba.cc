// The modal Udwadia–Kalaba solver on a model with spatial supports, frictionless:
// every candidate contact of every support (model::contact_frames' gap and normal, on the modal
// rows of modal_supports.h) and every planar contact is one unilateral constraint g(q) ≥ 0.
// A closed set S imposes g̈_S = 0 at the acceleration level,
//   B_S(q) q̈ = b_S,   b = |ṙ_t|²/ρ for an annular contact (its normal turns: g̈ = n·q̈ − |ṙ_t|²/ρ,
//   ρ = |r − c|, ṙ_t the velocity along the wall), 0 for a polygon's side or a planar contact,
// by the U–K equation with unit modal mass: q̈ = a + B_S⁺ (b_S − B_S a), λ_S = (B_S⁺)ᵀ (b_S − B_S a).
// A contact closes when its gap reaches zero while approaching: Newton's impact U_n+ = −e U_n−
// (e of the support; planar contacts e = 0 as the planar solver) by the velocity projection
// v ← v + B⁺ (U_target − B v); with e > 0 it bounces and stays open. After every step the
// violations of the closed set are projected out (the position by Gauss–Newton on the nonlinear
// annular gap, the velocity on the rows at the projected position). Derivation:
// doc/udwadia_kalaba.md "Spatial supports in the Udwadia–Kalaba solver".
#include "spatial_udwadia_kalaba.h"

#include <Eigen/QR>

#include <algorithm>
#include <cmath>

namespace vibroimpact::integrators
{
  namespace
  {
    class SpatialUdwadiaKalabaRun : ModalSteppingRun
    {
    public:
      SpatialUdwadiaKalabaRun(const ModalUdwadiaKalabaSettings &settings, const ModalProjection &projection,
                              const std::vector<model::SpatialSupport> &supports, const RunControl &control,
                              ResponseObserver &observer)
        : ModalSteppingRun(projection, settings.time_step, control, observer, "modal Udwadia-Kalaba")
        , supports_(project_supports(supports, projection))
        , force_(Eigen::VectorXd::Zero(nc_))
      {
        for (unsigned int i = 0; i < nc_; ++i)
          constraints_.push_back({-1, i});
        for (unsigned int s = 0; s < supports_.size(); ++s)
          for (unsigned int k = 0; k < supports_[s].support.n_candidates(); ++k)
            constraints_.push_back({int(s), k});
        recorder_.watch_supports(supports_);
      }

      RunSummary run()
      {
        recorder_.initial_energy = recorder_.energy(q_, v_);
        a_                       = P_.free_acceleration(q_, v_, 0.0);
        close_and_project(closings(1e-12, v_), 0.0);
        a_ = P_.free_acceleration(q_, v_, 0.0);
        constrain(a_, v_, 0.0);
        recorder_.record(0, q_, v_, force_);
        for (unsigned long k = 1; k <= n_; ++k)
          {
            const double t = time_of(k);
            std::vector<unsigned int> closing;
            verlet_step(t, [&](Eigen::VectorXd &a_end, const Eigen::VectorXd &v_predicted) {
              closing = closings(0.0, v_predicted);
              constrain(a_end, v_predicted, t);
            });
            book_constraint_forces();
            close_and_project(closing, t);
            recorder_.record(k, q_, v_, force_);
          }
        finish_summary();
        count("support impacts", double(support_impacts_));
        count("releases", double(releases_));
        count("largest |gap| of a closed contact", largest_violation_);
        count("impact dissipation", recorder_.impact_dissipation);
        return summary_;
      }

    private:
      struct Constraint
      {
        int          support = -1; // -1: planar contact `index`; else the support's candidate `index`
        unsigned int index   = 0;
        bool         closed  = false;
        double       lambda  = 0.0; // the last constrained acceleration's multiplier
        std::array<double, 2> outward{{1, 0}};
        double       angle = 0.0;
      };

      // Gap, normal row on the modes and the acceleration bias b of constraint c at (q, v).
      double evaluate(Constraint &c, const Eigen::VectorXd &q, const Eigen::VectorXd *v, Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> row,
                      double *bias) const
      {
        if (c.support < 0)
          {
            row = B_.row(c.index);
            if (bias)
              *bias = 0.0;
            return P_.gap(c.index, q);
          }
        const ModalSupport &s = supports_[c.support];
        const auto          r = s.position(q);
        const auto          f = s.candidate(c.index, r);
        c.outward = f.outward, c.angle = f.angle;
        row = f.frame(0, 0) * s.rows.row(0) + f.frame(0, 1) * s.rows.row(1);
        if (bias)
          {
            *bias = 0.0;
            const double rho = std::hypot(r[0], r[1]);
            if (s.support.shape == model::SpatialSupport::Shape::annular && v && rho > 0)
              {
                const double tangential = f.frame(1, 0) * s.rows.row(0).dot(*v) + f.frame(1, 1) * s.rows.row(1).dot(*v);
                *bias = tangential * tangential / rho; // the centripetal term of g̈
              }
          }
        return f.gap;
      }

      std::vector<unsigned int> closed_set() const
      {
        std::vector<unsigned int> set;
        for (unsigned int i = 0; i < constraints_.size(); ++i)
          if (constraints_[i].closed)
            set.push_back(i);
        return set;
      }

      // The constrained acceleration (a: the free one on entry) and the multipliers; the most
      // tensile contact opens until none is.
      void constrain(Eigen::VectorXd &a, const Eigen::VectorXd &v, const double t)
      {
        const Eigen::VectorXd free = a;
        for (auto &c : constraints_)
          c.lambda = 0.0;
        while (true)
          {
            const auto set = closed_set();
            a              = free;
            if (set.empty())
              break;
            Eigen::MatrixXd B(set.size(), P_.size());
            Eigen::VectorXd b(set.size());
            for (std::size_t k = 0; k < set.size(); ++k)
              evaluate(constraints_[set[k]], q_, &v, B.row(k), &b[k]);
            const Eigen::MatrixXd inverse = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(B).pseudoInverse();
            const Eigen::VectorXd lambda  = inverse.transpose() * (inverse * b - free); // (B Bᵀ)⁻¹ (b − B a)
            Eigen::Index          worst   = 0;
            if (lambda.minCoeff(&worst) >= 0)
              {
                a += B.transpose() * lambda;
                for (std::size_t k = 0; k < set.size(); ++k)
                  constraints_[set[k]].lambda = lambda[k];
                break;
              }
            release(constraints_[set[worst]], t);
          }
        force_.setZero();
        for (const auto &c : constraints_)
          if (c.support < 0)
            force_[c.index] = c.lambda;
      }

      void release(Constraint &c, const double t)
      {
        c.closed = false;
        ++releases_;
        if (c.support < 0)
          {
            ContactEvent e;
            e.kind = ContactEvent::Kind::separation, e.time = t, e.contact = c.index;
            report(e);
            return;
          }
        SupportEvent e;
        e.kind = ContactEvent::Kind::separation, e.time = t, e.support = c.support, e.candidate = c.index;
        e.angle = c.angle;
        observer_.support_event(e);
      }

      // |U_t| of a support's contact at the current velocity: circumferential and axial sliding.
      double sliding_speed(const Constraint &c) const
      {
        const ModalSupport   &s = supports_[c.support];
        const Eigen::Vector3d U = s.frame(c.outward) * s.read(v_);
        return U.tail<2>().norm();
      }

      // A normal impulse p at a support's contact, into its sample with its wear work p |U_t| (the
      // sliding speed after it: a frictionless impulse leaves U_t unchanged), the rule of the
      // constraint forces and of the impacts alike.
      void book_support_impulse(const Constraint &c, const double p)
      {
        auto &sample = recorder_.supports[c.support];
        sample.normal_impulse += p;
        sample.wear_work += p * sliding_speed(c);
      }

      // The constraint forces' impulse over the step, into the rows and the supports' samples
      // (wear work ∫ F_N |v_t| dt at the step's end velocity; no friction).
      void book_constraint_forces()
      {
        recorder_.impulse_since_row += h_ * force_;
        for (auto &c : constraints_)
          if (c.support >= 0 && c.lambda > 0)
            book_support_impulse(c, h_ * c.lambda);
      }

      // Contacts at or past their wall (gap ≤ tolerance × clearance scale) and approaching.
      std::vector<unsigned int> closings(const double tolerance, const Eigen::VectorXd &velocity)
      {
        std::vector<unsigned int> closing;
        Eigen::RowVectorXd        row(P_.size());
        for (unsigned int i = 0; i < constraints_.size(); ++i)
          {
            auto &c = constraints_[i];
            if (c.closed)
              continue;
            const double gap = evaluate(c, q_, nullptr, row, nullptr);
            if (gap <= tolerance * scale(c) && row.dot(velocity) <= 0)
              closing.push_back(i);
          }
        return closing;
      }

      double scale(const Constraint &c) const
      {
        if (c.support < 0)
          return std::abs(P_.gap0()[c.index]) + 1e-300;
        const auto &s = supports_[c.support].support;
        return s.shape == model::SpatialSupport::Shape::annular ? s.clearance : s.sides[c.index].distance;
      }

      void close_and_project(const std::vector<unsigned int> &closing, double t);

      std::vector<ModalSupport> supports_;
      std::vector<Constraint>   constraints_;
      Eigen::VectorXd           force_; // per planar contact
      unsigned long             support_impacts_ = 0, releases_ = 0;
      double                    largest_violation_ = 0.0;
    };

    // The closing contacts' impacts (Newton, e of the support) and the projection of the closed
    // set onto its walls: the position by Gauss–Newton on g_S (nonlinear for annular contacts),
    // the velocity onto the rows at the projected position.
    void SpatialUdwadiaKalabaRun::close_and_project(const std::vector<unsigned int> &closing, const double t)
    {
      std::vector<unsigned int> set = closed_set();
      for (auto i : closing)
        set.push_back(i);
      if (set.empty())
        return;
      const double    energy_before = recorder_.energy(q_, v_);
      Eigen::MatrixXd B(set.size(), P_.size());
      Eigen::VectorXd g(set.size()), before(set.size()), target = Eigen::VectorXd::Zero(set.size());
      for (int iteration = 0; iteration < 4; ++iteration)
        {
          for (std::size_t k = 0; k < set.size(); ++k)
            g[k] = evaluate(constraints_[set[k]], q_, nullptr, B.row(k), nullptr);
          if (g.cwiseAbs().maxCoeff() == 0.0)
            break;
          q_ -= Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(B).pseudoInverse() * g;
        }
      for (std::size_t k = 0; k < set.size(); ++k)
        {
          g[k] = evaluate(constraints_[set[k]], q_, nullptr, B.row(k), nullptr);
          largest_violation_ = std::max(largest_violation_, std::abs(g[k]));
        }
      before = B * v_;
      const std::size_t first_closing = set.size() - closing.size();
      for (std::size_t k = first_closing; k < set.size(); ++k)
        {
          const auto &c = constraints_[set[k]];
          const double e = c.support < 0 ? 0.0 : supports_[c.support].support.restitution;
          target[k]      = before[k] < 0 ? -e * before[k] : 0.0;
        }
      const Eigen::MatrixXd inverse = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(B).pseudoInverse();
      const Eigen::VectorXd p       = inverse.transpose() * (inverse * (target - before)); // (B Bᵀ)⁻¹ (U* − B v)
      v_ += B.transpose() * p;
      recorder_.impact_dissipation += energy_before - recorder_.energy(q_, v_);
      for (std::size_t k = 0; k < set.size(); ++k)
        {
          auto &c = constraints_[set[k]];
          if (c.support < 0)
            recorder_.impulse_since_row[c.index] += p[k];
          else
            book_support_impulse(c, p[k]);
          if (k < first_closing)
            continue;
          // Closes unless it bounced (e > 0 at a real approach velocity).
          c.closed = !(target[k] > 0);
          if (!(before[k] < 0))
            continue; // resting on the wall at t = 0: no impact
          if (c.support < 0)
            {
              ContactEvent e;
              e.kind = ContactEvent::Kind::impact, e.time = t, e.contact = c.index;
              e.pre_velocity = before[k], e.post_velocity = B.row(k).dot(v_), e.impulse = p[k];
              report(e);
              continue;
            }
          SupportEvent e;
          e.kind = ContactEvent::Kind::impact, e.time = t, e.support = c.support, e.candidate = c.index;
          e.angle = c.angle, e.pre_velocity = before[k], e.post_velocity = B.row(k).dot(v_), e.impulse = p[k];
          observer_.support_event(e);
          ++support_impacts_;
          ++summary_.impacts;
        }
    }
  } // namespace

  RunSummary run_spatial_udwadia_kalaba(const ModalUdwadiaKalabaSettings &settings, const ModalProjection &projection,
                                        const std::vector<model::SpatialSupport> &supports, const RunControl &control,
                                        ResponseObserver &observer)
  {
    return SpatialUdwadiaKalabaRun(settings, projection, supports, control, observer).run();
  }
} // namespace vibroimpact::integrators
