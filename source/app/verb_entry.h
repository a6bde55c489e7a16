// What the program hands the verb module (verb_module.cc) across dlopen: the verb chosen on the
// command line and its options. One entry point, looked up by name, with C linkage.
#pragma once

#include <vibroimpact/studies/verb_table.h>

#include "verbs.h"

#include <string>

namespace vibroimpact::app
{
  struct VerbCall
  {
    studies::VerbId      verb;          // studies/verb_table.h
    const CommonOptions *options;       // the verb's case file, output, overrides, quiet
    std::string          parameters_of; // `parameters <verb>`: the verb (empty: every parameter)
    int                 *argc;          // for the MPI verbs (MPI_Init may take arguments)
    char              ***argv;
  };
} // namespace vibroimpact::app

// Returns the verb's exit code (0, 1, 2, 128 + signal).
extern "C" int vibroimpact_run_verb(const vibroimpact::app::VerbCall *call);
