// What the MPI verbs (continue, sweep) share: every rank reads the case, rank 0 alone reports
// what fails and owns the output folder.
#pragma once

#include <mpi.h>

#include <functional>
#include <memory>
#include <string>
#include <type_traits>

namespace dealii::Utilities::MPI
{
  class MPI_InitFinalize;
}

namespace vibroimpact::io
{
  class OutputFolder;
}

namespace vibroimpact::studies
{
  struct CaseFile;
  enum class VerbId;
} // namespace vibroimpact::studies

namespace vibroimpact::app
{
  struct CommonOptions;

  // MPI for the run of one verb: initialised on construction with one thread a rank (the ranks
  // share the cores), the interrupt handlers installed again (MPI_Init resets SIGTERM to its
  // default), finalised on destruction. Kept apart so that the verbs do not parse deal.II's MPI
  // header (~8 s a source).
  class MpiRun
  {
  public:
    MpiRun(int &argc, char **&argv);
    ~MpiRun();
    MpiRun(const MpiRun &)            = delete;
    MpiRun &operator=(const MpiRun &) = delete;

    MPI_Comm     comm() const { return MPI_COMM_WORLD; }
    unsigned int n_ranks() const { return n_ranks_; }
    bool         root() const { return root_; }

  private:
    std::unique_ptr<dealii::Utilities::MPI::MPI_InitFinalize> mpi_;
    bool                                                      root_    = true;
    unsigned int                                              n_ranks_ = 1;
  };

  // What an MPI verb does before it computes: every rank reads the case file and runs
  // `prepare(case)` (read_on_every_rank), then rank 0 opens the verb's output folder
  // (open_root_output) at the destination the options and the case give. Returns 0 to go on,
  // else the exit code every rank stops with.
  int prepare_on_every_rank(const CommonOptions &options, studies::VerbId verb, MPI_Comm comm,
                            const std::function<void(const studies::CaseFile &)> &prepare, std::string &destination,
                            std::unique_ptr<io::OutputFolder> &out);

  // The same for a study whose prepare returns its setup: what a verb goes on with.
  template <typename Setup>
  struct PreparedOnEveryRank
  {
    int                               exit_code = 0; // 0: go on
    Setup                             setup;
    std::string                       destination;
    std::unique_ptr<io::OutputFolder> out; // rank 0's
  };

  template <typename Prepare, typename Setup = std::invoke_result_t<Prepare, const studies::CaseFile &>>
  PreparedOnEveryRank<Setup> prepare_on_every_rank(const CommonOptions &options, const studies::VerbId verb,
                                                   const MPI_Comm comm, Prepare &&prepare)
  {
    PreparedOnEveryRank<Setup> prepared;
    prepared.exit_code = prepare_on_every_rank(
      options, verb, comm, [&](const studies::CaseFile &c) { prepared.setup = prepare(c); }, prepared.destination,
      prepared.out);
    return prepared;
  }

  // Runs read() on every rank, which fails the same way on each: rank 0 rethrows (main reports
  // it once), the others return its exit code; 0 when read() succeeded.
  int read_on_every_rank(bool root, const std::function<void()> &read);

  // Rank 0's folder, checked and locked before computing; every rank learns whether it could be
  // made (failed) before any rank computes or waits in a collective call.
  std::unique_ptr<io::OutputFolder> open_root_output(const std::string &destination, const std::string &producer,
                                                     MPI_Comm comm, bool &failed);
} // namespace vibroimpact::app
