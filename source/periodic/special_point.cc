// The special points' vocabulary (special_point.h): names, locators and switching per kind.
#include <vibroimpact/periodic/special_point.h>

namespace vibroimpact::periodic
{
  std::string_view name(const SpecialPoint kind)
  {
    switch (kind)
      {
        case SpecialPoint::none:
          return "";
        case SpecialPoint::fold:
          return "fold";
        case SpecialPoint::branch_point:
          return "branch point";
        case SpecialPoint::period_doubling:
          return "period doubling";
        case SpecialPoint::neimark_sacker:
          return "Neimark-Sacker";
        case SpecialPoint::grazing:
          return "grazing";
        case SpecialPoint::chatter_sticking:
          return "chatter-sticking";
      }
    return "";
  }

  std::optional<SpecialPoint> special_point_named(const std::string_view text)
  {
    for (const SpecialPoint kind : special_point_kinds)
      if (name(kind) == text)
        return kind;
    return std::nullopt;
  }

  Locator locator(const SpecialPoint kind)
  {
    switch (kind)
      {
        case SpecialPoint::fold:
        case SpecialPoint::branch_point:
        case SpecialPoint::period_doubling:
        case SpecialPoint::neimark_sacker:
          return Locator::test_function;
        case SpecialPoint::grazing:
        case SpecialPoint::chatter_sticking:
          return Locator::stretch_end;
        case SpecialPoint::none:
          break;
      }
    return Locator::none;
  }

  Switching switching(const SpecialPoint kind)
  {
    switch (kind)
      {
        case SpecialPoint::period_doubling:
          return Switching::period_two_family;
        case SpecialPoint::branch_point:
          return Switching::secondary_family;
        default:
          return Switching::none;
      }
  }

  bool followed_in_two_parameters(const SpecialPoint kind)
  {
    return kind == SpecialPoint::fold || kind == SpecialPoint::period_doubling ||
           kind == SpecialPoint::neimark_sacker || kind == SpecialPoint::grazing;
  }

  std::string_view name(const CurveEvent event)
  {
    switch (event)
      {
        case CurveEvent::none:
          return "";
        case CurveEvent::cusp:
          return "cusp";
        case CurveEvent::fold_flip:
          return "fold-flip";
        case CurveEvent::grazing:
          return "grazing";
        case CurveEvent::resonance_1_1:
          return "1:1 resonance";
        case CurveEvent::resonance_1_2:
          return "1:2 resonance";
      }
    return "";
  }
} // namespace vibroimpact::periodic
