// Reading a whole case file (see the header): every module's sections bound in one list.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/structure/case_parameters.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/verb_table.h>


#include <algorithm>
#include <ostream>

namespace vibroimpact::studies
{
  std::vector<std::string> case_file_families()
  {
    auto families = structure::case_families();
    families.push_back("Run");
    return families;
  }

  const integrators::Solver &CaseFile::solver(const std::string &name) const
  {
    for (const auto &s : solvers)
      if (s->name() == name)
        return *s;
    throw io::InputError(filename, "Simulation/Solver", "no solver named '" + name + "'");
  }

  const RunDefinition &CaseFile::find_run(const std::string &name, const std::string &parameter) const
  {
    for (const auto &run : runs)
      if (run.name == name)
        return run;
    std::string names;
    for (const auto &run : runs)
      names += (names.empty() ? "" : ", ") + run.name;
    throw io::InputError(filename, parameter,
                         "no run named '" + name + "' (subsection Run <name>; the file has: " +
                           (names.empty() ? "none" : names) + ")");
  }

  void bind_case_file(io::ParameterFile &file, CaseFile &c)
  {
    const auto time_domain = verb_names([](const Verb &v) { return v.time_domain; });
    const auto                     solver_names = integrators::SolverRegistry::names();

    c.filename = file.filename();
    structure::bind_case_parameters(file, c.description);

    file.section(
      "Simulation",
      [&](io::ParameterSection &s) {
        s.add_choice("Solver", c.solver_name, solver_names,
                     "The time-domain solver (its parameters are in its own subsection).");
        s.add("Final time", c.run.final_time, io::positive(), "Simulated time span, from t = 0.");
        s.add("Output interval", c.run.output_interval, io::non_negative(),
              "Time between history rows; 0: every step of a time stepper, final time / 1000 for an event-driven "
              "solver.");
        s.add("Frame interval", c.run.frame_interval, io::non_negative(),
              "Time between solution-NNNNN.vtu frames (each is also a history row); 0: no frames.");
        s.add("Output format", c.hdf5_records, io::Choices<bool>{{"csv", false}, {"hdf5", true}},
              "csv: history.csv, events.csv, statistics.csv and solution.pvd + .vtu frames; hdf5: one records.h5 "
              "(groups history, events, statistics; a chunked, compressed dataset per CSV column, the same "
              "names and doubles) and the frames as solution.h5 + solution.xdmf (one time series for ParaView), "
              "for long records.");
      },
      time_domain);

    file.section(
      "Statistics",
      [&](io::ParameterSection &s) {
        s.add("Start time", c.statistics_start, io::non_negative(),
              "Rows before this time (the transient from rest) are left out of statistics.csv and the spectra.");
        s.add("PSD segment", c.psd_segment, 0, 1u << 30,
              "Rows per Welch segment of the displacement PSDs (a power of two); 0: the largest giving 8 segments, "
              "at most 65536 (a long record gets more segments, not longer ones).");
      },
      time_domain);

    if (c.solvers.empty())
      for (const auto &name : solver_names)
        c.solvers.push_back(integrators::SolverRegistry::create(name));
    for (auto &solver : c.solvers)
      file.section(solver->parameter_section(), [&](io::ParameterSection &s) { solver->bind_parameters(s); },
                   time_domain);

    const auto &run_names = file.instances("Run");
    c.runs.resize(run_names.size());
    for (std::size_t k = 0; k < run_names.size(); ++k)
      file.section(
        "Run " + run_names[k],
        [&](io::ParameterSection &s) { bind_run_definition(s, c.runs[k], run_names[k], solver_names); },
        {verb_name(VerbId::compare), verb_name(VerbId::converge)});

    file.section(
      "Compare", [&](io::ParameterSection &s) { bind_comparison_parameters(s, c.comparison); },
      {verb_name(VerbId::compare)});
    file.section(
      "Convergence", [&](io::ParameterSection &s) { bind_convergence_parameters(s, c.convergence); },
      {verb_name(VerbId::converge)});
    file.section(
      "Sweep",
      [&](io::ParameterSection &s) {
        c.sweep.filename = file.filename();
        bind_sweep_parameters(s, c.sweep);
      },
      {verb_name(VerbId::sweep)});

    file.section(
      "Continuation",
      [&](io::ParameterSection &s) {
        c.continuation.filename      = file.filename();
        c.continuation.section_given = file.has_section("Continuation");
        periodic::bind_continuation_parameters(s, c.continuation);
      },
      {verb_name(VerbId::continuation)});

    if (!file.parsed())
      return;
    if (!c.comparison.reference.empty())
      c.find_run(c.comparison.reference, "Compare/Reference");
    if (!c.convergence.reference_run.empty())
      c.find_run(c.convergence.reference_run, "Convergence/Reference run");
  }

  CaseFile read_case_file(const std::string &filename, const std::vector<std::string> &overrides)
  {
    io::ParameterFile file(filename, case_file_families(), overrides);
    CaseFile          c;
    bind_case_file(file, c); // declares
    file.parse();
    bind_case_file(file, c); // reads
    c.overrides = overrides;
    return c;
  }

  CaseFile read_case_text(const std::string &name, const std::string &text, const std::vector<std::string> &overrides)
  {
    auto     file = io::ParameterFile::from_text(name, text, case_file_families(), overrides);
    CaseFile c;
    bind_case_file(file, c); // declares
    file.parse();
    bind_case_file(file, c); // reads
    c.overrides = overrides;
    c.text      = text;
    return c;
  }

  CaseFile reread_case_file(const CaseFile &c, const std::vector<std::string> &overrides)
  {
    return c.text ? read_case_text(c.filename, *c.text, overrides) : read_case_file(c.filename, overrides);
  }

  CaseFile read_run(const CaseFile &c, const RunDefinition &run)
  {
    auto overrides = c.overrides;
    overrides.insert(overrides.end(), run.overrides.begin(), run.overrides.end());
    CaseFile read;
    try
      {
        read = reread_case_file(c, overrides);
      }
    catch (const io::InputError &e)
      {
        // Say which run's overrides made the case invalid.
        throw io::InputError(e.file(), e.parameter(), e.reason() + " (in Run " + run.name + ")");
      }
    read.solver_name = run.solver;
    return read;
  }

  namespace
  {
    // The documentation of what `verb` reads (every verb: empty), bound into `c`.
    io::ParameterFile documentation_of(const std::string &verb, CaseFile &c)
    {
      // The Python method's spelling (continue_) names the same verb.
      const Verb *named = verb.empty() ? nullptr : find_verb(verb);
      if (!verb.empty() && !(named && named->reads_case))
        throw io::InputError("command line", "parameters " + verb, "unknown verb (" + verb_list() + ")");
      auto file = io::ParameterFile::documentation(case_file_families(), named ? named->name : "");
      bind_case_file(file, c);
      return file;
    }
  } // namespace

  std::vector<io::ParameterEntry> parameter_entries(const std::string &verb)
  {
    CaseFile c;
    return documentation_of(verb, c).entries();
  }

  CaseEntries case_entries(const std::string &name, const std::string &text, const std::vector<std::string> &overrides)
  {
    auto     file = io::ParameterFile::from_text(name, text, case_file_families(), overrides);
    CaseFile c;
    bind_case_file(file, c); // declares
    file.parse();
    CaseEntries result{file.entries(), {}};
    for (const auto &entry : result.entries)
      {
        const auto section = entry.path.substr(0, entry.path.find('/'));
        if (file.has_section(section) &&
            std::find(result.sections.begin(), result.sections.end(), section) == result.sections.end())
          result.sections.push_back(section);
      }
    return result;
  }

  void print_parameters(std::ostream &out, const std::string &verb)
  {
    CaseFile   c;
    const auto file = documentation_of(verb, c);
    out << "# vibroimpact parameters" << (verb.empty() ? "" : " read by `vibroimpact " + verb + "`")
        << ". Families of subsections are named by the user:\n"
        << "# 'subsection Body beam', 'subsection Contact tip', 'subsection Run theta_one'; <name> stands for that "
           "name.\n";
    if (verb != verb_name(VerbId::modes))
      {
        out << "# Registered solvers (Simulation/Solver; each has its own subsection):\n";
        for (const auto &solver : c.solvers)
          out << "#   " << solver->name() << " [subsection " << solver->parameter_section()
              << "]: " << solver->description() << "\n";
      }
    file.print_documentation(out);
  }
} // namespace vibroimpact::studies
