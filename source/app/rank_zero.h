// What the MPI verbs (continue, sweep) share: every rank reads the case, rank 0 alone reports
// what fails and owns the output folder.
#pragma once

#include <mpi.h>

#include <functional>
#include <memory>
#include <string>

namespace vibroimpact::io
{
  class OutputFolder;
}

namespace vibroimpact::app
{
  // Runs read() on every rank, which fails the same way on each: rank 0 rethrows (main reports
  // it once), the others return its exit code; 0 when read() succeeded.
  int read_on_every_rank(bool root, const std::function<void()> &read);

  // Rank 0's folder, checked and locked before computing; every rank learns whether it could be
  // made (failed) before any rank computes or waits in a collective call.
  std::unique_ptr<io::OutputFolder> open_root_output(const std::string &destination, const std::string &producer,
                                                     MPI_Comm comm, bool &failed);
} // namespace vibroimpact::app
