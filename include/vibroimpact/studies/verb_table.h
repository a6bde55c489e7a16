// The program's verbs, listed once: name, its Python method and result class, one-line help, the
// module that runs it, and whether it reads the time-domain sections (Simulation and the solvers').
// The command line (main.cc: its subcommands, --help and the unknown-verb message; verb_module.cc:
// the dispatch, one function a verb), the case file's section tags and `parameters <verb>`, the
// output folders and the Python module (vibroimpact.verbs(), Case's methods, their first docstring
// lines and result classes; python/tests/test_verbs.py fails when they disagree) all read this
// table. Each verb's work is one library call that both sides make (studies/verb_calls.h). Header-only and free of
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
    // Its Python spelling: a method of vibroimpact.Case (`continue` is a Python keyword), or for
    // `parameters` the module's function; and the class of what the method returns.
    const char *python_method;
    const char *python_result;
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
      {VerbId::modes, "modes", "modes", "Modes", "natural frequencies and mode shapes", false, false},
      {VerbId::simulate, "simulate", "simulate", "Simulation",
       "time history by the solver of Simulation/Solver (default: Moreau–Jean with Siconos LCPs)", false, true},
      {VerbId::compare, "compare", "compare", "Comparison",
       "the case's runs (subsection Run <name>: any solver, own overrides) against a reference run", false, true},
      {VerbId::sweep, "sweep", "sweep", "Sweep", "Poincaré sections over one swept parameter (bifurcation diagram); runs on MPI ranks",
       false, true},
      {VerbId::converge, "converge", "converge", "Convergence",
       "convergence table with observed rates: natural frequencies, or response quantities under mesh, time-step "
       "or mode refinement, or a Continuation branch at fixed energies on bisected meshes",
       true, true},
      {VerbId::continuation, "continue", "continue_", "Continuation",
       "periodic orbits by shooting and continuation (Trilinos LOCA): branches, Floquet stability, frequency-energy "
       "plot",
       true, false},
      {VerbId::parameters, "parameters", "parameters", "list of Parameter", "print every parameter with its default and documentation", false, false,
       false},
    };
    return table;
  }

  inline const Verb &verb(const VerbId id) { return verb_table()[static_cast<std::size_t>(id)]; }
  inline const char *verb_name(const VerbId id) { return verb(id).name; }

  // The verb called `name` (the command line's spelling or the Python method's), or nullptr.
  inline const Verb *find_verb(const std::string &name)
  {
    for (const auto &v : verb_table())
      if (name == v.name || name == v.python_method)
        return &v;
    return nullptr;
  }

  // The number of verbs (VerbId's values), for tables indexed by VerbId.
  inline constexpr std::size_t verb_count = static_cast<std::size_t>(VerbId::parameters) + 1;

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
