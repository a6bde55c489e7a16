// The program's verbs, listed once: name, one-line help, the module that runs it, and whether it
// reads the time-domain sections (Simulation and the solvers'). The command line (main.cc: its
// subcommands, --help and the unknown-verb message; verb_module.cc: the dispatch), the case
// file's section tags and `parameters <verb>`, the output folders and the Python module
// (vibroimpact.verbs(), the methods' first lines) all read this table. Header-only and free of
// the library: the program reads it before it loads anything (doc/performance.md, "Start-up").
#pragma once

#include <string>
#include <vector>

namespace vibroimpact::studies
{
  // In the table's order.
  enum class VerbId
  {
    modes,
    simulate,
    compare,
    sweep,
    converge,
    continuation, // `continue`
    parameters
  };

  struct Verb
  {
    VerbId      id;
    const char *name;
    const char *help;
    // The loadable module that runs it: libvibroimpact-cli-continue.so (the one that loads
    // Trilinos LOCA and NOX) or libvibroimpact-cli.so.
    bool continuation_module;
    // Reads Simulation and the solvers' sections (a case for it needs a time-domain run).
    bool time_domain;
    // Reads a case file (all but `parameters`).
    bool reads_case = true;
  };

  inline const std::vector<Verb> &verb_table()
  {
    static const std::vector<Verb> table{
      {VerbId::modes, "modes", "natural frequencies and mode shapes", false, false},
      {VerbId::simulate, "simulate",
       "time history by the solver of Simulation/Solver (default: Moreau–Jean with Siconos LCPs)", false, true},
      {VerbId::compare, "compare",
       "the case's runs (subsection Run <name>: any solver, own overrides) against a reference run", false, true},
      {VerbId::sweep, "sweep", "Poincaré sections over one swept parameter (bifurcation diagram); runs on MPI ranks",
       false, true},
      {VerbId::converge, "converge",
       "convergence table with observed rates: natural frequencies, or response quantities under mesh, time-step "
       "or mode refinement, or a Continuation branch at fixed energies on bisected meshes",
       true, true},
      {VerbId::continuation, "continue",
       "periodic orbits by shooting and continuation (Trilinos LOCA): branches, Floquet stability, frequency-energy "
       "plot",
       true, false},
      {VerbId::parameters, "parameters", "print every parameter with its default and documentation", false, false,
       false},
    };
    return table;
  }

  inline const Verb &verb(const VerbId id) { return verb_table()[static_cast<std::size_t>(id)]; }
  inline const char *verb_name(const VerbId id) { return verb(id).name; }

  // The verb called `name`, or nullptr.
  inline const Verb *find_verb(const std::string &name)
  {
    for (const auto &v : verb_table())
      if (name == v.name)
        return &v;
    return nullptr;
  }

  // "modes, simulate, ..., continue" (those that read a case; with_parameters: and parameters).
  inline std::string verb_list(const bool with_parameters = false)
  {
    std::string list;
    for (const auto &v : verb_table())
      if (v.reads_case || with_parameters)
        list += (list.empty() ? "" : ", ") + std::string(v.name);
    return list;
  }

  // The names of the verbs that read a case and satisfy `which` (time-domain ones, say).
  template <typename Predicate>
  std::vector<std::string> verb_names(const Predicate &which)
  {
    std::vector<std::string> names;
    for (const auto &v : verb_table())
      if (v.reads_case && which(v))
        names.emplace_back(v.name);
    return names;
  }
} // namespace vibroimpact::studies
