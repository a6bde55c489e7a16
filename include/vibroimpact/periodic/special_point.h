// The special points of a branch of periodic orbits as a typed vocabulary (AUTO's and COCO's):
// each kind with its name in branch.csv and on the plots, how it is located, and what switching
// branches at it means. Code compares kinds, never their names.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace vibroimpact::periodic
{
  enum class SpecialPoint
  {
    none,
    fold,             // the parameter turns: a multiplier at +1, F_X singular
    branch_point,     // F_X singular where the parameter does not turn: another family crosses
    period_doubling,  // a real multiplier crosses −1
    neimark_sacker,   // a complex pair of multipliers crosses the unit circle (forced responses)
    grazing,          // a contact starts or stops: a gap closes to zero, or an impact's velocity vanishes
    chatter_sticking, // a forced orbit gains or loses a sticking phase (the impact law's chatter time)
  };

  // Every kind but none, in the order branch.csv's plots list them.
  inline constexpr std::array<SpecialPoint, 6> special_point_kinds{{
    SpecialPoint::fold,    SpecialPoint::branch_point, SpecialPoint::period_doubling, SpecialPoint::neimark_sacker,
    SpecialPoint::grazing, SpecialPoint::chatter_sticking}};

  // How a kind is found between two points of a branch.
  enum class Locator
  {
    none,
    test_function, // a test function of the linearisation changes sign (false position along the branch)
    stretch_end,   // where the orbits of one contact signature end (bisection on the signature)
  };

  // What following another family from a kind means.
  enum class Switching
  {
    none,
    period_two_family, // the orbits of period 2T born there
    secondary_family,  // the other family through the point
  };

  // "fold", "branch point", "period doubling", "Neimark-Sacker", "grazing", "chatter-sticking";
  // "" for none (branch.csv's `special` column).
  std::string_view name(SpecialPoint kind);
  // The kind of a name as name() writes it (case files and tables); empty for an unknown name.
  std::optional<SpecialPoint> special_point_named(std::string_view name);
  Locator          locator(SpecialPoint kind);
  Switching        switching(SpecialPoint kind);
  // Whether a kind has a defining system that continues it as a curve in two parameters
  // (Continuation/Follow): fold, period doubling, Neimark-Sacker, grazing.
  bool followed_in_two_parameters(SpecialPoint kind);

  // The codimension-two points where a curve of special points ends or meets another curve
  // (curves.csv's `special`): a cusp of a fold curve, a fold-flip (a multiplier at +1 and one
  // at -1), a curve meeting a grazing curve (its orbit's contacts change), and the strong
  // resonances 1:1 and 1:2 that end a Neimark-Sacker curve (its pair of multipliers meets at +1 or -1).
  enum class CurveEvent
  {
    none,
    cusp,
    fold_flip,
    grazing,
    resonance_1_1,
    resonance_1_2,
  };
  // "", "cusp", "fold-flip", "grazing", "1:1 resonance", "1:2 resonance".
  std::string_view name(CurveEvent event);
} // namespace vibroimpact::periodic
