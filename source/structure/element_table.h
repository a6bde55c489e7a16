// A 1D mesh with its DoF numbering, flattened into plain data: what the bodies need once deal.II
// has read or generated the mesh and distributed the DoFs.
#pragma once

#include <vibroimpact/structure/case_description.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::structure
{
  struct MeshElement
  {
    double                    x_left  = 0.0;
    double                    x_right = 0.0;
    std::vector<unsigned int> dofs; // in the finite element's local order
  };

  struct ElementTable
  {
    std::vector<MeshElement> elements; // sorted by x_left, x_left < x_right
    unsigned int             n_dofs = 0;
    // The DoFs at x = 0 and x = length, in the element's vertex order (value, slope for beams).
    std::vector<unsigned int> left_end_dofs;
    std::vector<unsigned int> right_end_dofs;
  };

  enum class ElementFamily
  {
    hermite_c1, // two DoFs per vertex: value, slope
    lagrange    // FE_Q of the body's degree
  };

  // Generates (subdivided interval) or reads (GridIn, gmsh) the body's mesh, refines it, and
  // distributes the DoFs of the element family. Throws io::InputError for a missing or
  // inconsistent mesh.
  ElementTable make_element_table(const BodyDescription &body,
                                  ElementFamily          family,
                                  const std::string     &case_file,
                                  const std::string     &mesh_directory);

  // Index of the element that contains x (the left one at a shared node); -1 if outside.
  int find_element(const ElementTable &table, double x);

  // The row that evaluates a field at x: the element holding x (std::out_of_range "outside the
  // <what>" if none), `shape_values(ξ, h)` its shape functions at ξ = (x − x_left)/h in the
  // element's DoF order, on the free DoFs (`free`: free_numbering) shifted by `offset`.
  template <typename ShapeValues>
  std::vector<std::pair<unsigned int, double>> element_row(const ElementTable &table, const std::vector<int> &free,
                                                           const double x, const unsigned int offset,
                                                           const std::string &what, ShapeValues &&shape_values)
  {
    const int e = find_element(table, x);
    if (e < 0)
      throw std::out_of_range("outside the " + what);
    const auto  &element = table.elements[e];
    const double h       = element.x_right - element.x_left;
    const auto   N       = shape_values((x - element.x_left) / h, h);
    std::vector<std::pair<unsigned int, double>> row;
    for (unsigned int i = 0; i < element.dofs.size(); ++i)
      if (free[element.dofs[i]] >= 0 && N[i] != 0.0)
        row.emplace_back(free[element.dofs[i]] + offset, N[i]);
    return row;
  }

  // Every node and samples_per_element - 1 evenly spaced points inside each element, ascending.
  std::vector<double> uniform_samples(const ElementTable &table, unsigned int samples_per_element);

  // Maps the body's DoFs to free DoFs (-1 for constrained ones), numbering the free ones in order.
  std::vector<int> free_numbering(unsigned int n_dofs, const std::vector<unsigned int> &constrained);
} // namespace vibroimpact::structure
