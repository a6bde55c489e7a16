// The one place that builds deal.II meshes of a body (uniform or read from a .msh, refined),
// flattened into an element table.
#include <vibroimpact/io/input_error.h>

#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/grid_in.h>
#include <deal.II/grid/tria.h>

#include "element_table.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

namespace vibroimpact::structure
{
  namespace
  {
    std::string body_parameter(const BodyDescription &body, const std::string &entry)
    {
      return "Body " + body.name + "/" + entry;
    }

    std::filesystem::path resolve_mesh(const BodyDescription &body,
                                       const std::string     &case_file,
                                       const std::string     &mesh_directory)
    {
      const std::filesystem::path given(body.mesh_file);
      std::vector<std::filesystem::path> candidates{given};
      if (given.is_relative())
        candidates = {std::filesystem::path(mesh_directory) / given, given};
      for (const auto &candidate : candidates)
        if (std::filesystem::is_regular_file(candidate))
          return candidate;
      throw io::InputError(case_file,
                           body_parameter(body, "Mesh file"),
                           "cannot open mesh file '" + body.mesh_file + "'");
    }

    void read_mesh(dealii::Triangulation<1> &tria,
                   const BodyDescription    &body,
                   const std::string        &case_file,
                   const std::string        &mesh_directory)
    {
      const auto    path = resolve_mesh(body, case_file, mesh_directory);
      std::ifstream in(path);
      try
        {
          dealii::GridIn<1> grid_in;
          grid_in.attach_triangulation(tria);
          grid_in.read_msh(in);
        }
      catch (const std::exception &e)
        {
          throw io::InputError(case_file,
                               body_parameter(body, "Mesh file"),
                               "cannot read '" + path.string() + "' as a gmsh 1D mesh");
        }
      // A mesh must span the body exactly: contacts, loads and probes are placed by x.
      double x_min = 1e300, x_max = -1e300;
      for (const auto &vertex : tria.get_vertices())
        {
          x_min = std::min(x_min, vertex[0]);
          x_max = std::max(x_max, vertex[0]);
        }
      const double tolerance = 1e-10 * body.length;
      if (std::abs(x_min) > tolerance || std::abs(x_max - body.length) > tolerance)
        throw io::InputError(case_file,
                             body_parameter(body, "Mesh file"),
                             "mesh '" + path.string() + "' spans [" + std::to_string(x_min) + ", " +
                               std::to_string(x_max) + "] but the body's Length is " +
                               std::to_string(body.length));
    }
  } // namespace

  ElementTable make_element_table(const BodyDescription &body,
                                  const ElementFamily    family,
                                  const std::string     &case_file,
                                  const std::string     &mesh_directory)
  {
    dealii::Triangulation<1> tria;
    if (body.mesh_file.empty())
      dealii::GridGenerator::subdivided_hyper_cube(tria, body.n_elements, 0.0, body.length);
    else
      read_mesh(tria, body, case_file, mesh_directory);
    tria.refine_global(body.refinements);

    // Hermite C1: deal.II 9.4 has no FE_Hermite; FESystem(FE_Q(1), 2) gives exactly the
    // numbering we need (value and slope DoFs on each vertex) and the element matrices are
    // computed by the beam with Hermite cubics (doc/theory.md).
    std::unique_ptr<dealii::FiniteElement<1>> fe;
    if (family == ElementFamily::hermite_c1)
      fe = std::make_unique<dealii::FESystem<1>>(dealii::FE_Q<1>(1), 2);
    else
      fe = std::make_unique<dealii::FE_Q<1>>(body.degree);

    dealii::DoFHandler<1> dof_handler(tria);
    dof_handler.distribute_dofs(*fe);

    ElementTable table;
    table.n_dofs = dof_handler.n_dofs();
    const unsigned int dofs_per_vertex = fe->n_dofs_per_vertex();
    std::vector<dealii::types::global_dof_index> local(fe->n_dofs_per_cell());
    const double tolerance = 1e-12 * body.length;
    for (const auto &cell : dof_handler.active_cell_iterators())
      {
        cell->get_dof_indices(local);
        MeshElement element;
        element.x_left  = cell->vertex(0)[0];
        element.x_right = cell->vertex(1)[0];
        element.dofs.assign(local.begin(), local.end());
        for (unsigned int v = 0; v < 2; ++v)
          {
            const double               x        = cell->vertex(v)[0];
            std::vector<unsigned int> *end_dofs = nullptr;
            if (std::abs(x) < tolerance)
              end_dofs = &table.left_end_dofs;
            else if (std::abs(x - body.length) < tolerance)
              end_dofs = &table.right_end_dofs;
            if (end_dofs != nullptr && end_dofs->empty())
              for (unsigned int d = 0; d < dofs_per_vertex; ++d)
                end_dofs->push_back(local[v * dofs_per_vertex + d]);
          }
        // Meshes read from files may list a cell's vertices right to left; the element
        // matrices and shape functions assume left to right, so swap the vertex DoF blocks.
        if (element.x_left > element.x_right)
          {
            std::swap(element.x_left, element.x_right);
            for (unsigned int d = 0; d < dofs_per_vertex; ++d)
              std::swap(element.dofs[d], element.dofs[dofs_per_vertex + d]);
          }
        table.elements.push_back(std::move(element));
      }
    std::sort(table.elements.begin(), table.elements.end(), [](const auto &a, const auto &b) {
      return a.x_left < b.x_left;
    });
    return table;
  }

  int find_element(const ElementTable &table, const double x)
  {
    const auto &elements = table.elements;
    if (elements.empty())
      return -1;
    const double tolerance = 1e-12 * (elements.back().x_right - elements.front().x_left);
    if (x < elements.front().x_left - tolerance || x > elements.back().x_right + tolerance)
      return -1;
    // First element whose right end reaches x.
    const auto it = std::lower_bound(elements.begin(), elements.end(), x - tolerance,
                                     [](const MeshElement &e, double value) { return e.x_right < value; });
    return it == elements.end() ? static_cast<int>(elements.size()) - 1 :
                                  static_cast<int>(it - elements.begin());
  }

  std::vector<int> free_numbering(const unsigned int n_dofs, const std::vector<unsigned int> &constrained)
  {
    std::vector<int> numbering(n_dofs, 0);
    for (const unsigned int dof : constrained)
      numbering[dof] = -1;
    int next = 0;
    for (auto &index : numbering)
      if (index == 0)
        index = next++;
    return numbering;
  }
} // namespace vibroimpact::structure
