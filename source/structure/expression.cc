#include <vibroimpact/io/input_error.h>
#include <vibroimpact/structure/expression.h>

#include <deal.II/base/function_parser.h>
#include <deal.II/base/numbers.h>

#include <cmath>
#include <memory>
#include <sstream>

namespace vibroimpact::structure
{
  ParsedFunction parse_expression(const std::string &text,
                                  const std::string &file,
                                  const std::string &parameter)
  {
    // h of the finite-difference derivative, relative to the unit of x.
    auto function = std::make_shared<dealii::FunctionParser<1>>(1, 0.0, 1e-6);
    try
      {
        function->initialize("x", text, {{"pi", dealii::numbers::PI}});
        const double probe = function->value(dealii::Point<1>(0.0));
        (void)probe;
      }
    catch (const dealii::ExceptionBase &e)
      {
        std::ostringstream message;
        e.print_info(message);
        std::string reason = message.str();
        for (char &c : reason)
          if (c == '\n')
            c = ' ';
        throw io::InputError(file, parameter, "cannot parse expression '" + text + "': " + reason);
      }
    catch (const std::exception &e)
      {
        throw io::InputError(file, parameter, "cannot parse expression '" + text + "': " + e.what());
      }
    ParsedFunction parsed;
    parsed.value      = [function](double x) { return function->value(dealii::Point<1>(x)); };
    parsed.derivative = [function](double x) { return function->gradient(dealii::Point<1>(x))[0]; };
    return parsed;
  }
} // namespace vibroimpact::structure
