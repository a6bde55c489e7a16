// Massless contact nodes: the contacts' DoFs give their mass to their neighbours and are
// condensed statically (contact_condensation.h); the reduced model the event-driven map runs on.
#include "contact_condensation.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace vibroimpact::periodic
{
  namespace
  {
    // Each contact's DoF and its row coefficient; the massless DoFs.
    std::vector<bool> find_contact_nodes(const model::StructuralModel &model, ContactCondensation &c)
    {
      std::vector<bool> massless(model.n_dofs(), false);
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
      return massless;
    }

    // The DoFs that keep their mass, and the selection P (n × nr) onto them: reduced matrices
    // are Pᵀ X P.
    model::SparseMatrix select_kept_dofs(const std::vector<bool> &massless, ContactCondensation &c)
    {
      const Eigen::Index        n = c.n_full;
      std::vector<Eigen::Index> reduced_index(n, -1);
      for (Eigen::Index j = 0; j < n; ++j)
        if (!massless[j])
          reduced_index[j] = static_cast<Eigen::Index>(c.kept.size()), c.kept.push_back(j);
      const Eigen::Index nr = static_cast<Eigen::Index>(c.kept.size());

      model::SparseMatrix P(n, nr);
      std::vector<Eigen::Triplet<double>> t;
      for (Eigen::Index k = 0; k < nr; ++k)
        t.emplace_back(c.kept[k], k, 1.0);
      P.setFromTriplets(t.begin(), t.end());
      return P;
    }

    // Pᵀ X P; a matrix of another size (an empty one) as it is.
    model::SparseMatrix reduce(const model::SparseMatrix &P, const model::SparseMatrix &X)
    {
      if (X.rows() != P.rows())
        return X;
      return model::SparseMatrix(P.transpose() * X * P);
    }

    // What contact i's node allows: stiffness of its own, no coupling to another contact's
    // node, no load on it.
    void check_node(const model::StructuralModel &model, const ContactCondensation &c, const std::size_t i)
    {
      const Eigen::Index N = c.node[i];
      const Eigen::Index n = c.n_full;
      if (!(model.stiffness.coeff(N, N) > 0))
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
    }

    // The node's mass along its own direction, 1ᵀM1 over the DoFs of its kind, goes to the
    // neighbours of that kind in proportion to their stiffness coupling k_col.
    void redistribute_mass(const model::StructuralModel &model, const ContactCondensation &c, const std::size_t i,
                           const Vector &k_col, Matrix &M)
    {
      const Eigen::Index N    = c.node[i];
      const Eigen::Index n    = c.n_full;
      const Eigen::Index nr   = static_cast<Eigen::Index>(c.kept.size());
      const auto         kind = N < static_cast<Eigen::Index>(model.dof_kinds.size()) ? model.dof_kinds[N]
                                                                                      : model::DofKind::lumped;
      const auto same = [&](Eigen::Index j) {
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

    // Contact i: its recovery r and spring κ; its node (once, when two stops share it: a
    // two-sided support) condensed out of S and its mass given to M.
    void condense_node(const model::StructuralModel &model, const model::SparseMatrix &P, const std::size_t i,
                       ContactCondensation &c, std::vector<bool> &condensed, Matrix &M, Matrix &S)
    {
      const Eigen::Index N     = c.node[i];
      const Vector       e_N   = Vector::Unit(c.n_full, N);
      const Vector       k_col = P.transpose() * (model.stiffness * e_N);
      const double       k_NN  = model.stiffness.coeff(N, N);
      check_node(model, c, i);
      c.recovery.push_back(-k_col / k_NN);
      c.stiffness.push_back(k_NN / (c.coefficient[i] * c.coefficient[i]));
      if (condensed[N])
        return;
      condensed[N] = true;
      S -= k_col * k_col.transpose() / k_NN;
      redistribute_mass(model, c, i, k_col, M);
    }

    // The reduced model: M and S as condensed, the rest selected by P; each contact's row c r.
    void build_reduced_model(const model::StructuralModel &model, const model::SparseMatrix &P, const Matrix &M,
                             const Matrix &S, ContactCondensation &c)
    {
      const Eigen::Index n = c.n_full;
      auto              &r = c.reduced;
      r.name               = model.name;
      r.mass               = M.sparseView();
      r.stiffness          = S.sparseView();
      r.damping            = reduce(P, model.damping);
      r.dashpots           = reduce(P, model.dashpots);
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
    }
  } // namespace

  ContactCondensation condense_contact_nodes(const model::StructuralModel &model, integrators::ModeSource source)
  {
    if (source != integrators::ModeSource::finite_element)
      throw std::invalid_argument("massless contact nodes: the condensed model has finite-element modes only");
    ContactCondensation c;
    c.n_full                           = model.n_dofs();
    const std::vector<bool>   massless = find_contact_nodes(model, c);
    const model::SparseMatrix P        = select_kept_dofs(massless, c);
    Matrix            M = Matrix(reduce(P, model.mass)), S = Matrix(reduce(P, model.stiffness));
    std::vector<bool> condensed(c.n_full, false);
    for (std::size_t i = 0; i < c.node.size(); ++i)
      condense_node(model, P, i, c, condensed, M, S);
    build_reduced_model(model, P, M, S, c);
    return c;
  }
} // namespace vibroimpact::periodic
