// The compiled part of the Python module (`vibroimpact._vibroimpact`; the Pythonic layer is
// python/vibroimpact/__init__.py, doc/python.md): a case read once, the library's studies run on
// it with the GIL released and Ctrl-C turned into KeyboardInterrupt, and their results handed
// over as NumPy arrays. The verbs of the command line call the same studies; nothing is written
// unless an output folder is given, and then the files the command line writes. Verbs run in
// several threads at once give their serial results (model/non_reentrant.h); a case pickles.
#include <vibroimpact/studies/verb_table.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/interrupt_scope.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/model/non_reentrant.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/comparison_study.h>
#include <vibroimpact/studies/continuation_study.h>
#include <vibroimpact/studies/convergence_study.h>
#include <vibroimpact/studies/modes_study.h>
#include <vibroimpact/studies/simulation_study.h>
#include <vibroimpact/studies/support_tables.h>
#include <vibroimpact/studies/sweep_study.h>
#include <vibroimpact/studies/continuation_verb_calls.h>
#include <vibroimpact/studies/verb_calls.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <csignal>
#include <fstream>
#include <mutex>
#include <shared_mutex>
#include <sstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace pybind11::literals;
using namespace vibroimpact;

namespace
{
  py::array_t<double> doubles(const std::vector<double> &values)
  {
    return py::array_t<double>(py::ssize_t(values.size()), values.data());
  }

  // A NumPy array of str (names, kinds): the text columns of a CSV.
  py::object strings(const std::vector<std::string> &values)
  {
    return py::module_::import("numpy").attr("array")(py::cast(values), "dtype"_a = "str");
  }

  // OpenBLAS's thread count while `work` runs: the process's default, shared with the other
  // threads' verbs (their bits depend on it), or one thread, which a sweep sets for itself
  // (studies::OneBlasThread, exclusive: it waits for the others and they for it).
  enum class BlasThreads
  {
    shared,
    set_by_work
  };

  // Runs `work` with the GIL released (and the BLAS thread count held): setting up a case and
  // writing its files run beside other Python threads too. Every wait for a library lock is
  // made here, without the GIL, so that a thread holding one can always take the GIL back.
  template <typename Work>
  auto without_gil(Work &&work, const BlasThreads blas = BlasThreads::shared) -> decltype(work())
  {
    py::gil_scoped_release              release;
    std::shared_lock<std::shared_mutex> count(model::blas_threads_mutex(), std::defer_lock);
    if (blas == BlasThreads::shared)
      count.lock();
    return work();
  }

  // Runs `work` as without_gil does, with the library's SIGINT/SIGTERM handler in place of
  // Python's: the long phases poll its flag and stop. A signal then raises KeyboardInterrupt
  // (whatever the phase returned is dropped), and Python's handlers are back either way.
  template <typename Work>
  auto interruptible(Work &&work, const BlasThreads blas = BlasThreads::shared) -> decltype(work())
  {
    std::optional<decltype(work())> result;
    int                             signal = 0;
    without_gil(
      [&] {
        io::InterruptScope scope;
        try
          {
            result.emplace(work());
          }
        catch (const io::Interrupted &)
          {}
        signal = scope.signal();
        return 0;
      },
      blas);
    if (signal != 0 || !result)
      {
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
      }
    return std::move(*result);
  }

  py::dict modes_result(const studies::ModesResult &r)
  {
    std::vector<double> omegas(r.modes.omegas.data(), r.modes.omegas.data() + r.modes.omegas.size());
    std::vector<double> mass(r.drawn.generalised_mass.data(),
                             r.drawn.generalised_mass.data() + r.drawn.generalised_mass.size());
    const auto          points = r.shape_points();
    const auto          n      = py::ssize_t(omegas.size());
    py::array_t<double> shapes({py::ssize_t(points.size()), n});
    std::vector<double> body, x;
    auto                s = shapes.mutable_unchecked<2>();
    for (std::size_t k = 0; k < points.size(); ++k)
      {
        body.push_back(double(r.model.geometry.point_body[points[k]]));
        x.push_back(r.model.geometry.point_coordinate[points[k]]);
        for (py::ssize_t j = 0; j < n; ++j)
          s(py::ssize_t(k), j) = r.drawn.drawn(Eigen::Index(points[k]), Eigen::Index(j));
      }
    py::dict d;
    d["omegas"]           = doubles(omegas);
    d["frequencies"]      = doubles(r.frequencies_hz());
    d["periods"]          = doubles(r.periods());
    d["generalised_mass"] = doubles(mass);
    d["body"]             = doubles(body);
    d["x"]                = doubles(x);
    d["shapes"]           = shapes;
    d["method"]           = r.modes.method;
    return d;
  }

  py::dict history_columns(const integrators::ResponseHistory &h)
  {
    py::dict d;
    for (const auto &name : h.columns())
      d[py::str(name)] = doubles(h.column(name));
    return d;
  }

  // The numbers `simulate` prints (studies::print_summary), by name; the warnings it prints
  // (the model's conditioning, then the run's).
  py::dict summary_of(const studies::SimulationResult &r, std::vector<std::string> warnings)
  {
    const auto &s = r.history.summary;
    py::dict    d;
    d["solver"]                 = s.solver;
    d[py::str(s.step_name)]     = s.steps;
    d["impacts"]                = s.impacts;
    d["sticking_time"]          = s.sticking_time;
    d["initial_energy"]         = s.initial_energy;
    d["final_energy"]           = s.final_energy;
    d["balance_error"]          = s.balance_error;
    d["relative_balance_error"] = s.relative_balance_error;
    d["wall_time"]              = s.wall_time;
    d["frames"]                 = r.n_frames;
    for (const auto &[name, value] : s.counters)
      d[py::str(name)] = value;
    warnings.insert(warnings.end(), s.warnings.begin(), s.warnings.end());
    d["warnings"] = warnings;
    return d;
  }

  // The columns of a CSV file a study writes (its io::CsvTable): numbers and counts as doubles,
  // text as str. What the file leaves empty (a value that is not finite, CsvWriter::format) is NaN.
  py::dict csv_columns(const io::CsvTable &table)
  {
    py::dict d;
    for (const auto &c : table.columns)
      {
        if (c.kind == io::CsvTable::Column::Kind::text)
          {
            d[py::str(c.name)] = strings(c.cells);
            continue;
          }
        auto numbers = doubles(c.numbers);
        auto n       = numbers.mutable_unchecked<1>();
        for (py::ssize_t k = 0; k < n.shape(0); ++k)
          if (!std::isfinite(n(k)))
            n(k) = std::numeric_limits<double>::quiet_NaN();
        d[py::str(c.name)] = numbers;
      }
    return d;
  }

  // A CSV file's stem ("spectra.csv" -> "spectra").
  py::str stem(const std::string &file) { return py::str(file.substr(0, file.size() - 4)); }

  // The tables `simulate` writes of a run held in memory, by stem: events, then the supports'
  // (statistics, spectra, force_pdf, support_forces, support_orbits, wear_sectors) when it has any.
  void add_run_tables(py::dict &d, const model::StructuralModel &model, const integrators::ResponseHistory &history,
                      const std::vector<studies::SupportStatistics> &statistics)
  {
    d["events"] = csv_columns(integrators::events_table(history));
    for (const auto &[file, table] : studies::support_tables(model, history, statistics))
      d[stem(file)] = csv_columns(table);
  }

  // A study's CSV files by stem ("poincare.csv" -> "poincare").
  py::dict csv_files(const std::vector<std::pair<std::string, io::CsvTable>> &tables)
  {
    py::dict d;
    for (const auto &[file, table] : tables)
      d[py::str(file.substr(0, file.size() - 4))] = csv_columns(table);
    return d;
  }

  // The sampled orbits by name (orbit_<family>_<point>): family, point, the table of their CSV
  // file and every DoF's displacement and velocity as (samples x DoFs) arrays.
  py::dict orbit_arrays(const std::vector<studies::SampledOrbit> &orbits, const model::StructuralModel &model)
  {
    py::dict d;
    for (const auto &orbit : orbits)
      {
        const auto &samples = orbit.samples;
        const auto  n       = py::ssize_t(samples.time.size()), dofs = py::ssize_t(model.n_dofs());
        py::array_t<double> u({n, dofs}), v({n, dofs});
        auto                uu = u.mutable_unchecked<2>(), vv = v.mutable_unchecked<2>();
        for (py::ssize_t k = 0; k < n; ++k)
          for (py::ssize_t j = 0; j < dofs; ++j)
            {
              uu(k, j) = samples.displacement[std::size_t(k)](j);
              vv(k, j) = samples.velocity[std::size_t(k)](j);
            }
        py::dict o;
        o["family"]       = orbit.family;
        o["point"]        = orbit.point;
        o["table"]        = csv_columns(orbit.table);
        o["displacement"] = u;
        o["velocity"]     = v;
        d[py::str(orbit.name)] = o;
      }
    return d;
  }

  // What `continue` prints: the map, the method, an orbit's unknowns, the wall time, a row per
  // family (families_table) and the printed lines.
  py::dict continuation_summary(const studies::ContinuationResult &result, const periodic::PeriodicFlowMap &flow,
                                const std::vector<std::string> &lines)
  {
    py::dict d;
    d["map"]       = flow.name();
    d["method"]    = result.method;
    d["unknowns"]  = result.unknowns;
    d["wall_time"] = result.wall_time;
    d["families"]  = csv_columns(studies::families_table(result));
    d["text"]      = lines;
    return d;
  }

  // The frequency study's rows (it writes convergence.txt only): elements, dofs and ω per row.
  py::dict modal_convergence_result(const studies::ModalConvergence &m)
  {
    std::vector<double> elements, dofs;
    const auto          n_modes = m.rows.empty() ? py::ssize_t(0) : py::ssize_t(m.rows.front().omegas.size());
    py::array_t<double> omegas({py::ssize_t(m.rows.size()), n_modes}), errors({py::ssize_t(m.rows.size()), n_modes});
    auto                o = omegas.mutable_unchecked<2>(), e = errors.mutable_unchecked<2>();
    for (std::size_t r = 0; r < m.rows.size(); ++r)
      {
        elements.push_back(double(m.rows[r].n_elements));
        dofs.push_back(double(m.rows[r].n_dofs));
        for (py::ssize_t j = 0; j < n_modes; ++j)
          {
            o(py::ssize_t(r), j) = m.rows[r].omegas.at(std::size_t(j));
            e(py::ssize_t(r), j) = m.rows[r].relative_errors.at(std::size_t(j));
          }
      }
    py::dict d;
    d["elements"]        = doubles(elements);
    d["dofs"]            = doubles(dofs);
    d["omegas"]          = omegas;
    d["relative_errors"] = errors;
    d["reference"]       = doubles(m.reference);
    return d;
  }

  // Declared entries as (path, value, default, pattern, documentation) tuples.
  py::list entry_tuples(const std::vector<io::ParameterEntry> &entries)
  {
    py::list list;
    for (const auto &e : entries)
      list.append(py::make_tuple(e.path, e.value, e.default_value, e.pattern, e.documentation));
    return list;
  }

  // The calling thread's progress sink: `callback(phase, index, count, done, total, fraction)`
  // (None: none), one stream a call (io::ProgressReport), called with the GIL from the verb's
  // own thread. The Python layer's callback never raises (it keeps what the user's callback
  // raised for after the call), so nothing unwinds through the library.
  void set_progress_callback(const py::object &callback)
  {
    if (callback.is_none())
      {
        io::set_progress_sink({});
        return;
      }
    io::set_progress_sink([callback](const io::ProgressReport &r) {
      py::gil_scoped_acquire gil;
      try
        {
          callback(r.phase, r.phase_index, r.phase_count, r.done, r.total, r.fraction);
        }
      catch (const py::error_already_set &)
        {}
    });
  }

  // The continuation and the sweep gather through MPI (one rank here): initialised on first use, as a
  // singleton, with Python's signal handlers kept, and finalised when the interpreter exits.
  // MPI_THREAD_MULTIPLE, so that verbs in several threads may each call it on MPI_COMM_SELF;
  // where the MPI library offers less, those calls take turns (mpi_turns).
  bool mpi_multiple = false;

  void initialise_mpi()
  {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (initialised)
      return;
    struct sigaction python_int, python_term;
    sigaction(SIGINT, nullptr, &python_int);
    sigaction(SIGTERM, nullptr, &python_term);
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
    mpi_multiple = provided >= MPI_THREAD_MULTIPLE;
    sigaction(SIGINT, &python_int, nullptr);
    sigaction(SIGTERM, &python_term, nullptr);
    py::module_::import("atexit").attr("register")(py::cpp_function([] {
      int finalised = 0;
      MPI_Finalized(&finalised);
      if (!finalised)
        MPI_Finalize();
    }));
  }

  // Held by a verb that calls MPI while the library gives less than MPI_THREAD_MULTIPLE.
  std::unique_lock<std::mutex> mpi_turns()
  {
    static std::mutex turns;
    return mpi_multiple ? std::unique_lock<std::mutex>() : std::unique_lock<std::mutex>(turns);
  }

  // The text of a case file as it is now (what a pickled case carries).
  std::string file_text(const std::string &path)
  {
    std::ifstream      in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  // A case file read once (with its overrides), checked as the command line checks it.
  class Case
  {
  public:
    explicit Case(studies::CaseFile c)
      : case_(std::make_shared<studies::CaseFile>(std::move(c)))
    {}

    static Case read(const std::string &path, const std::vector<std::string> &overrides)
    {
      Case c(studies::read_case_file(path, overrides));
      c.text_ = file_text(path); // read after the check: the file exists and is a case
      return c;
    }
    static Case from_string(const std::string &text, const std::vector<std::string> &overrides,
                            const std::string &name)
    {
      return Case(studies::read_case_text(name, text, overrides));
    }

    // Pickling: the file's name, the text read and the overrides. The copy is read from that
    // text under the same name, so its messages name the file and a relative Mesh file is
    // looked up next to it, whatever the file holds by then.
    py::tuple state() const
    {
      return py::make_tuple(case_->filename, case_->text ? *case_->text : text_, case_->overrides);
    }
    static Case from_state(const py::tuple &state)
    {
      if (state.size() != 3)
        throw std::runtime_error("vibroimpact.Case: not a pickled case");
      const auto name = state[0].cast<std::string>(), text = state[1].cast<std::string>();
      Case       c(studies::read_case_text(name, text, state[2].cast<std::vector<std::string>>()));
      return c;
    }

    const std::string &name() const { return case_->description.name; }

    // Every entry's (path, value, default, pattern, documentation), and the top-level sections
    // the case gives: read again from the text the case was made of, with its overrides.
    py::tuple entries() const
    {
      const auto read = without_gil([&] {
        return studies::case_entries(case_->filename, case_->text ? *case_->text : text_, case_->overrides);
      });
      return py::make_tuple(entry_tuples(read.entries), read.sections);
    }
    const std::string &filename() const { return case_->filename; }

    // A copy with more overrides (the later win), read again from the same text.
    Case with_overrides(const std::vector<std::string> &overrides) const
    {
      auto all = case_->overrides;
      all.insert(all.end(), overrides.begin(), overrides.end());
      Case copy(without_gil([&] { return studies::reread_case_file(*case_, all); }));
      copy.text_ = text_;
      return copy;
    }

    py::dict modes(const std::optional<std::string> &output) const
    {
      const auto result = interruptible([&] { return studies::modes_verb(call_options(output)); });
      auto       d      = modes_result(result);
      d["warnings"]     = result.warnings;
      return d;
    }

    py::dict simulate(const std::optional<std::string> &solver, const std::optional<std::string> &output) const
    {
      std::unique_ptr<studies::CaseFile> other;
      if (solver && *solver != case_->solver_name)
        other = std::make_unique<studies::CaseFile>(with_solver(*solver));
      std::vector<std::string> warnings;
      auto                     options = call_options(output);
      options.read_case                = [&]() -> const studies::CaseFile & { return other ? *other : *case_; };
      options.keep_rows                = true;
      const auto result                = interruptible([&] {
        return studies::simulate_verb(options, [&](const studies::SimulationSetup &setup) { warnings = setup.warnings; });
      });
      py::dict d;
      d["history"] = history_columns(result.history);
      add_run_tables(d, result.model, result.history, result.statistics);
      d["summary"] = summary_of(result, warnings);
      return d;
    }

    py::dict continue_(const std::optional<std::string> &output) const
    {
      initialise_mpi();
      std::optional<studies::ContinuationSetup> setup;
      const auto                                result = interruptible([&] {
        setup.emplace(studies::prepare_continuation(*case_));
        const auto out   = output ? studies::open_verb_folder(*output, studies::VerbId::continuation) : nullptr;
        const auto turns = mpi_turns();
        return studies::continuation_verb(*setup, MPI_COMM_SELF, out.get(), call_options(output));
      });
      auto &[cc, model, flow, curves] = *setup;
      if (!result.any_orbit())
        throw std::runtime_error(studies::no_orbit_message(result, cc));
      struct Tables
      {
        io::CsvTable                       branch;
        std::optional<io::CsvTable>        at_frequencies, curves;
        std::vector<studies::SampledOrbit> orbits;
        std::vector<std::string>           summary, warnings;
      };
      const auto tables = without_gil([&, &cc = cc, &model = model, &flow = flow] {
        return Tables{studies::branch_table(result, cc, *flow, *model),
                      cc.settings.report_frequencies.empty()
                        ? std::nullopt
                        : std::optional<io::CsvTable>(studies::at_frequencies_table(result, cc, *flow, *model)),
                      cc.follow.empty() ? std::nullopt
                                        : std::optional<io::CsvTable>(studies::curves_table(result.curves)),
                      studies::sampled_orbits(result, cc, *flow, *model),
                      studies::continuation_summary(result, *model, 1),
                      studies::continuation_warnings(result, cc)};
      });
      py::dict d;
      d["branch"]   = csv_columns(tables.branch);
      if (tables.at_frequencies)
        d["at_frequencies"] = csv_columns(*tables.at_frequencies);
      if (tables.curves)
        d["curves"] = csv_columns(*tables.curves);
      d["orbits"]   = orbit_arrays(tables.orbits, *model);
      d["summary"]  = continuation_summary(result, *flow, tables.summary);
      d["warnings"] = tables.warnings;
      return d;
    }

    py::dict compare(const std::optional<std::string> &output) const
    {
      const auto result = interruptible([&] { return studies::compare_verb(call_options(output)); });
      py::dict   runs, impacts, support;
      std::vector<std::string> warnings;
      for (const auto &run : result.runs)
        {
          py::dict r;
          r["solver"]  = run.solver_name;
          r["history"] = history_columns(run.history);
          add_run_tables(r, run.model, run.history, run.statistics);
          r["warnings"] = run.history.summary.warnings;
          for (const auto &warning : run.history.summary.warnings)
            warnings.push_back("run " + run.name + ": " + warning); // as the command line says it
          runs[py::str(run.name)] = r;
        }
      for (const auto &[file, table] : studies::comparison_tables(result))
        if (file.rfind("impacts_", 0) == 0) // impacts_<run>.csv
          impacts[py::str(file.substr(8, file.size() - 12))] = csv_columns(table);
        else
          support = csv_columns(table);
      py::dict d;
      d["runs"]               = runs;
      d["reference"]          = result.runs[result.reference].name;
      d["impacts"]            = impacts;
      d["support_statistics"] = support;
      d["text"]               = studies::comparison_text(result);
      d["warnings"]           = warnings;
      return d;
    }

    py::dict converge(const std::optional<std::string> &output) const
    {
      const auto result = interruptible([&] { return studies::converge_verb(call_options(output)); });
      py::dict   d;
      // convergence.csv's columns (response and branch studies); a branch study's branches.csv too.
      d["convergence"] = result.response ? csv_columns(result.response->table())
                         : result.branch ? csv_columns(result.branch->table())
                                         : py::dict();
      d["branches"]    = result.branch ? py::object(csv_columns(result.branch->branches_table())) : py::none();
      d["frequencies"] = result.frequencies ? py::object(modal_convergence_result(*result.frequencies)) : py::none();
      d["text"]        = result.table;
      d["warnings"]    = result.warnings;
      return d;
    }

    py::dict sweep(const std::optional<std::string> &output) const
    {
      initialise_mpi();
      // One BLAS thread, as the command line: its numbers to the last bit (it waits for the
      // verbs of other threads to finish, they for it).
      const auto result = interruptible(
        [&] {
          const studies::OneBlasThread one_blas_thread;
          const auto                   setup = studies::prepare_sweep(*case_);
          const auto out   = output ? studies::open_verb_folder(*output, studies::VerbId::sweep) : nullptr;
          const auto turns = mpi_turns();
          return studies::sweep_verb(setup, MPI_COMM_SELF, out.get(), true);
        },
        BlasThreads::set_by_work);
      py::dict d    = csv_files(studies::sweep_tables(result));
      d["text"]     = result.summary;
      d["warnings"] = std::vector<std::string>{}; // a sweep warns of nothing (yet)
      return d;
    }

  private:
    // The library call's options for this case: no bars drawn, nothing kept of an interrupted
    // run, the folder `output` or none.
    studies::VerbCallOptions call_options(const std::optional<std::string> &output) const
    {
      studies::VerbCallOptions options;
      options.read_case   = [this]() -> const studies::CaseFile & { return *case_; };
      options.destination = [output](const studies::CaseFile &) { return output.value_or(""); };
      return options;
    }

    // The case with `solver` for Simulation/Solver; an unknown one is the argument's error.
    studies::CaseFile with_solver(const std::string &solver) const
    {
      const auto names = integrators::SolverRegistry::names();
      if (std::find(names.begin(), names.end(), solver) == names.end())
        {
          const auto closest = io::closest_name(solver, names);
          std::string list;
          for (const auto &name : names)
            list += (list.empty() ? "" : ", ") + name;
          throw io::InputError("simulate()", "solver='" + solver + "'",
                               "no such solver" + (closest.empty() ? "" : " (did you mean '" + closest + "'?)") +
                                 "; the registered solvers: " + list);
        }
      auto overrides = case_->overrides;
      overrides.push_back("Simulation/Solver=" + solver);
      return without_gil([&] { return studies::reread_case_file(*case_, overrides); });
    }

    std::shared_ptr<const studies::CaseFile> case_;
    std::string                              text_; // a file's text as read (for pickling)
  };

  void bind_errors(py::module_ &m)
  {
    static py::exception<io::InputError> input_error(m, "InputError", PyExc_ValueError);
    static py::exception<std::runtime_error> numerical_error(m, "NumericalError", PyExc_RuntimeError);
    py::register_exception_translator([](std::exception_ptr p) {
      try
        {
          if (p)
            std::rethrow_exception(p);
        }
      catch (const io::InputError &e)
        {
          input_error(e.what());
        }
      catch (const io::Interrupted &)
        {
          PyErr_SetNone(PyExc_KeyboardInterrupt);
        }
      catch (const io::WriteError &e)
        {
          PyErr_SetString(PyExc_OSError, e.what());
        }
      catch (const std::runtime_error &e)
        {
          numerical_error(e.what());
        }
    });
  }
} // namespace

PYBIND11_MODULE(_vibroimpact, m)
{
  m.doc() = "vibroimpact: finite elements for beams, rods and supports that hit obstacles (compiled part; "
            "the documented interface is the package vibroimpact, doc/python.md)";
  m.attr("__version__") = VIBROIMPACT_VERSION; // the program's `vibroimpact --version`
  bind_errors(m);
  // The documented methods are the Python layer's (python/vibroimpact/__init__.py); these say
  // what they return to it, with pybind11's signatures.
  py::class_<Case>(m, "Case", "A case file read and checked once (see vibroimpact.Case).")
    .def(py::init(&Case::read), py::arg("path"), py::arg("overrides") = std::vector<std::string>{},
         "Reads the case file at `path` with 'Section/Entry=value' overrides. Raises InputError.")
    .def(py::pickle([](const Case &c) { return c.state(); }, [](const py::tuple &t) { return Case::from_state(t); }))
    .def_static("from_string", &Case::from_string, py::arg("text"), py::arg("overrides") = std::vector<std::string>{},
                py::arg("name") = "<string>",
                "Reads a case from the text of a .prm (or JSON) file; `name` stands for the file in messages. "
                "Raises InputError.")
    .def_property_readonly("name", &Case::name, "Model/Name.")
    .def_property_readonly("filename", &Case::filename, "The case file's name (<string> for a text).")
    .def("entries", &Case::entries,
         "Returns ([(path, value, default, pattern, documentation), ...], [top-level sections the case gives]).")
    .def("with_overrides", &Case::with_overrides, py::arg("overrides"),
         "A copy with more 'Section/Entry=value' overrides (the later win). Raises InputError.")
    .def("modes", &Case::modes, py::arg("output") = py::none(), "`vibroimpact modes`: returns a dict of arrays.")
    .def("simulate", &Case::simulate, py::arg("solver") = py::none(), py::arg("output") = py::none(),
         "`vibroimpact simulate`: returns a dict of tables and the summary.")
    .def("continue_", &Case::continue_, py::arg("output") = py::none(),
         "`vibroimpact continue`: returns a dict of the branch, the orbits, the summary and the warnings.")
    .def("compare", &Case::compare, py::arg("output") = py::none(), "`vibroimpact compare`: returns a dict.")
    .def("converge", &Case::converge, py::arg("output") = py::none(), "`vibroimpact converge`: returns a dict.")
    .def("sweep", &Case::sweep, py::arg("output") = py::none(), "`vibroimpact sweep` (serial): returns a dict.");
  m.def("solvers", [] { return integrators::SolverRegistry::names(); }, "The registered solvers (Simulation/Solver).");
  m.def(
    "verbs",
    [] {
      py::list verbs;
      for (const auto &v : studies::verb_table())
        verbs.append(py::dict("name"_a = v.name, "method"_a = v.python_method, "result"_a = v.python_result,
                              "help"_a = v.help, "reads_case"_a = v.reads_case));
      return verbs;
    },
    "The library's verb table (studies/verb_table.h) in its order: a dict a verb with its command-line name, "
    "its Python method (of Case; `parameters`: the module's function), the class it returns, its help line and "
    "whether it reads a case.");
  m.def("parameters", [](const std::string &verb) { return entry_tuples(studies::parameter_entries(verb)); },
        py::arg("verb") = "",
        "The entries `vibroimpact parameters [verb]` prints: [(path, default, default, pattern, documentation)]. "
        "Raises InputError for an unknown verb.");
  m.def("_closest_name", &io::closest_name, py::arg("name"), py::arg("candidates"),
        "The candidate closest to name (the library's did-you-mean), or '' when none is close.");
  m.def("_set_progress", &set_progress_callback, py::arg("callback"),
        "Sets this thread's progress callback(phase, index, count, done, total, fraction); None: none.");
}
