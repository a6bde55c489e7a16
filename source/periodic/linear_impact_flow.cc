#include <vibroimpact/periodic/linear_impact_flow.h>

#include <boost/math/tools/toms748_solve.hpp>

#include <unsupported/Eigen/MatrixFunctions>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace vibroimpact::periodic
{
  namespace
  {
    constexpr double infinity = std::numeric_limits<double>::infinity();

    // The closed contacts as a key (contacts are few).
    using ClosedSet = std::vector<bool>;

    // Massless contact nodes (doc/periodic.md §6): the model on the DoFs that keep their mass,
    // with each contact DoF u_N condensed statically, u_N = r·u (r = −K_Nr/K_NN). The stop then
    // adds ½ κ min(γ, 0)² to the potential, γ = gap0 + c r·u the gap the node would have, κ =
    // K_NN/c² (c the contact row's coefficient): a unilateral spring on the contact row c r.
    struct ContactCondensation
    {
      model::StructuralModel     reduced;   // its contacts' rows are c r; no probes
      std::vector<Eigen::Index>  kept;      // full DoF of each reduced DoF
      std::vector<Eigen::Index>  node;      // per contact: its (massless) DoF
      std::vector<double>        coefficient, stiffness; // c and κ per contact
      std::vector<Vector>        recovery;  // r per contact, on the reduced DoFs
      Eigen::Index               n_full = 0;
    };

    ContactCondensation condense_contact_nodes(const model::StructuralModel &model, integrators::ModeSource source)
    {
      if (source != integrators::ModeSource::finite_element)
        throw std::invalid_argument("massless contact nodes: the condensed model has finite-element modes only");
      ContactCondensation c;
      const Eigen::Index  n = model.n_dofs();
      c.n_full              = n;
      std::vector<bool> massless(n, false);
      for (const auto &contact : model.contacts)
        {
          if (contact.row.nonZeros() != 1)
            throw std::invalid_argument("massless contact nodes: contact '" + contact.name +
                                        "' acts on more than one DoF (a contact between two bodies)");
          model::SparseRow::InnerIterator it(contact.row);
          c.node.push_back(it.index());
          c.coefficient.push_back(it.value());
          massless[it.index()] = true;
        }
      std::vector<Eigen::Index> reduced_index(n, -1);
      for (Eigen::Index j = 0; j < n; ++j)
        if (!massless[j])
          reduced_index[j] = static_cast<Eigen::Index>(c.kept.size()), c.kept.push_back(j);
      const Eigen::Index nr = static_cast<Eigen::Index>(c.kept.size());

      // Selection P (n × nr): reduced matrices are Pᵀ X P.
      model::SparseMatrix P(n, nr);
      {
        std::vector<Eigen::Triplet<double>> t;
        for (Eigen::Index k = 0; k < nr; ++k)
          t.emplace_back(c.kept[k], k, 1.0);
        P.setFromTriplets(t.begin(), t.end());
      }
      const auto reduce = [&](const model::SparseMatrix &X) -> model::SparseMatrix {
        if (X.rows() != n)
          return X;
        return model::SparseMatrix(P.transpose() * X * P);
      };
      Matrix M = Matrix(reduce(model.mass)), S = Matrix(reduce(model.stiffness));
      std::vector<bool> condensed(n, false);
      for (std::size_t i = 0; i < c.node.size(); ++i)
        {
          const Eigen::Index N     = c.node[i];
          const Vector       e_N   = Vector::Unit(n, N);
          const Vector       k_col = P.transpose() * (model.stiffness * e_N);
          const double       k_NN  = model.stiffness.coeff(N, N);
          if (!(k_NN > 0))
            throw std::invalid_argument("massless contact nodes: the DoF of contact '" + model.contacts[i].name +
                                        "' has no stiffness of its own");
          for (std::size_t j = 0; j < c.node.size(); ++j)
            if (c.node[j] != N && model.stiffness.coeff(N, c.node[j]) != 0.0)
              throw std::invalid_argument("massless contact nodes: contacts '" + model.contacts[i].name + "' and '" +
                                          model.contacts[j].name + "' sit on coupled DoFs");
          for (const auto &load : model.loads)
            if (load.spatial.size() == n && load.spatial[N] != 0.0)
              throw std::invalid_argument("massless contact nodes: load '" + load.name +
                                          "' acts on the DoF of contact '" + model.contacts[i].name + "'");
          c.recovery.push_back(-k_col / k_NN);
          c.stiffness.push_back(k_NN / (c.coefficient[i] * c.coefficient[i]));
          if (condensed[N])
            continue; // two stops on one node (a two-sided support): condensed once
          condensed[N] = true;
          S -= k_col * k_col.transpose() / k_NN;
          // The node's mass along its own direction, 1ᵀM1 over the DoFs of its kind, goes to
          // the neighbours of that kind in proportion to their stiffness coupling.
          const auto kind    = N < static_cast<Eigen::Index>(model.dof_kinds.size()) ? model.dof_kinds[N]
                                                                                       : model::DofKind::lumped;
          const auto same    = [&](Eigen::Index j) {
            return j >= static_cast<Eigen::Index>(model.dof_kinds.size()) || model.dof_kinds[j] == kind;
          };
          double removed = -model.mass.coeff(N, N);
          for (Eigen::Index j = 0; j < n; ++j)
            if (same(j))
              removed += 2 * model.mass.coeff(N, j);
          double weight = 0.0;
          for (Eigen::Index k = 0; k < nr; ++k)
            if (same(c.kept[k]))
              weight += std::abs(k_col[k]);
          if (!(weight > 0))
            throw std::invalid_argument("massless contact nodes: the DoF of contact '" + model.contacts[i].name +
                                        "' has no neighbour to take its mass");
          for (Eigen::Index k = 0; k < nr; ++k)
            if (same(c.kept[k]))
              M(k, k) += removed * std::abs(k_col[k]) / weight;
        }

      auto &r    = c.reduced;
      r.name     = model.name;
      r.mass     = M.sparseView();
      r.stiffness = S.sparseView();
      r.damping   = reduce(model.damping);
      r.dashpots  = reduce(model.dashpots);
      for (auto load : model.loads)
        {
          load.spatial = P.transpose() * load.spatial;
          r.loads.push_back(load);
        }
      for (std::size_t i = 0; i < model.contacts.size(); ++i)
        {
          auto contact = model.contacts[i];
          contact.row  = (c.coefficient[i] * c.recovery[i]).sparseView();
          r.contacts.push_back(contact);
        }
      for (const auto j : c.kept)
        if (j < static_cast<Eigen::Index>(model.dof_kinds.size()))
          r.dof_kinds.push_back(model.dof_kinds[j]);
      if (model.initial_displacement.size() == n)
        r.initial_displacement = P.transpose() * model.initial_displacement;
      if (model.initial_velocity.size() == n)
        r.initial_velocity = P.transpose() * model.initial_velocity;
      return c;
    }
  } // namespace

  // State layout z = (q, q̇, ξ): N modal coordinates, N velocities, and for loaded models
  // ξ = (1, sin Ωt, cos Ωt), so that every load term is a column of A.
  struct LinearImpactFlow::Implementation
  {
    Implementation(const model::StructuralModel &model, const LinearImpactFlowSettings &s)
      : settings(s)
      , condensation(s.massless_contact_nodes ? condense_contact_nodes(model, s.mode_source) : ContactCondensation{})
      , projection(s.massless_contact_nodes ? condensation.reduced : model, s.n_modes, s.damping_ratios, s.mode_source)
    {
      compliant = s.massless_contact_nodes;
      init(compliant ? condensation.reduced : model);
    }

    void init(const model::StructuralModel &model)
    {
      const auto &s = settings;
      m     = projection.size();
      B     = projection.contact_rows();
      gap0  = projection.gap0();
      omega = projection.omegas();
      D     = projection.damping();
      mass_shapes = model.mass * projection.shapes();
      initial_displacement = model.initial_displacement;
      initial_velocity     = model.initial_velocity;
      restitution.resize(model.contacts.size());
      for (std::size_t i = 0; i < model.contacts.size(); ++i)
        restitution[i] = model.contacts[i].restitution;

      // Loads: constant ones add to the column of ξ0 = 1, harmonic ones to sin and cos.
      bool has_load = false;
      G = Matrix::Zero(m, 3);
      for (const auto &load : model.loads)
        {
          const Vector modal = projection.shapes().transpose() * load.spatial;
          if (load.time.kind == model::TimeFunction::Kind::constant)
            G.col(0) += load.time.amplitude * modal;
          else if (load.time.kind == model::TimeFunction::Kind::harmonic)
            {
              if (forcing_omega > 0 && std::abs(load.time.omega - forcing_omega) > 1e-12 * forcing_omega)
                throw std::invalid_argument("load '" + load.name +
                                            "': harmonic loads must share one forcing frequency");
              forcing_omega = load.time.omega;
              G.col(1) += load.time.amplitude * std::cos(load.time.phase) * modal;
              G.col(2) += load.time.amplitude * std::sin(load.time.phase) * modal;
            }
          else
            throw std::invalid_argument("load '" + load.name +
                                        "': periodic orbits need constant or harmonic loads");
          has_load = true;
        }
      // Unilateral springs need the constant state ξ0 = 1 for their gap0 term.
      n_forcing = has_load || compliant ? 3 : 0;
      harmonic  = forcing_omega > 0;
      nz        = 2 * m + n_forcing;

      // The correction's base direction on the DoFs (Moreau–Jean's rule), and each contact's DoFs,
      // where it is zeroed.
      const Eigen::Index n = model.n_dofs();
      correction_base      = Vector::Ones(n);
      if (s.correction_direction == integrators::CorrectionDirection::values)
        for (Eigen::Index j = 0; j < n && j < static_cast<Eigen::Index>(model.dof_kinds.size()); ++j)
          if (model.dof_kinds[j] == model::DofKind::slope)
            correction_base[j] = 0.0;
      contact_dofs.resize(model.contacts.size());
      for (std::size_t i = 0; i < model.contacts.size(); ++i)
        for (model::SparseRow::InnerIterator it(model.contacts[i].row); it; ++it)
          contact_dofs[i].push_back(it.index());
    }

    LinearImpactFlowSettings     settings;
    ContactCondensation          condensation; // massless contact nodes only
    integrators::ModalProjection projection;
    bool                         compliant = false; // contacts are unilateral springs (massless nodes)
    Eigen::Index                 m = 0, nz = 0, n_forcing = 0;
    Matrix                       B, G, mass_shapes;
    Vector                       gap0, omega, D;
    std::vector<double>          restitution;
    Vector                       correction_base, initial_displacement, initial_velocity;
    std::vector<std::vector<Eigen::Index>> contact_dofs;
    double                       forcing_omega = 0.0;
    bool                         harmonic      = false;

    // What the flow of one closed set needs: A, ∂A/∂α, and the rows giving the multipliers.
    struct Mode
    {
      Matrix A, A_alpha;
      Matrix multiplier_rows; // λ_S = L z, one row per closed contact (in `closed_list` order)
      std::vector<unsigned int> closed_list;
      Matrix step, step_extended; // exp(A δ), exp([[A, A_α], [0, A]] δ)
      double step_length = -1.0;
    };

    Mode make_mode(const ClosedSet &closed, double alpha) const
    {
      Mode mode;
      for (unsigned int i = 0; i < closed.size(); ++i)
        if (closed[i])
          mode.closed_list.push_back(i);

      // The free acceleration a = F z.
      Matrix F = Matrix::Zero(m, nz);
      F.leftCols(m)        = Vector(-omega.cwiseAbs2()).asDiagonal();
      F.middleCols(m, m)   = Vector(-(D.array() + alpha).matrix()).asDiagonal();
      if (n_forcing > 0)
        F.rightCols(n_forcing) = G;
      Matrix F_alpha = Matrix::Zero(m, nz);
      F_alpha.middleCols(m, m) = -Matrix::Identity(m, m);

      Matrix P = Matrix::Identity(m, m);
      if (compliant)
        {
          // Each closed contact is a spring κ on its gap γ = gap0 + B_i q: force −κ γ B_iᵀ, and
          // its "multiplier" −κ γ turns negative (tensile) where γ opens.
          mode.multiplier_rows = Matrix::Zero(mode.closed_list.size(), nz);
          for (std::size_t k = 0; k < mode.closed_list.size(); ++k)
            {
              const auto   i     = mode.closed_list[k];
              const double kappa = condensation.stiffness[i];
              F.leftCols(m) -= kappa * B.row(i).transpose() * B.row(i);
              F.col(2 * m) -= kappa * gap0[i] * B.row(i).transpose();
              mode.multiplier_rows.row(k).head(m) = -kappa * B.row(i);
              mode.multiplier_rows(k, 2 * m)      = -kappa * gap0[i];
            }
        }
      else if (!mode.closed_list.empty())
        {
          Matrix BS(mode.closed_list.size(), m);
          for (std::size_t k = 0; k < mode.closed_list.size(); ++k)
            BS.row(k) = B.row(mode.closed_list[k]);
          // Unit modal masses: q̈ = a + B_Sᵀλ with B_S q̈ = 0 gives λ = −(B_S B_Sᵀ)⁻¹ B_S a.
          const Matrix delassus_inverse = (BS * BS.transpose()).inverse();
          mode.multiplier_rows = -delassus_inverse * BS * F;
          P -= BS.transpose() * delassus_inverse * BS;
        }

      mode.A = Matrix::Zero(nz, nz);
      mode.A.block(0, m, m, m) = Matrix::Identity(m, m);
      mode.A.middleRows(m, m)  = P * F;
      if (n_forcing > 0)
        {
          mode.A(2 * m + 1, 2 * m + 2) = forcing_omega;
          mode.A(2 * m + 2, 2 * m + 1) = -forcing_omega;
        }
      mode.A_alpha = Matrix::Zero(nz, nz);
      mode.A_alpha.middleRows(m, m) = P * F_alpha;
      return mode;
    }

    Matrix extended(const Mode &mode) const
    {
      Matrix X = Matrix::Zero(2 * nz, 2 * nz);
      X.topLeftCorner(nz, nz)     = mode.A;
      X.topRightCorner(nz, nz)    = mode.A_alpha;
      X.bottomRightCorner(nz, nz) = mode.A;
      return X;
    }

    double scan_step() const
    {
      double highest = omega.maxCoeff();
      if (compliant) // a bound on the frequencies with every spring closed
        {
          double squared = highest * highest;
          for (Eigen::Index i = 0; i < B.rows(); ++i)
            squared += condensation.stiffness[i] * B.row(i).squaredNorm();
          highest = std::sqrt(squared);
        }
      if (harmonic)
        highest = std::max(highest, forcing_omega);
      return 2 * M_PI / highest / settings.samples_per_period;
    }

    double gap(unsigned int i, const Vector &z) const { return gap0[i] + B.row(i).dot(z.head(m)); }
    double gap_rate(unsigned int i, const Vector &z) const { return B.row(i).dot(z.segment(m, m)); }

    Vector initial_z(const Vector &x0) const
    {
      Vector z(nz);
      z.head(2 * m) = x0;
      if (n_forcing > 0)
        z.tail(3) << 1.0, 0.0, 1.0; // ξ = (1, sin 0, cos 0)
      return z;
    }

    // Whether contact i, at rest on its stop in state z, is pressed into it by the free flow.
    bool pressed(unsigned int i, const Vector &z, double alpha) const
    {
      ClosedSet only(B.rows(), false);
      only[i] = true;
      const Mode mode = make_mode(only, alpha);
      return (mode.multiplier_rows * z)(0) > 0.0;
    }

    // The projector onto the velocities that leave the contacts of `rows` at rest (unit modal
    // masses: the mass-orthogonal complement of their rows).
    Matrix null_projector(const std::vector<unsigned int> &rows) const
    {
      Matrix P = Matrix::Identity(m, m);
      if (rows.empty())
        return P;
      Matrix BS(rows.size(), m);
      for (std::size_t k = 0; k < rows.size(); ++k)
        BS.row(k) = B.row(rows[k]);
      return P - BS.transpose() * (BS * BS.transpose()).inverse() * BS;
    }

    // The energy correction after an impact: v+ = w + β d(w), w the velocity the impact law left,
    // β the smaller root of ½|d|²β² + (d·w)β − D = 0, D = ½(|v−|² − |w|²) (unit modal masses, as
    // Moreau–Jean's eq. (6) for h → 0). d is zero on the contacts in `held` (the closed ones and
    // the one that hit). Returns ∂v+/∂v− given ∂w/∂v− = R.
    Matrix correct_energy(const Vector &v_minus, Vector &w, const Matrix &R,
                          const std::vector<unsigned int> &held) const
    {
      const Matrix P = null_projector(held);
      Vector       d;
      Matrix       d_w = Matrix::Zero(m, m); // ∂d/∂w
      if (settings.correction_direction == integrators::CorrectionDirection::velocity)
        d = P * w, d_w = P;
      else
        {
          Vector I = correction_base;
          for (const auto i : held)
            for (const auto j : contact_dofs[i])
              I[j] = 0.0;
          d = P * (mass_shapes.transpose() * I);
        }
      const double D = 0.5 * (v_minus.squaredNorm() - w.squaredNorm());
      const double a = 0.5 * d.squaredNorm(), b = d.dot(w), c = -D;
      if (D <= 0 || a == 0)
        return R;
      const double q    = -0.5 * (b + (b >= 0 ? 1.0 : -1.0) * std::sqrt(b * b - 4 * a * c));
      const double beta = c / q;
      // Implicit differentiation of aβ² + bβ + c = 0 (rows acting on v−).
      const Vector da = R.transpose() * (d_w.transpose() * d);
      const Vector db = R.transpose() * (d_w.transpose() * w + d);
      const Vector dc = -(v_minus - R.transpose() * w);
      const Vector dbeta = -(beta * beta * da + beta * db + dc) / (2 * a * beta + b);
      const Matrix jacobian = R + beta * d_w * R + d * dbeta.transpose();
      w += beta * d;
      return jacobian;
    }

    struct Recorder
    {
      std::vector<double> times; // ascending sample times
      std::size_t         next = 0;
      std::vector<Vector> states;
    };

    // Massless contact nodes without damping or harmonic load: in closed set S the motion is
    // q̈ = −K_S q + f_S − α q̇, K_S = Ω² + Σ_S κ_i b_i b_iᵀ, f_S = g_c − Σ_S κ_i gap0_i b_i (unit
    // modal masses, g_c the constant load), so in the eigenvectors V of K_S about the equilibrium
    // q_s = K_S⁻¹ f_S every coordinate is an oscillator p̈ + α ṗ + λ p = 0 with a closed form. K_S
    // does not depend on α: one eigendecomposition per closed set serves every flow.
    bool uses_oscillators() const
    {
      return compliant && settings.uncoupled_oscillators && D.isZero(0.0) && !harmonic && omega.minCoeff() > 0;
    }

    struct Oscillators
    {
      Matrix V;             // orthonormal eigenvectors of K_S (columns)
      Vector lambda;        // their eigenvalues, the squared frequencies
      Vector q_static;      // the equilibrium q_s
      Matrix contact_rows;  // B V: gap_i = gap_static_i + (B V)_i p
      Vector gap_static;    // gap0 + B q_s
    };
    mutable std::map<ClosedSet, Oscillators> oscillators_cache;
    mutable std::mutex                       oscillators_mutex;

    const Oscillators &oscillators_of(const ClosedSet &closed) const
    {
      std::lock_guard<std::mutex> lock(oscillators_mutex);
      auto it = oscillators_cache.find(closed);
      if (it != oscillators_cache.end())
        return it->second;
      Matrix K = Matrix(omega.cwiseAbs2().asDiagonal());
      Vector f = G.col(0);
      for (unsigned int i = 0; i < closed.size(); ++i)
        if (closed[i])
          {
            const double kappa = condensation.stiffness[i];
            K += kappa * B.row(i).transpose() * B.row(i);
            f -= kappa * gap0[i] * B.row(i).transpose();
          }
      const Eigen::SelfAdjointEigenSolver<Matrix> eigen(K);
      Oscillators o;
      o.V            = eigen.eigenvectors();
      o.lambda       = eigen.eigenvalues();
      o.q_static     = o.V * (o.V.transpose() * f).cwiseQuotient(o.lambda);
      o.contact_rows = B * o.V;
      o.gap_static   = gap0 + B * o.q_static;
      return oscillators_cache.emplace(closed, std::move(o)).first->second;
    }

    // The transition [[a, b], [c, d]] of p̈ + c_j ṗ + λ_j p = 0 over τ for every oscillator j
    // (c_j = its own damping + α), and with `derivative` its ∂/∂α = ½ ∂/∂μ (μ = c_j/2,
    // ω² = λ − μ², ∂ω/∂μ = −μ/ω).
    struct Transitions
    {
      Vector a, b, c, d, da, db, dc, dd;
    };

    static bool underdamped(const Vector &lambda, const Vector &damping)
    {
      return (lambda - 0.25 * damping.cwiseAbs2()).minCoeff() > 0;
    }

    static Transitions transitions(const Vector &lambda, const Vector &damping, const double tau, const bool derivative)
    {
      const Eigen::Index n = lambda.size();
      Transitions        t;
      t.a.resize(n), t.b.resize(n), t.c.resize(n), t.d.resize(n);
      if (derivative)
        t.da.resize(n), t.db.resize(n), t.dc.resize(n), t.dd.resize(n);
      for (Eigen::Index j = 0; j < n; ++j)
        {
          const double mu = 0.5 * damping[j];
          const double w2 = lambda[j] - mu * mu;
          if (!(w2 > 0))
            throw std::runtime_error("the unfolding damping " + std::to_string(damping[j]) +
                                     " overdamps an oscillator (Newton far from any orbit)");
          const double w = std::sqrt(w2), e = std::exp(-mu * tau);
          const double C = std::cos(w * tau), S = std::sin(w * tau), sw = S / w;
          t.a[j] = e * (C + mu * sw);
          t.b[j] = e * sw;
          t.c[j] = -lambda[j] * e * sw;
          t.d[j] = e * (C - mu * sw);
          if (!derivative)
            continue;
          const double d_sw = (sw * mu / w - C * mu * tau / w) / w; // ∂(S/ω)/∂μ
          const double d_C  = S * mu * tau / w;
          t.da[j] = 0.5 * (-tau * t.a[j] + e * (d_C + sw + mu * d_sw));
          t.db[j] = 0.5 * (-tau * t.b[j] + e * d_sw);
          t.dc[j] = 0.5 * (-tau * t.c[j] - lambda[j] * e * d_sw);
          t.dd[j] = 0.5 * (-tau * t.d[j] + e * (d_C - sw - mu * d_sw));
        }
      return t;
    }

    // The flow of run() for uses_oscillators() models: the scan advances the oscillators' (p, ṗ)
    // by their transitions over a scan step (O(m)); a root search evaluates them at any τ; J and
    // ∂/∂α are updated once per stretch between switches through V (O(m² n)). Only the springs'
    // switches are events (saltation I, doc/periodic.md §6).
    FlowResult run_oscillators(const Vector &x0, double period, double alpha, bool with_jacobian,
                               Recorder *recorder) const
    {
      FlowResult         result;
      Vector             z          = initial_z(x0);
      const unsigned int n_contacts = static_cast<unsigned int>(B.rows());
      ClosedSet          closed(n_contacts, false);
      for (unsigned int i = 0; i < n_contacts; ++i)
        closed[i] = gap(i, z) < 0 || (gap(i, z) == 0 && gap_rate(i, z) < 0);
      result.min_gap             = infinity;
      result.min_impact_velocity = 0.0;

      // [J | ∂z/∂α]: the ξ rows of J stay unit rows (ξ = (1, 0, 1) is constant without harmonic loads).
      Matrix tangent = Matrix::Zero(nz, with_jacobian ? nz + 1 : 0);
      if (with_jacobian)
        tangent.leftCols(nz).setIdentity();
      const double delta    = scan_step();
      double       t        = 0.0;
      unsigned int n_events = 0;
      const auto   refine   = [](auto &&f, double a, double b) {
        boost::uintmax_t iterations = 100;
        const auto       r          = boost::math::tools::toms748_solve(
          f, a, b, boost::math::tools::eps_tolerance<double>(52), iterations);
        return r.second; // the side where f has crossed
      };

      while (t < period)
        {
          const Oscillators &o  = oscillators_of(closed);
          const Vector       p0 = o.V.transpose() * (z.head(m) - o.q_static);
          const Vector       r0 = o.V.transpose() * z.segment(m, m);
          const auto advance = [&](const Transitions &phi, const Vector &p, const Vector &r, Vector &p_out, Vector &r_out) {
            p_out = phi.a.cwiseProduct(p) + phi.b.cwiseProduct(r);
            r_out = phi.c.cwiseProduct(p) + phi.d.cwiseProduct(r);
          };
          // Each contact's distance from its switch, positive on its present side (open: the
          // gap; closed: minus the gap), and its rate.
          const auto side = [&](unsigned int i, const Vector &p) {
            const double g = o.gap_static[i] + o.contact_rows.row(i).dot(p);
            return closed[i] ? -g : g;
          };
          const auto side_rate = [&](unsigned int i, const Vector &r) {
            const double rate = o.contact_rows.row(i).dot(r);
            return closed[i] ? -rate : rate;
          };

          // Scan whole steps from (p_a, r_a) at τ_a until a switch or the period's end.
          const double      remaining = period - t;
          const Vector      damping   = Vector::Constant(o.lambda.size(), alpha);
          const Transitions step      = transitions(o.lambda, damping, delta, false);
          Vector            p_a = p0, r_a = r0, p_b, r_b;
          double            tau_a = 0.0, s_event = infinity;
          int               contact = -1;
          while (tau_a < remaining)
            {
              const double dt = std::min(delta, remaining - tau_a);
              advance(dt == delta ? step : transitions(o.lambda, damping, dt, false), p_a, r_a, p_b, r_b);
              const auto at = [&](double s, Vector &p, Vector &r) {
                advance(transitions(o.lambda, damping, s, false), p_a, r_a, p, r);
              };
              for (unsigned int i = 0; i < n_contacts; ++i)
                {
                  const double f_a = side(i, p_a), f_b = side(i, p_b);
                  const double v_a = side_rate(i, r_a), v_b = side_rate(i, r_b);
                  const auto   f   = [&](double s) {
                    Vector p, r;
                    at(s, p, r);
                    return side(i, p);
                  };
                  double root = infinity;
                  if (f_a <= 0 && f_b < 0)
                    root = 0.0; // on the switch and leaving this side at once
                  else if (f_a > 0 && f_b <= 0)
                    root = refine(f, 0.0, dt);
                  else if (f_a > 0 && f_b > 0 && v_a < 0 && v_b > 0 && std::min(f_a, f_b) <= dt * (v_b - v_a))
                    {
                      // A dip toward the switch between samples (deeper ones are impossible at
                      // this step, as in run()): its lowest point, then the crossing before it.
                      const auto rate = [&](double s) {
                        Vector p, r;
                        at(s, p, r);
                        return side_rate(i, r);
                      };
                      boost::uintmax_t iterations = 100;
                      const auto       bracket    = boost::math::tools::toms748_solve(
                        rate, 0.0, dt, v_a, v_b, boost::math::tools::eps_tolerance<double>(52), iterations);
                      const double s_min = 0.5 * (bracket.first + bracket.second);
                      const double f_min = f(s_min);
                      if (!closed[i])
                        result.min_gap = std::min(result.min_gap, std::max(f_min, 0.0));
                      if (f_min <= 0)
                        root = refine(f, 0.0, s_min);
                    }
                  // An open end's gap, sampled (a crossing switches it closed at gap 0).
                  if (!closed[i])
                    result.min_gap = std::min(result.min_gap, std::max(f_b, 0.0));
                  if (root < s_event)
                    s_event = root, contact = static_cast<int>(i);
                }
              if (contact >= 0)
                {
                  at(s_event, p_b, r_b);
                  tau_a += s_event;
                  break;
                }
              p_a = p_b, r_a = r_b;
              tau_a += dt;
            }
          const double length = contact >= 0 ? tau_a : remaining;
          const Vector p_end = contact >= 0 ? p_b : p_a, r_end = contact >= 0 ? r_b : r_a;

          if (recorder)
            while (recorder->next < recorder->times.size() &&
                   (contact < 0 || recorder->times[recorder->next] <= t + length))
              {
                const double s = std::min(recorder->times[recorder->next] - t, length);
                Vector       p, r;
                advance(transitions(o.lambda, damping, s, false), p0, r0, p, r);
                Vector sample = z;
                sample.head(m)       = o.q_static + o.V * p;
                sample.segment(m, m) = o.V * r;
                recorder->states.push_back(sample);
                ++recorder->next;
              }
          if (with_jacobian)
            {
              // z ↦ (q_s ξ0 + V(a∘P + b∘R), V(c∘P + d∘R), ξ), P = Vᵀ(q − q_s ξ0), R = Vᵀ q̇, on
              // every column of [J | ∂z/∂α]; then ∂/∂α of the stretch itself.
              const Transitions phi = transitions(o.lambda, damping, length, true);
              const Matrix      P   = o.V.transpose() * (tangent.topRows(m) - o.q_static * tangent.row(2 * m));
              const Matrix      R   = o.V.transpose() * tangent.middleRows(m, m);
              tangent.topRows(m) = o.q_static * tangent.row(2 * m) +
                                   o.V * (phi.a.asDiagonal() * P + phi.b.asDiagonal() * R);
              tangent.middleRows(m, m) = o.V * (phi.c.asDiagonal() * P + phi.d.asDiagonal() * R);
              tangent.col(nz).head(m) += o.V * (phi.da.cwiseProduct(p0) + phi.db.cwiseProduct(r0));
              tangent.col(nz).segment(m, m) += o.V * (phi.dc.cwiseProduct(p0) + phi.dd.cwiseProduct(r0));
            }
          z.head(m)       = o.q_static + o.V * p_end;
          z.segment(m, m) = o.V * r_end;
          if (contact < 0)
            break;
          t += length;
          if (++n_events > settings.max_events)
            throw std::runtime_error("more than " + std::to_string(settings.max_events) +
                                     " contact switches in one period");
          const auto i = static_cast<unsigned int>(contact);
          closed[i]    = !closed[i];
          result.events.push_back({closed[i] ? OrbitEvent::Kind::sticking_start : OrbitEvent::Kind::separation, t, i, 0.0});
        }
      if (recorder)
        while (recorder->next < recorder->times.size())
          recorder->states.push_back(z), ++recorder->next;

      result.x           = z.head(2 * m);
      result.evaluations = 1;
      if (with_jacobian)
        {
          result.jacobian    = tangent.topLeftCorner(2 * m, 2 * m);
          result.d_unfolding = tangent.col(nz).head(2 * m);
          result.d_period    = (make_mode(closed, alpha).A * z).head(2 * m);
        }
      return result;
    }

    // The flow from z0 over [0, T]; fills the result (events, gaps) and, when asked, the
    // Jacobian and the samples.
    FlowResult run(const Vector &x0, double period, double alpha, bool with_jacobian,
                   Recorder *recorder) const
    {
      // (Every closed set's frequencies are at least the free ones: α that leaves those
      // underdamped leaves all of them so.)
      if (uses_oscillators() && 0.25 * alpha * alpha < omega.minCoeff() * omega.minCoeff())
        return run_oscillators(x0, period, alpha, with_jacobian, recorder);
      FlowResult result;
      Vector     z = initial_z(x0);
      ClosedSet  closed(B.rows(), false);
      // A contact starting at rest on its stop and pressed into it starts stuck.
      const double length_scale = std::max(1e-300, z.head(2 * m).lpNorm<Eigen::Infinity>());
      for (unsigned int i = 0; i < B.rows(); ++i)
        if (compliant)
          closed[i] = gap(i, z) < 0 || (gap(i, z) == 0 && gap_rate(i, z) < 0);
        else if (std::abs(gap(i, z)) <= 1e-12 * std::max(length_scale, std::abs(gap0[i])) &&
                 std::abs(gap_rate(i, z)) <= settings.chatter_threshold && pressed(i, z, alpha))
          closed[i] = true;

      Matrix J = Matrix::Identity(nz, nz);
      Vector j_alpha = Vector::Zero(nz);
      result.min_gap             = infinity;
      result.min_impact_velocity = infinity;

      std::map<ClosedSet, Mode> modes;
      const auto mode_of = [&](const ClosedSet &set) -> Mode & {
        auto it = modes.find(set);
        if (it == modes.end())
          it = modes.emplace(set, make_mode(set, alpha)).first;
        return it->second;
      };

      // Whole scan steps since the last event multiply J at once, E^k by repeated squaring: the
      // scan takes thousands of steps a period on FE models, and J = E J at each cost n³ apiece.
      unsigned long pending_steps = 0;
      const auto    flush_steps   = [&](const Mode &mode) {
        Matrix power = mode.step;
        for (unsigned long k = pending_steps; k > 0; k >>= 1)
          {
            if (k & 1)
              J = power * J;
            if (k > 1)
              power = power * power;
          }
        pending_steps = 0;
      };
      // Free flight without harmonic load: the modal coordinates are already uncoupled oscillators
      // p̈ + (d_j + α) ṗ + ω_j² p = g_j (g the constant load) about q_s = g/ω², so a step is their
      // closed-form transition (O(m)) and J takes one transition per stretch between events
      // (O(m n)), as in run_oscillators with V = I; no exponential is formed for the free set.
      const Vector lambda_free  = omega.cwiseAbs2();
      const Vector damping_free = (D.array() + alpha).matrix();
      const bool   free_closed_forms = settings.uncoupled_oscillators && !harmonic && omega.minCoeff() > 0 &&
                                       underdamped(lambda_free, damping_free);
      const Vector static_free = n_forcing > 0 ? Vector(G.col(0).cwiseQuotient(lambda_free)) : Vector::Zero(m);
      const auto   oscillating = [&](const ClosedSet &set) {
        return free_closed_forms && std::none_of(set.begin(), set.end(), [](bool c) { return c; });
      };
      // z ↦ (q_s ξ0 + a∘(q − q_s ξ0) + b∘q̇, c∘(q − q_s ξ0) + d∘q̇, ξ) on the columns of X.
      const auto transit = [&](const Transitions &phi, auto &X) {
        const Matrix xi = n_forcing > 0 ? Matrix(X.row(2 * m)) : Matrix::Zero(1, X.cols());
        const Matrix P  = X.topRows(m) - static_free * xi, R = X.middleRows(m, m);
        X.topRows(m)       = static_free * xi + phi.a.asDiagonal() * P + phi.b.asDiagonal() * R;
        X.middleRows(m, m) = phi.c.asDiagonal() * P + phi.d.asDiagonal() * R;
      };
      const auto propagate = [&](const double tau, const Vector &z0) {
        Vector z1 = z0;
        transit(transitions(lambda_free, damping_free, tau, false), z1);
        return z1;
      };
      Transitions free_step;
      double      stretch = 0.0; // free flight since the last event, not yet in J
      Vector      stretch_start;
      const auto  flush_stretch = [&]() {
        if (stretch == 0.0)
          return;
        const Transitions phi = transitions(lambda_free, damping_free, stretch, true);
        transit(phi, J);
        transit(phi, j_alpha);
        const double xi = n_forcing > 0 ? stretch_start[2 * m] : 1.0;
        const Vector p0 = stretch_start.head(m) - static_free * xi, r0 = stretch_start.segment(m, m);
        j_alpha.head(m) += phi.da.cwiseProduct(p0) + phi.db.cwiseProduct(r0);
        j_alpha.segment(m, m) += phi.dc.cwiseProduct(p0) + phi.dd.cwiseProduct(r0);
        stretch = 0.0;
      };

      const double delta = scan_step();
      double       t     = 0.0;
      std::vector<double> last_impact(B.rows(), -infinity);
      unsigned int n_events = 0;
      const auto   record = [&](double t_end, const Mode &mode, const Vector &z_start, double t_start) {
        if (!recorder)
          return;
        while (recorder->next < recorder->times.size() && recorder->times[recorder->next] <= t_end)
          {
            const double tau = recorder->times[recorder->next] - t_start;
            recorder->states.push_back(oscillating(closed) ? propagate(tau, z_start) : Vector((mode.A * tau).exp() * z_start));
            ++recorder->next;
          }
      };

      while (t < period)
        {
          Mode        &mode = mode_of(closed);
          const bool   in_free_flight = oscillating(closed);
          const double dt   = std::min(delta, period - t);
          Vector       z1;
          if (in_free_flight)
            {
              if (free_step.a.size() == 0)
                free_step = transitions(lambda_free, damping_free, delta, false);
              z1 = z;
              transit(dt == delta ? free_step : transitions(lambda_free, damping_free, dt, false), z1);
            }
          else
            {
              if (dt != delta || mode.step_length != delta)
                {
                  const Matrix E = (mode.A * dt).exp();
                  if (dt == delta)
                    mode.step = E, mode.step_length = delta;
                  z1 = E * z;
                }
              else
                z1 = mode.step * z;
            }

          // The earliest event in (0, dt].
          double       tau_event = infinity;
          int          contact   = -1;
          bool         release   = false;
          // z(τ) inside the step for the root searches: its Taylor series, whose terms A^k z / k!
          // are formed once per step (τ ≤ δ, so |λ|τ ≤ 2π/24 and 20-odd terms reach rounding),
          // instead of an exponential at every evaluation; the exponential when it does not converge.
          std::vector<Vector> taylor;
          const auto          z_at = [&](double tau) -> Vector {
            if (in_free_flight)
              return propagate(tau, z);
            if (taylor.empty())
              {
                taylor.push_back(z);
                const double floor = 1e-17 * std::max(z.lpNorm<Eigen::Infinity>(), 1e-300);
                for (int k = 1; k <= 60; ++k)
                  {
                    taylor.push_back(mode.A * taylor.back() / double(k));
                    if (taylor.back().lpNorm<Eigen::Infinity>() * std::pow(dt, k) < floor)
                      break;
                  }
                if (taylor.back().lpNorm<Eigen::Infinity>() * std::pow(dt, taylor.size() - 1) >= floor)
                  taylor.assign(1, Vector()); // no convergence: exponentials below
              }
            if (taylor.size() == 1)
              return (mode.A * tau).exp() * z;
            Vector sum = taylor.back();
            for (auto k = taylor.size() - 1; k-- > 0;)
              sum = taylor[k] + tau * sum;
            return sum;
          };
          const auto   refine    = [&](auto &&f, double a, double b) {
            boost::uintmax_t iterations = 100;
            const auto       r          = boost::math::tools::toms748_solve(
              f, a, b, boost::math::tools::eps_tolerance<double>(52), iterations);
            return r.second; // the side where f has crossed
          };
          for (unsigned int i = 0; i < B.rows(); ++i)
            {
              if (closed[i])
                continue;
              const double g_a = gap(i, z), g_b = gap(i, z1);
              const double r_a = gap_rate(i, z), r_b = gap_rate(i, z1);
              double       root = infinity;
              const auto   g    = [&](double tau) { return gap(i, z_at(tau)); };
              // Where the step starts: after an impact the state sits on the stop (g ≤ 0 to
              // rounding) and rises; a bounce shorter than the step comes back inside it, unseen
              // by both ends: the search then starts from the bounce's top. (A release leaves
              // the stop at rest: its rate is rounding, not a bounce.)
              double start = 0.0, g_start = g_a, r_start = r_a;
              // On the stop to rounding (after an impact or a release): no dip can start here.
              const bool on_stop = g_a <= 1e-12 * (std::abs(gap0[i]) + B.row(i).cwiseAbs().dot(z.head(m).cwiseAbs()));
              if (on_stop && r_a > 1e-9 * B.row(i).norm() * z.segment(m, m).norm())
                {
                  // (A top and a bottom inside one step would be two slope changes within a 24th
                  // of the shortest period: not resolved, as for the dips below.)
                  const auto rate = [&](double tau) { return gap_rate(i, z_at(tau)); };
                  if (r_b < 0)
                    {
                      boost::uintmax_t iterations = 100;
                      const auto       r          = boost::math::tools::toms748_solve(
                        rate, 0.0, dt, r_a, r_b, boost::math::tools::eps_tolerance<double>(52), iterations);
                      start   = r.second;
                      g_start = g(start);
                      r_start = rate(start);
                    }
                }
              if (g_start > 0 && g_b <= 0)
                root = refine(g, start, dt);
              else if (g_start > 0 && g_b > 0 && (start > 0 || (r_a < 0 && !on_stop)) && r_b > 0 &&
                       std::min(g_start, g_b) <= (dt - start) * (r_b - r_start))
                {
                  // (A dip deeper than the step times the slopes' span is impossible at 24 samples
                  // per shortest period: only those near the stop are located, the ones that matter
                  // for impacts and the grazing gap; the others would cost a root search each.)
                  // A dip between samples: find the lowest point, then the crossing before it.
                  const auto   rate  = [&](double tau) { return gap_rate(i, z_at(tau)); };
                  boost::uintmax_t iterations = 100;
                  const auto   r     = boost::math::tools::toms748_solve(
                    rate, start, dt, r_start, r_b, boost::math::tools::eps_tolerance<double>(52), iterations);
                  const double tau_min = 0.5 * (r.first + r.second);
                  const double g_min   = g(tau_min);
                  result.min_gap       = std::min(result.min_gap, g_min);
                  if (start == 0.0 && !compliant) // a dip right after a bounce is chatter, not a grazing
                                                  // (and a spring's grazing ends no family)
                    result.grazing_gap = std::min(result.grazing_gap, g_min);
                  if (g_min <= 0)
                    root = refine(g, start, tau_min);
                }
              if (root < tau_event)
                tau_event = root, contact = static_cast<int>(i), release = false;
            }
          for (std::size_t k = 0; k < mode.closed_list.size(); ++k)
            {
              const double l_b = mode.multiplier_rows.row(k).dot(z1);
              if (l_b < 0)
                {
                  const auto   lambda = [&](double tau) { return mode.multiplier_rows.row(k).dot(z_at(tau)); };
                  const double l_a    = mode.multiplier_rows.row(k).dot(z);
                  const double root   = l_a <= 0 ? 0.0 : refine(lambda, 0.0, dt);
                  if (root < tau_event)
                    tau_event = root, contact = static_cast<int>(mode.closed_list[k]), release = true;
                }
            }

          const double tau = contact < 0 ? dt : tau_event;
          Vector       z_end;
          if (with_jacobian && in_free_flight)
            {
              if (stretch == 0.0)
                stretch_start = z;
              stretch += tau;
              z_end = contact < 0 ? z1 : z_at(tau);
              if (contact >= 0)
                flush_stretch(); // before the event's saltation
            }
          else if (with_jacobian && contact < 0 && dt == delta)
            {
              // A whole scan step: ∂/∂α by two products with the vector; J waits (flush_steps).
              if (mode.step_extended.size() == 0)
                mode.step_extended = (extended(mode) * delta).exp();
              const auto &X = mode.step_extended;
              j_alpha       = X.topLeftCorner(nz, nz) * j_alpha + X.topRightCorner(nz, nz) * z;
              z_end         = z1;
              ++pending_steps;
            }
          else if (with_jacobian)
            {
              // A part step: exp(Aτ) for J, and ∂z/∂α over it, the top-right block of the
              // extended exponential times z, as the Taylor series of w' = A w + A_α y, y' = A y
              // (w = 0, y = z) on vectors: the 2n × 2n exponential cost 8× the n × n one.
              flush_steps(mode);
              const Matrix Et = (mode.A * tau).exp();
              Vector w_term = Vector::Zero(nz), y_term = z, w_sum = Vector::Zero(nz);
              const double floor = 1e-17 * std::max(z.lpNorm<Eigen::Infinity>(), 1e-300);
              bool         converged = false;
              for (int k = 1; k <= 80 && !converged; ++k)
                {
                  const Vector w_next = (mode.A * w_term + mode.A_alpha * y_term) * (tau / k);
                  y_term              = mode.A * y_term * (tau / k);
                  w_term              = w_next;
                  w_sum += w_term;
                  converged = w_term.lpNorm<Eigen::Infinity>() < floor && y_term.lpNorm<Eigen::Infinity>() < floor;
                }
              if (!converged)
                w_sum = (extended(mode) * tau).exp().topRightCorner(nz, nz) * z;
              j_alpha = Et * j_alpha + w_sum;
              J       = Et * J;
              z_end   = Et * z;
            }
          else
            z_end = contact < 0 ? z1 : z_at(tau);
          record(t + tau, mode, z, t);
          for (unsigned int i = 0; i < B.rows(); ++i)
            if (!closed[i])
              result.min_gap = std::min(result.min_gap, gap(i, z_end));
          z = z_end;
          t += tau;
          if (contact < 0)
            continue;

          if (++n_events > settings.max_events)
            throw std::runtime_error("more than " + std::to_string(settings.max_events) +
                                     " contact events in one period (chatter without sticking?)");
          const unsigned int i = static_cast<unsigned int>(contact);
          if (compliant)
            {
              // A spring closing or opening: the vector field is continuous there (γ = 0), so
              // the saltation matrix is I.
              closed[i] = !release;
              result.events.push_back(
                {release ? OrbitEvent::Kind::separation : OrbitEvent::Kind::sticking_start, t, i, 0.0});
              continue;
            }
          if (release)
            {
              // λ = 0 at the release: both vector fields agree there, so the saltation matrix is I.
              closed[i] = false;
              result.events.push_back({OrbitEvent::Kind::separation, t, i, 0.0});
              continue;
            }

          // Impact: Newton's law in modal coordinates, U+ = −e U−; an impact within Chatter time
          // of the previous one of the same contact is perfectly inelastic (the modal CoR's rule).
          const Vector b       = B.row(i).transpose();
          const double U_minus = b.dot(z.segment(m, m));
          const bool   chatter = settings.chatter_time > 0 && t - last_impact[i] < settings.chatter_time;
          const double e       = chatter ? 0.0 : restitution[i];
          last_impact[i]       = t;
          Vector       z_plus  = z;
          z_plus.segment(m, m) -= (1.0 + e) * U_minus / b.squaredNorm() * b;
          result.events.push_back({OrbitEvent::Kind::impact, t, i, U_minus});
          result.min_impact_velocity = std::min(result.min_impact_velocity, std::abs(U_minus));
          ClosedSet next = closed;
          // Brought to rest (or rebounding slower than the chatter threshold) and pressed: it sticks.
          if ((e == 0 || e * std::abs(U_minus) <= settings.chatter_threshold) && pressed(i, z_plus, alpha))
            {
              z_plus.segment(m, m) = z.segment(m, m) - U_minus / b.squaredNorm() * b;
              next[i]              = true;
              result.events.push_back({OrbitEvent::Kind::sticking_start, t, i, 0.0});
            }
          // ∂v+/∂v− of the impact law, then of the energy correction.
          const double e_used = next[i] ? 0.0 : e;
          Matrix       Rv     = Matrix::Identity(m, m) - (1.0 + e_used) / b.squaredNorm() * b * b.transpose();
          if (settings.energy_correction && e_used < 1.0)
            {
              std::vector<unsigned int> held{i};
              for (unsigned int k = 0; k < next.size(); ++k)
                if (next[k] && k != i)
                  held.push_back(k);
              Vector w = z_plus.segment(m, m);
              Rv       = correct_energy(z.segment(m, m), w, Rv, held);
              z_plus.segment(m, m) = w;
            }
          if (with_jacobian)
            {
              // S = R + (f+ − R f−) ∇gᵀ / (∇g · f−), ∇g = (b, 0, 0), ∇g · f− = U−.
              Matrix R = Matrix::Identity(nz, nz);
              R.block(m, m, m, m) = Rv;
              const Vector f_minus = mode.A * z;
              const Vector f_plus  = mode_of(next).A * z_plus;
              Matrix       S       = R;
              S.leftCols(m) += (f_plus - R * f_minus) * b.transpose() / U_minus;
              J       = S * J;
              j_alpha = S * j_alpha;
            }
          z      = z_plus;
          closed = next;
        }
      if (with_jacobian)
        flush_steps(mode_of(closed)), flush_stretch();
      if (recorder)
        while (recorder->next < recorder->times.size())
          recorder->states.push_back(z), ++recorder->next;

      result.x = z.head(2 * m);
      if (result.min_impact_velocity == infinity)
        result.min_impact_velocity = 0.0;
      result.evaluations = 1;
      if (with_jacobian)
        {
          result.jacobian    = J.topLeftCorner(2 * m, 2 * m);
          result.d_unfolding = j_alpha.head(2 * m);
          result.d_period    = (mode_of(closed).A * z).head(2 * m);
        }
      return result;
    }
  };

  LinearImpactFlow::LinearImpactFlow(const model::StructuralModel &model, const LinearImpactFlowSettings &settings)
    : impl_(std::make_unique<Implementation>(model, settings))
  {}

  LinearImpactFlow::~LinearImpactFlow() = default;

  Eigen::Index LinearImpactFlow::dimension() const { return 2 * impl_->m; }

  FlowResult LinearImpactFlow::flow(const Vector &x0, const double period, const double alpha,
                                    const bool with_jacobian) const
  {
    return impl_->run(x0, period, alpha, with_jacobian, nullptr);
  }

  Vector LinearImpactFlow::vector_field(const Vector &x) const
  {
    const auto &I = *impl_;
    const Vector z    = I.initial_z(x);
    ClosedSet    closed(I.B.rows(), false);
    if (I.compliant)
      for (unsigned int i = 0; i < I.B.rows(); ++i)
        closed[i] = I.gap(i, z) < 0;
    return (I.make_mode(closed, 0.0).A * z).head(2 * I.m);
  }

  double LinearImpactFlow::energy(const Vector &x) const
  {
    const auto &I = *impl_;
    double      springs = 0.0; // ½ κ min(γ, 0)² of massless contact nodes
    if (I.compliant)
      for (unsigned int i = 0; i < I.B.rows(); ++i)
        springs += 0.5 * I.condensation.stiffness[i] * std::pow(std::min(I.projection.gap(i, x.head(I.m)), 0.0), 2);
    return I.projection.kinetic_energy(x.tail(I.m)) + I.projection.potential_energy(x.head(I.m)) + springs;
  }

  OrbitSamples LinearImpactFlow::sample(const Vector &x0, const double period, const unsigned int n_samples) const
  {
    const auto &I = *impl_;
    Implementation::Recorder recorder;
    for (unsigned int k = 0; k <= n_samples; ++k)
      recorder.times.push_back(period * k / n_samples);
    const FlowResult result = I.run(x0, period, 0.0, false, &recorder);
    OrbitSamples     samples;
    samples.time   = recorder.times;
    samples.events = result.events;
    for (const Vector &z : recorder.states)
      {
        const Vector u = I.projection.shapes() * z.head(I.m), v = I.projection.shapes() * z.segment(I.m, I.m);
        samples.energy.push_back(energy(z.head(2 * I.m)));
        if (!I.compliant)
          {
            samples.displacement.push_back(u);
            samples.velocity.push_back(v);
            continue;
          }
        // Every DoF of the model: the massless nodes where statics puts them, on their stop
        // (at rest) while it is closed.
        const auto &c = I.condensation;
        Vector      u_full = Vector::Zero(c.n_full), v_full = Vector::Zero(c.n_full);
        for (std::size_t k = 0; k < c.kept.size(); ++k)
          u_full[c.kept[k]] = u[k], v_full[c.kept[k]] = v[k];
        for (std::size_t i = 0; i < c.node.size(); ++i)
          {
            const double free_u = c.recovery[i].dot(u), free_v = c.recovery[i].dot(v);
            u_full[c.node[i]]   = free_u;
            v_full[c.node[i]]   = free_v;
          }
        for (std::size_t i = 0; i < c.node.size(); ++i)
          if (I.gap(static_cast<unsigned int>(i), z) <= 0)
            {
              u_full[c.node[i]] = -I.gap0[i] / c.coefficient[i];
              v_full[c.node[i]] = 0.0;
            }
        samples.displacement.push_back(u_full);
        samples.velocity.push_back(v_full);
      }
    return samples;
  }

  double LinearImpactFlow::linear_period(const unsigned int mode) const
  {
    return 2 * M_PI / impl_->omega[mode - 1];
  }

  double LinearImpactFlow::grazing_energy(const unsigned int mode) const
  {
    const auto &I         = *impl_;
    double      amplitude = infinity;
    for (Eigen::Index i = 0; i < I.B.rows(); ++i)
      if (std::abs(I.B(i, mode - 1)) > 0)
        amplitude = std::min(amplitude, std::max(0.0, I.gap0[i]) / std::abs(I.B(i, mode - 1)));
    return 0.5 * std::pow(I.omega[mode - 1] * amplitude, 2);
  }

  Vector LinearImpactFlow::linear_mode_state(const unsigned int mode, const double energy) const
  {
    const auto &I = *impl_;
    // At its largest distance from the contact that grazes first, so that impacts fall inside
    // the period, never at its ends.
    double       amplitude = std::sqrt(2 * energy) / I.omega[mode - 1];
    Eigen::Index first     = -1;
    double       ratio     = infinity;
    for (Eigen::Index i = 0; i < I.B.rows(); ++i)
      if (std::abs(I.B(i, mode - 1)) > 0 && I.gap0[i] / std::abs(I.B(i, mode - 1)) < ratio)
        ratio = I.gap0[i] / std::abs(I.B(i, mode - 1)), first = i;
    if (first >= 0 && I.B(first, mode - 1) < 0)
      amplitude = -amplitude;
    Vector x = Vector::Zero(2 * I.m);
    x[mode - 1] = amplitude;
    return x;
  }

  Vector LinearImpactFlow::one_impact_turning_point(const unsigned int contact, const double period) const
  {
    const auto  &I = *impl_;
    const Vector b = I.B.row(contact).transpose();
    // Undamped modes from (p, 0): q(T/2) = diag(cos ω T/2) p, q̇(T/2) = −diag(ω sin ω T/2) p.
    const Vector C = (I.omega * (period / 2)).array().cos();
    const Vector S = -(I.omega.array() * (I.omega * (period / 2)).array().sin()).matrix();
    // Conditions: b·q(T/2) = −g0 (on the stop), and q̇(T/2) ∥ b (e = 1 reverses it onto −q̇, the
    // mirror image, so the orbit closes by time reversibility): (I − b bᵀ/|b|²) S p = 0.
    const Eigen::Index m = I.m;
    Matrix             A(m + 1, m);
    Vector             rhs = Vector::Zero(m + 1);
    A.row(0)               = (b.array() * C.array()).matrix().transpose();
    rhs[0]                 = -I.gap0[contact];
    const Matrix P         = Matrix::Identity(m, m) - b * b.transpose() / b.squaredNorm();
    A.bottomRows(m)        = P * S.asDiagonal();
    Vector x               = Vector::Zero(2 * m);
    x.head(m)              = A.colPivHouseholderQr().solve(rhs); // m + 1 rows of rank m
    return x;
  }

  std::optional<std::pair<Vector, double>> LinearImpactFlow::one_impact_orbit(const unsigned int mode,
                                                                              const double energy) const
  {
    const auto &I = *impl_;
    if (I.n_forcing > 0 || !I.D.isZero(0.0) || I.compliant)
      return std::nullopt;
    // The contact that mode j grazes first.
    Eigen::Index contact = -1;
    double       ratio   = infinity;
    for (Eigen::Index i = 0; i < I.B.rows(); ++i)
      if (std::abs(I.B(i, mode - 1)) > 0 && I.gap0[i] / std::abs(I.B(i, mode - 1)) < ratio)
        ratio = I.gap0[i] / std::abs(I.B(i, mode - 1)), contact = i;
    if (contact < 0 || I.restitution[contact] != 1.0)
      return std::nullopt;
    // The family stiffens (T falls below the linear period as E grows from grazing): walk T down
    // until the orbit's energy passes E, then bisect.
    const double T_linear = linear_period(mode);
    const auto   energy_at = [&](double T) { return this->energy(one_impact_turning_point(contact, T)); };
    double       high = T_linear * (1 - 1e-9), low = high;
    for (int k = 1; k <= 400 && energy_at(low) < energy; ++k)
      high = low, low = T_linear * (1 - 0.0025 * k);
    if (energy_at(low) < energy)
      return std::nullopt;
    for (int k = 0; k < 60; ++k)
      {
        const double mid = 0.5 * (low + high);
        (energy_at(mid) < energy ? high : low) = mid;
      }
    return std::make_pair(one_impact_turning_point(contact, low), low);
  }

  std::optional<std::pair<Vector, double>> LinearImpactFlow::simulated_orbit(const double time, const Vector &x0) const
  {
    const auto &I     = *impl_;
    const Vector start = x0.size() == 2 * I.m ? x0 : modal_state(I.initial_displacement, I.initial_velocity);
    // The impact times of the run (a long flow: the map is exact, so the run is a simulation).
    std::vector<double> impacts;
    try
      {
        for (const auto &event : I.run(start, time, 0.0, false, nullptr).events)
          if (event.kind == OrbitEvent::Kind::impact)
            impacts.push_back(event.time);
      }
    catch (const std::runtime_error &)
      {
        return std::nullopt; // endless chatter: no orbit to start from
      }
    // The shortest p such that the last 2p intervals between impacts repeat with period p, to a
    // thousandth of that period (a conservative run settles only approximately: Newton polishes).
    const auto n = impacts.size();
    for (std::size_t p = 1; 3 * p + 1 <= n; ++p)
      {
        const double period = impacts[n - 1] - impacts[n - 1 - p];
        bool         periodic = period > 0;
        for (std::size_t j = n - 2 * p; j < n && periodic; ++j)
          periodic = std::abs((impacts[j] - impacts[j - 1]) - (impacts[j - p] - impacts[j - p - 1])) <= 1e-3 * period;
        if (!periodic)
          continue;
        // Half-way through the last period: away from its impacts. The spacings can repeat
        // before the state does (an orbit whose two halves take equal times), so the state
        // must come back too, to a percent (a conservative run settles only approximately).
        const double t_mid = impacts[n - 1 - p] + 0.5 * (impacts[n - p] - impacts[n - 1 - p]);
        const Vector x_mid = I.run(start, t_mid, 0.0, false, nullptr).x;
        const Vector x_back = I.run(x_mid, period, 0.0, false, nullptr).x;
        if ((x_back - x_mid).norm() > 1e-2 * x_mid.norm())
          continue;
        return std::make_pair(x_mid, period);
      }
    return std::nullopt;
  }

  Vector LinearImpactFlow::initial_state() const
  {
    return modal_state(impl_->initial_displacement, impl_->initial_velocity);
  }

  bool LinearImpactFlow::forced() const { return impl_->harmonic; }

  void LinearImpactFlow::set_forcing_frequency(const double omega) { impl_->forcing_omega = omega; }

  double LinearImpactFlow::forcing_frequency() const { return impl_->forcing_omega; }

  const integrators::ModalProjection &LinearImpactFlow::projection() const { return impl_->projection; }

  Vector LinearImpactFlow::modal_state(const Vector &u, const Vector &v) const
  {
    const auto &I = *impl_;
    const auto  kept = [&](const Vector &w) -> Vector {
      if (!I.compliant || w.size() != I.condensation.n_full)
        return w;
      Vector r(I.condensation.kept.size());
      for (std::size_t k = 0; k < I.condensation.kept.size(); ++k)
        r[k] = w[I.condensation.kept[k]];
      return r;
    };
    Vector x(2 * I.m);
    x.head(I.m) = I.mass_shapes.transpose() * kept(u);
    x.tail(I.m) = I.mass_shapes.transpose() * kept(v);
    return x;
  }
} // namespace vibroimpact::periodic
