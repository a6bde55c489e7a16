// Rank 0's reporting and output folder for the MPI verbs (see the header).
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/write_error.h>

#include <deal.II/base/mpi.h>

#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/verb_table.h>

#include "rank_zero.h"
#include "verbs.h"

#include <iostream>

namespace vibroimpact::app
{
  MpiRun::MpiRun(int &argc, char **&argv)
    : mpi_(std::make_unique<dealii::Utilities::MPI::MPI_InitFinalize>(argc, argv, 1))
    , root_(dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    , n_ranks_(dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD))
  {
    io::install_interrupt_handlers();
  }

  MpiRun::~MpiRun() = default;

  int read_on_every_rank(const bool root, const std::function<void()> &read)
  {
    try
      {
        read();
        return io::exit_success;
      }
    catch (const io::InputError &)
      {
        if (root)
          throw;
        return io::exit_bad_input;
      }
    catch (const std::exception &)
      {
        if (root)
          throw;
        return io::exit_numerical_failure;
      }
  }

  std::unique_ptr<io::OutputFolder> open_root_output(const std::string &destination, const std::string &producer,
                                                     const MPI_Comm comm, bool &failed)
  {
    const bool                        root = dealii::Utilities::MPI::this_mpi_process(comm) == 0;
    std::string                       error;
    std::unique_ptr<io::OutputFolder> out;
    if (root)
      try
        {
          out = std::make_unique<io::OutputFolder>(destination, producer);
        }
      catch (const io::InputError &e)
        {
          error = e.what();
        }
    failed = dealii::Utilities::MPI::max(error.empty() ? 0u : 1u, comm) > 0;
    if (failed && root)
      std::cerr << "vibroimpact: error: " << error << "\n";
    return out;
  }

  int prepare_on_every_rank(const CommonOptions &options, const studies::VerbId verb, const MPI_Comm comm,
                            const std::function<void(const studies::CaseFile &)> &prepare, std::string &destination,
                            std::unique_ptr<io::OutputFolder> &out)
  {
    const bool root = dealii::Utilities::MPI::this_mpi_process(comm) == 0;
    if (const int code = read_on_every_rank(root,
                                            [&] {
                                              const auto c = studies::read_case_file(options.case_file, options.overrides);
                                              prepare(c);
                                              destination = output_directory(options, c.description);
                                            });
        code != io::exit_success)
      return code;
    bool failed = false;
    out         = open_root_output(destination, studies::verb_name(verb), comm, failed);
    return failed ? io::exit_bad_input : io::exit_success;
  }
} // namespace vibroimpact::app
