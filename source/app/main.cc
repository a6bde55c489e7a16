// vibroimpact: the command-line program. One verb per job, one parameter file:
//
//   vibroimpact modes      examples/pinned_beam_modes/case.prm -o output/modes
//   vibroimpact simulate   examples/two_dof_sticking/case.prm -s 'Moreau-Jean/Energy correction=false'
//   vibroimpact simulate   examples/pinned_beam_obstacle/case.prm -s 'Simulation/Solver=modal-cor'
//   vibroimpact converge   examples/pinned_beam_modes/case.prm -s 'Convergence/Refinement cycles=5'
//   vibroimpact converge   examples/bar_on_rigid_wall/case.prm
//   vibroimpact converge   examples/pinned_beam_backbone/case.prm -s 'Convergence/Study=branch'
//   vibroimpact compare    examples/pinned_beam_obstacle/case.prm
//   mpirun -np 2 vibroimpact sweep examples/pinned_beam_frequency_sweep/case.prm
//   vibroimpact parameters
//
// Exit codes: 0 success, 2 bad input (one line naming file, parameter and reason),
// 1 a numerical failure that could not be recovered, 128 + signal after SIGINT/SIGTERM
// (`simulate` then leaves its results up to that time, marked INTERRUPTED; the others nothing).
//
// This program reads the command line only; the verbs are a module (verb_module.cc) loaded
// when one runs, so that --help, --version and a mistyped command line answer without mapping
// the ~240 libraries deal.II brings (doc/performance.md, "Start-up").
#include "command_line.h"

int main(int argc, char **argv)
{
  return vibroimpact::app::run_command_line(argc, argv);
}
