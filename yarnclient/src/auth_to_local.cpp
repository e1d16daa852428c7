#include "spindle/yarn/auth_to_local.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <limits>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "spindle/core/text.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::yarn {

struct AuthToLocalRule {
  // Counted from 1 in the order written, and the rule as written, for messages.
  std::size_t number = 0;
  std::string text;
  bool is_default = false;
  long long components = 0;
  std::string format;
  // The (regex) the formatted name must match whole for the rule to apply.
  std::optional<std::regex> match;
  // The s/pattern/replacement/ applied to it then.
  std::optional<std::regex> pattern;
  std::string replacement;
  bool every_match = false;
  bool lower_case = false;
};

namespace {

constexpr std::string_view rules_key = "hadoop.security.auth_to_local";
constexpr std::string_view mechanism_key = "hadoop.security.auth_to_local.mechanism";
constexpr std::string_view rule_shape = "DEFAULT or RULE:[n:format](regex)s/pattern/replacement/g";

// Real rule sets are a few kilobytes and real principals under a hundred
// bytes; the limits keep what std::regex is given far from where it fails.
constexpr std::size_t max_rules_bytes = 64 * 1024;
constexpr std::size_t max_principal_bytes = 1024;
// A rule's format and substitution can lengthen a name: room for that, but
// not for a format that repeats $1 a thousand times.
constexpr std::size_t max_name_bytes = 2048;
// In units of expansion_estimate: a real rule's expression is a few dozen.
constexpr std::uint64_t max_expression_size = 1024;
constexpr std::uint64_t max_all_expressions_size = 32 * 1024;
// Steps of std::regex's matcher (reads, moves and copies of its position)
// one mapping may take: real rules take a few thousand, and a search such as
// s/(.*)@(.*)// on a principal of the longest kind some five million; all
// of it is about a tenth of a second in an optimized build.
constexpr std::uint64_t max_match_steps = 16'000'000;
// The matcher recurses once or more per character matched. Two megabytes
// hold a thousand characters even in unoptimized sanitizer builds and leave
// most of a default 8 MiB thread stack to the caller.
constexpr std::uintptr_t max_match_stack_bytes = 2 * 1024 * 1024;

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Java's \s, which separates Hadoop's rules.
bool is_java_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// Configuration text or a principal as one line of a message: control
// characters escaped, long text cut.
std::string printable(std::string_view text, std::size_t limit = 120) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string shown;
  for (const char c : text.substr(0, limit)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      shown += "\\x";
      shown += hex[byte >> 4];
      shown += hex[byte & 0xf];
    } else {
      shown += c;
    }
  }
  if (text.size() > limit) shown += "...";
  return shown;
}

std::string in_quotes(std::string_view text) {
  return "\"" + printable(text) + "\"";
}

// What a rule that failed to parse looks like: up to the next whitespace,
// where the next rule usually starts.
std::string_view rule_excerpt(std::string_view from_rule_start) {
  const auto end = std::find_if(from_rule_start.begin(), from_rule_start.end(), is_java_space);
  return from_rule_start.substr(0, static_cast<std::size_t>(end - from_rule_start.begin()));
}

Error rule_error(std::size_t number, std::string_view rule_text, std::string_view problem, std::string_view remedy) {
  return make_error("rule " + std::to_string(number) + " of " + std::string(rules_key) + ", " + in_quotes(rule_text) +
                    ", " + std::string(problem) + "; " + std::string(remedy));
}

Error rule_error(const AuthToLocalRule& rule, std::string_view problem, std::string_view remedy) {
  return rule_error(rule.number, rule.text, problem, remedy);
}

std::uint64_t saturating_sum(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) {
  return a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a ? std::numeric_limits<std::uint64_t>::max()
                                                                     : a * b;
}

// Where the bracket expression opening at `open` ends, as std::regex's
// ECMAScript scanner reads it (a ']' always closes it, "[:alpha:]" and the
// like are single items); the pattern's size when it does not end.
std::size_t end_of_bracket(std::string_view pattern, std::size_t open) {
  std::size_t at = open + 1;
  if (at < pattern.size() && pattern[at] == '^') ++at;
  while (at < pattern.size()) {
    const char c = pattern[at];
    if (c == '\\') {
      at += 2;
    } else if (c == '[' && at + 1 < pattern.size() &&
               (pattern[at + 1] == ':' || pattern[at + 1] == '.' || pattern[at + 1] == '=')) {
      const char closer[] = {pattern[at + 1], ']', '\0'};
      const auto close = pattern.find(closer, at + 2);
      if (close == std::string_view::npos) return pattern.size();
      at = close + 2;
    } else if (c == ']') {
      return at;
    } else {
      ++at;
    }
  }
  return pattern.size();
}

// An upper bound, within a small factor, on the states std::regex builds for
// `pattern`, known before compiling it. libstdc++ copies a repeated piece once
// per repetition, so "((a{50}){50}){50}" alone would be millions of states;
// and it compiles and matches by recursion, one level per term, group and
// alternative, so the bound also bounds the stack those take.
std::uint64_t expansion_estimate(std::string_view pattern) {
  struct Group {
    std::uint64_t size = 0;
    // The size of the last item, which a following quantifier repeats.
    std::uint64_t last = 0;
  };
  std::vector<Group> groups(1);
  const auto add_item = [&](std::uint64_t size) {
    groups.back().size = saturating_sum(groups.back().size, size);
    groups.back().last = size;
  };
  const auto close_group = [&] {
    const std::uint64_t size = saturating_sum(groups.back().size, 2);
    groups.pop_back();
    add_item(size);
  };
  const auto repeat_last = [&](std::uint64_t copies) {
    Group& group = groups.back();
    const std::uint64_t repeated = saturating_sum(saturating_product(copies, saturating_sum(group.last, 2)), 2);
    group.size = saturating_sum(group.size - group.last, repeated);
    group.last = repeated;
  };
  const auto read_number = [&](std::size_t& at) {
    std::uint64_t number = 0;
    while (at < pattern.size() && is_digit(pattern[at])) {
      number = saturating_sum(saturating_product(number, 10), static_cast<std::uint64_t>(pattern[at] - '0'));
      ++at;
    }
    return number;
  };
  for (std::size_t at = 0; at < pattern.size(); ++at) {
    const char c = pattern[at];
    bool quantifier = false;
    if (c == '\\') {
      ++at;
      add_item(1);
    } else if (c == '[') {
      at = end_of_bracket(pattern, at);
      add_item(1);
    } else if (c == '(') {
      if (at + 2 < pattern.size() && pattern[at + 1] == '?' &&
          (pattern[at + 2] == ':' || pattern[at + 2] == '=' || pattern[at + 2] == '!')) {
        at += 2;
      }
      groups.emplace_back();
    } else if (c == ')') {
      if (groups.size() > 1) {
        close_group();
      } else {
        add_item(1);
      }
    } else if (c == '|') {
      groups.back().size = saturating_sum(groups.back().size, 2);
      groups.back().last = 0;
    } else if (c == '*' || c == '?') {
      repeat_last(1);
      quantifier = true;
    } else if (c == '+') {
      repeat_last(2);
      quantifier = true;
    } else if (c == '{') {
      std::size_t at_number = at + 1;
      const std::uint64_t least = read_number(at_number);
      std::uint64_t copies = least;
      if (at_number < pattern.size() && pattern[at_number] == ',') {
        ++at_number;
        const bool bounded = at_number < pattern.size() && is_digit(pattern[at_number]);
        const std::uint64_t most = read_number(at_number);
        copies = bounded ? std::max(least, most) : saturating_sum(least, 1);
      }
      if (at_number < pattern.size() && pattern[at_number] == '}') {
        repeat_last(copies);
        at = at_number;
        quantifier = true;
      } else {
        add_item(1);
      }
    } else {
      add_item(1);
    }
    // A lazy quantifier's '?' is part of the quantifier.
    if (quantifier && at + 1 < pattern.size() && pattern[at + 1] == '?') ++at;
  }
  while (groups.size() > 1) close_group();
  return groups.back().size;
}

bool is_ascii_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// The escapes by a letter that mean the same in Java and in ECMAScript. Java
// has more (\A, \z, \Q, \p{..}, \h, and \v for any vertical space), which
// ECMAScript rejects or, in libstdc++, reads as the letter itself.
bool is_shared_letter_escape(char c) {
  return std::string_view("dDwWsSbBfnrtcxu").find(c) != std::string_view::npos;
}

// What in `pattern` std::regex would read otherwise than Java, which Hadoop
// matches with: Java-only syntax it rejects with a puzzling message or,
// worse, accepts with another meaning ("a*+" as (a*)+, "[a[b]]" as a class
// followed by ']'), and stacked quantifiers ("a**"), which Java refuses and
// libstdc++ nests into exponential backtracking. The clause saying so.
std::optional<std::string> java_mismatch(std::string_view pattern) {
  const auto java_only = [](std::string_view what) {
    return "uses " + std::string(what) + ", which Java's regular expressions have and Spindle's (ECMAScript) do not";
  };
  enum class Last { other, quantifier, lazy_quantifier } last = Last::other;
  for (std::size_t at = 0; at < pattern.size(); ++at) {
    const char c = pattern[at];
    bool quantifier = false;
    if (c == '\\') {
      if (at + 1 < pattern.size() && is_ascii_letter(pattern[at + 1]) && !is_shared_letter_escape(pattern[at + 1])) {
        return java_only("the escape \\" + std::string(1, pattern[at + 1]));
      }
      ++at;
    } else if (c == '[') {
      const std::size_t end = end_of_bracket(pattern, at);
      const std::string_view inside = pattern.substr(at + 1, end - at - 1);
      for (std::size_t in = 0; in < inside.size(); ++in) {
        if (inside[in] == '\\') {
          if (in + 1 < inside.size() && is_ascii_letter(inside[in + 1]) && !is_shared_letter_escape(inside[in + 1])) {
            return java_only("the escape \\" + std::string(1, inside[in + 1]));
          }
          ++in;
        } else if (inside[in] == '[') {
          return java_only(
              "a '[' inside a [...] class (Java reads it as a class within the class; write \\[ for the "
              "character)");
        } else if (inside.substr(in).starts_with("&&")) {
          return java_only("a class intersection (&&)");
        }
      }
      at = end;
    } else if (c == '(' && at + 2 < pattern.size() && pattern[at + 1] == '?' && pattern[at + 2] != ':' &&
               pattern[at + 2] != '=' && pattern[at + 2] != '!') {
      return java_only("the group \"(?" + std::string(1, pattern[at + 2]) +
                       "\" (lookbehind, a named group or inline flags)");
    } else if (c == '*' || c == '+' || c == '?') {
      quantifier = true;
    } else if (c == '{') {
      const auto close = pattern.find('}', at);
      quantifier = close != std::string_view::npos;
      if (quantifier) at = close;
    }
    if (!quantifier) {
      last = Last::other;
    } else if (last == Last::other) {
      last = Last::quantifier;
    } else if (last == Last::quantifier && c == '?') {
      // The '?' that makes a quantifier lazy, which both read alike.
      last = Last::lazy_quantifier;
    } else if (last == Last::quantifier && c == '+') {
      return java_only("a possessive quantifier (a '+' after a quantifier)");
    } else {
      return std::string("puts a quantifier right after another, which Java refuses");
    }
  }
  return std::nullopt;
}

// Whether a back-reference ("\\12") or a count ("{2,5}") has more digits than
// std::regex reads safely: libstdc++ adds them up in a long without a check
// for overflow.
bool has_overlong_number(std::string_view pattern) {
  constexpr std::size_t most_digits = 6;
  const auto digits_at = [&](std::size_t at) {
    std::size_t end = at;
    while (end < pattern.size() && is_digit(pattern[end])) ++end;
    return end - at;
  };
  for (std::size_t at = 0; at < pattern.size(); ++at) {
    if (pattern[at] == '\\') {
      if (digits_at(at + 1) > most_digits) return true;
      ++at;
    } else if (pattern[at] == '{') {
      const std::size_t least = digits_at(at + 1);
      if (least > most_digits) return true;
      const std::size_t comma = at + 1 + least;
      if (comma < pattern.size() && pattern[comma] == ',' && digits_at(comma + 1) > most_digits) return true;
    }
  }
  return false;
}

// The parts of a principal, as Hadoop splits "name/host@REALM".
struct PrincipalParts {
  std::string_view name;
  std::optional<std::string_view> host;
  std::optional<std::string_view> realm;
};

// Hadoop's form: one or two components of neither '/' nor '@', then an
// optional realm of neither.
std::optional<PrincipalParts> split_principal(std::string_view principal) {
  PrincipalParts parts;
  auto separator = principal.find_first_of("/@");
  parts.name = principal.substr(0, separator);
  if (parts.name.empty()) return std::nullopt;
  if (separator == std::string_view::npos) return parts;
  if (principal[separator] == '/') {
    const auto host_end = principal.find_first_of("/@", separator + 1);
    parts.host = principal.substr(separator + 1, host_end - separator - 1);
    if (parts.host->empty()) return std::nullopt;
    if (host_end == std::string_view::npos) return parts;
    if (principal[host_end] == '/') return std::nullopt;
    separator = host_end;
  }
  parts.realm = principal.substr(separator + 1);
  if (parts.realm->empty() || parts.realm->find_first_of("/@") != std::string_view::npos) return std::nullopt;
  return parts;
}

// Why a mapping gave up on std::regex.
struct MatchBudgetSpent {
  enum class Limit { steps, stack } limit;
};

// What one mapping may spend in std::regex. Its backtracking matcher takes
// exponential time on expressions such as "(a*)*b" and recurses per
// character, and has no limit of its own; every step it takes moves, reads
// or copies its position, which is where this is charged.
class MatchBudget {
 public:
  MatchBudget() : stack_origin_(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0))) {}

  void spend() {
    if (--steps_left_ == 0) throw MatchBudgetSpent{MatchBudgetSpent::Limit::steps};
    const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    const auto depth = here < stack_origin_ ? stack_origin_ - here : here - stack_origin_;
    if (depth > max_match_stack_bytes) throw MatchBudgetSpent{MatchBudgetSpent::Limit::stack};
  }

 private:
  std::uint64_t steps_left_ = max_match_steps;
  std::uintptr_t stack_origin_;
};

// A position in the text std::regex matches that charges each use to a
// budget. The exception it throws passes through std::regex, which catches
// nothing; nothing of std::regex that is noexcept (sub_match::length) is
// used on it.
class BudgetedIterator {
 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  BudgetedIterator() = default;
  BudgetedIterator(const char* position, MatchBudget& budget) : position_(position), budget_(&budget) {}
  BudgetedIterator(const BudgetedIterator& other) : position_(other.position_), budget_(other.budget_) { spend(); }
  BudgetedIterator& operator=(const BudgetedIterator& other) {
    position_ = other.position_;
    budget_ = other.budget_;
    spend();
    return *this;
  }
  ~BudgetedIterator() = default;

  reference operator*() const {
    spend();
    return *position_;
  }
  pointer operator->() const {
    spend();
    return position_;
  }
  BudgetedIterator& operator++() {
    spend();
    ++position_;
    return *this;
  }
  BudgetedIterator operator++(int) {
    BudgetedIterator before = *this;
    ++*this;
    return before;
  }
  BudgetedIterator& operator--() {
    spend();
    --position_;
    return *this;
  }
  BudgetedIterator operator--(int) {
    BudgetedIterator before = *this;
    --*this;
    return before;
  }
  friend bool operator==(const BudgetedIterator& a, const BudgetedIterator& b) {
    a.spend();
    return a.position_ == b.position_;
  }

  // Free of charge, for reading a finished match.
  const char* position() const { return position_; }

 private:
  void spend() const {
    if (budget_ != nullptr) budget_->spend();
  }

  const char* position_ = nullptr;
  MatchBudget* budget_ = nullptr;
};

using BudgetedMatch = std::match_results<BudgetedIterator>;

Error budget_error(const AuthToLocalRule& rule, std::string_view principal, const MatchBudgetSpent& spent) {
  const std::string problem = spent.limit == MatchBudgetSpent::Limit::steps
                                  ? "has a regular expression that takes too many steps to match on " +
                                        printable(principal) + " (it backtracks too much)"
                                  : "has a regular expression that recurses too deeply to match on " +
                                        printable(principal) + " (the name is long or the expression nests deeply)";
  return rule_error(rule, problem, "simplify the expression, avoiding repetitions nested in repetitions");
}

// Compiles one of a rule's expressions, first making sure std::regex can
// hold it, and adds its size to `all_sizes`.
Result<std::regex> compile(std::size_t number, std::string_view rule_text, std::string_view expression,
                           std::string_view role, std::uint64_t& all_sizes) {
  if (const auto mismatch = java_mismatch(expression)) {
    return rule_error(number, rule_text,
                      "has a " + std::string(role) + " " + in_quotes(expression) + " that " + *mismatch,
                      "rewrite it in the syntax both share");
  }
  if (has_overlong_number(expression)) {
    return rule_error(number, rule_text,
                      "has a " + std::string(role) + " " + in_quotes(expression) +
                          " with a back-reference or {m,n} count of more than six digits",
                      "use a smaller number");
  }
  const std::uint64_t size = expansion_estimate(expression);
  if (size > max_expression_size) {
    return rule_error(number, rule_text,
                      "has a " + std::string(role) + " " + in_quotes(expression) +
                          " whose repetitions and nesting expand too far for Spindle to match it safely",
                      "simplify it, with smaller counts in {m,n} and fewer nested groups");
  }
  all_sizes += size;
  if (all_sizes > max_all_expressions_size) {
    return rule_error(number, rule_text,
                      "brings the regular expressions of the rules so far to more than Spindle matches safely",
                      "use fewer or simpler rules");
  }
  try {
    return std::regex(expression.begin(), expression.end(), std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    std::string reason = e.what();
    while (!reason.empty() && (reason.back() == '.' || reason.back() == ' ')) reason.pop_back();
    const bool has_group = role == "regex" && expression.find('(') != std::string_view::npos;
    return rule_error(number, rule_text,
                      "has a " + std::string(role) + " " + in_quotes(expression) +
                          " that is not a valid regular expression (" + reason + ")",
                      has_group ? "Hadoop ends a rule's (regex) at its first ')', so it cannot hold a group; fix it"
                                : "fix it; Spindle reads it as ECMAScript, which matches Java's syntax but for "
                                  "possessive quantifiers, lookbehind, named groups and inline flags");
  } catch (const std::exception&) {
    return rule_error(number, rule_text,
                      "has a " + std::string(role) + " " + in_quotes(expression) + " too large to compile",
                      "simplify it");
  }
}

// Hadoop's parser, KerberosName.parseRules: the rules follow each other with
// optional whitespace between them, each DEFAULT or RULE:[n:format] with an
// optional (regex), an optional s/pattern/replacement/ with an optional g,
// then an optional '/' and an optional L.
Result<std::vector<AuthToLocalRule>> parse_rules(std::string_view text) {
  // Hadoop first trims the value as Java's String.trim does: every byte up
  // to ' ' counts as space at the ends.
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  std::vector<AuthToLocalRule> rules;
  std::uint64_t all_sizes = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && is_java_space(text[at])) ++at;
    const std::size_t start = at;
    const std::size_t number = rules.size() + 1;
    const auto fail = [&](std::string_view problem, std::string_view remedy) {
      return rule_error(number, rule_excerpt(text.substr(start)), problem, remedy);
    };
    const auto rest = [&] { return text.substr(at); };
    AuthToLocalRule rule;
    rule.number = number;
    std::string_view match_expression;
    std::string_view pattern_expression;
    bool has_match = false;
    bool has_pattern = false;
    if (rest().starts_with("DEFAULT")) {
      rule.is_default = true;
      at += 7;
    } else if (rest().starts_with("RULE:[")) {
      at += 6;
      const std::size_t digits = at;
      while (at < text.size() && is_digit(text[at])) {
        rule.components = std::min<long long>(rule.components * 10 + (text[at] - '0'), 1LL << 40);
        ++at;
      }
      if (at == text.size() || text[at] != ':') {
        return fail("does not begin its [n:format] with a number of components and a ':'",
                    "write it as RULE:[1:$1@$0] for name@REALM or RULE:[2:$1/$2@$0] for name/host@REALM");
      }
      if (at == digits) {
        return fail("gives no number of components before the ':' of its [n:format]",
                    "write 1 for principals like name@REALM or 2 for name/host@REALM, as in RULE:[1:$1@$0]");
      }
      if (rule.components > std::numeric_limits<int>::max()) {
        return fail("gives a number of components too large for Hadoop to read",
                    "write 1 for principals like name@REALM or 2 for name/host@REALM");
      }
      const auto format_end = text.find(']', at + 1);
      if (format_end == std::string_view::npos) {
        return fail("has no ']' closing its [n:format]", "close it, as in RULE:[1:$1@$0]");
      }
      rule.format = text.substr(at + 1, format_end - at - 1);
      at = format_end + 1;
      if (at < text.size() && text[at] == '(') {
        const auto match_end = text.find(')', at + 1);
        if (match_end == std::string_view::npos) {
          return fail("has no ')' closing its (regex)", "close it, as in RULE:[1:$1@$0](.*@EXAMPLE\\.COM)");
        }
        match_expression = text.substr(at + 1, match_end - at - 1);
        has_match = true;
        at = match_end + 1;
      }
      if (rest().starts_with("s/")) {
        const auto pattern_end = text.find('/', at + 2);
        const auto replacement_end =
            pattern_end == std::string_view::npos ? pattern_end : text.find('/', pattern_end + 1);
        if (replacement_end == std::string_view::npos) {
          return fail("has a substitution without the '/' that ends it",
                      "write it as s/pattern/replacement/ (neither part can hold a '/'), as in s/@.*//");
        }
        pattern_expression = text.substr(at + 2, pattern_end - at - 2);
        rule.replacement = text.substr(pattern_end + 1, replacement_end - pattern_end - 1);
        has_pattern = true;
        at = replacement_end + 1;
        if (at < text.size() && text[at] == 'g') {
          rule.every_match = true;
          ++at;
        }
      }
    } else {
      return fail("is neither DEFAULT nor RULE:[n:format]", "write each rule as " + std::string(rule_shape));
    }
    if (at < text.size() && text[at] == '/') ++at;
    if (at < text.size() && text[at] == 'L') {
      // Hadoop accepts DEFAULT/L but does not lower-case what DEFAULT gives.
      rule.lower_case = !rule.is_default;
      ++at;
    }
    rule.text = text.substr(start, at - start);
    if (has_match) {
      auto compiled = compile(number, rule.text, match_expression, "regex", all_sizes);
      if (!compiled) return compiled.error();
      rule.match = std::move(*compiled);
    }
    if (has_pattern) {
      auto compiled = compile(number, rule.text, pattern_expression, "substitution pattern", all_sizes);
      if (!compiled) return compiled.error();
      rule.pattern = std::move(*compiled);
    }
    rules.push_back(std::move(rule));
  }
  return rules;
}

// The rule's format with $0 (the realm) and $1, $2 (the components) filled
// in, as Hadoop's replaceParameters does; the problem when it cannot be.
Result<std::string> fill_format(const AuthToLocalRule& rule, const std::vector<std::string_view>& parameters) {
  std::string name;
  const std::string_view format = rule.format;
  for (std::size_t at = 0; at < format.size();) {
    if (format[at] != '$') {
      name += format[at++];
      continue;
    }
    const std::size_t digits = ++at;
    std::uint64_t index = 0;
    while (at < format.size() && is_digit(format[at])) {
      index = saturating_sum(saturating_product(index, 10), static_cast<std::uint64_t>(format[at] - '0'));
      ++at;
    }
    if (at == digits) {
      return rule_error(rule, "has a '$' in its format that is not followed by a number",
                        "write $0 for the realm, $1 for the first component and $2 for the second");
    }
    if (index >= parameters.size()) {
      return rule_error(rule,
                        "names $" + std::string(format.substr(digits, at - digits)) +
                            " in its format, but its principals have only $0 (the realm) to $" +
                            std::to_string(parameters.size() - 1),
                        "fix the format");
    }
    name += parameters[index];
    if (name.size() > max_name_bytes) {
      return rule_error(rule,
                        "makes a name longer than the " + std::to_string(max_name_bytes) + " bytes Spindle handles",
                        "shorten its format");
    }
  }
  return name;
}

// Appends the replacement for one match as Java's Matcher.appendReplacement
// reads it: "\x" is x, and "$n" is group n with as many digits as still name
// a group; the problem when it cannot be.
std::optional<std::string> append_replacement(std::string& out, std::string_view replacement,
                                              const BudgetedMatch& found) {
  const std::size_t groups = found.size() - 1;
  for (std::size_t at = 0; at < replacement.size();) {
    const char c = replacement[at];
    if (c == '\\') {
      if (at + 1 == replacement.size()) return "ends its replacement with a lone '\\'";
      out += replacement[at + 1];
      at += 2;
      continue;
    }
    if (c != '$') {
      out += c;
      ++at;
      continue;
    }
    ++at;
    if (at == replacement.size()) return "ends its replacement with a '$' that names no group";
    if (replacement[at] == '{') return "names a group by name in its replacement, which Spindle cannot do";
    if (!is_digit(replacement[at])) {
      return "has a '$' in its replacement that is not followed by a group number (write \\$ for a dollar sign)";
    }
    std::size_t group = static_cast<std::size_t>(replacement[at++] - '0');
    if (group > groups) {
      return "uses group $" + std::to_string(group) + " in its replacement, but its pattern has " +
             (groups == 0 ? std::string("no groups") : "only " + std::to_string(groups));
    }
    while (at < replacement.size() && is_digit(replacement[at])) {
      const std::size_t longer = group * 10 + static_cast<std::size_t>(replacement[at] - '0');
      if (longer > groups) break;
      group = longer;
      ++at;
    }
    if (found[group].matched) out.append(found[group].first.position(), found[group].second.position());
  }
  return std::nullopt;
}

// Hadoop's replaceFirst or replaceAll of the rule's s/pattern/replacement/,
// with Java's way of going on after an empty match: the next search starts
// one character further.
Result<std::string> substitute(const AuthToLocalRule& rule, const std::string& name, MatchBudget& budget) {
  const char* const begin = name.data();
  const char* const end = begin + name.size();
  std::string out;
  std::size_t copied_up_to = 0;
  std::size_t search_from = 0;
  BudgetedMatch found;
  while (search_from <= name.size()) {
    const auto flags = search_from > 0 ? std::regex_constants::match_prev_avail : std::regex_constants::match_default;
    if (!std::regex_search(BudgetedIterator(begin + search_from, budget), BudgetedIterator(end, budget), found,
                           *rule.pattern, flags)) {
      break;
    }
    const auto match_begin = static_cast<std::size_t>(found[0].first.position() - begin);
    const auto match_end = static_cast<std::size_t>(found[0].second.position() - begin);
    out.append(name, copied_up_to, match_begin - copied_up_to);
    if (auto problem = append_replacement(out, rule.replacement, found)) {
      return rule_error(rule, *problem, "fix the replacement");
    }
    if (out.size() > max_name_bytes) {
      return rule_error(rule,
                        "makes a name longer than the " + std::to_string(max_name_bytes) + " bytes Spindle handles",
                        "fix its substitution");
    }
    copied_up_to = match_end;
    if (!rule.every_match) break;
    search_from = match_end == match_begin ? match_end + 1 : match_end;
  }
  out.append(name, copied_up_to);
  if (out.size() > max_name_bytes) {
    return rule_error(rule, "makes a name longer than the " + std::to_string(max_name_bytes) + " bytes Spindle handles",
                      "fix its substitution");
  }
  return out;
}

// What the rule makes of a principal: nothing when it does not apply.
Result<std::optional<std::string>> apply(const AuthToLocalRule& rule, const PrincipalParts& parts,
                                         const std::vector<std::string_view>& parameters,
                                         std::string_view default_realm, std::string_view principal,
                                         MatchBudget& budget) {
  if (rule.is_default) {
    if (parts.realm && *parts.realm == default_realm) return std::optional<std::string>(std::string(parts.name));
    return std::optional<std::string>();
  }
  if (static_cast<long long>(parameters.size()) - 1 != rule.components) return std::optional<std::string>();
  auto name = fill_format(rule, parameters);
  if (!name) return name.error();
  try {
    if (rule.match && !std::regex_match(BudgetedIterator(name->data(), budget),
                                        BudgetedIterator(name->data() + name->size(), budget), *rule.match)) {
      return std::optional<std::string>();
    }
    if (!rule.pattern) return std::optional<std::string>(std::move(*name));
    auto substituted = substitute(rule, *name, budget);
    if (!substituted) return substituted.error();
    return std::optional<std::string>(std::move(*substituted));
  } catch (const MatchBudgetSpent& spent) {
    return budget_error(rule, principal, spent);
  } catch (const std::exception& e) {
    return rule_error(rule, "could not be matched on " + printable(principal) + " (" + std::string(e.what()) + ")",
                      "simplify its expressions");
  }
}

// A rule that would map the principal's realm, for the message saying that
// none does.
std::string suggested_rule(const PrincipalParts& parts) {
  const std::string components = parts.host ? "2" : "1";
  if (!parts.realm) return "RULE:[" + components + ":$1]";
  std::string realm;
  for (const char c : *parts.realm) {
    if (c == ')') {
      // Hadoop's (regex) ends at the first ')'.
      realm += "\\x29";
      continue;
    }
    if (std::string_view(".^$|?*+([]{}\\").find(c) != std::string_view::npos) realm += '\\';
    realm += c;
  }
  return "RULE:[" + components + ":$1@$0](.*@" + realm + ")s/@.*//";
}

}  // namespace

AuthToLocalRules::AuthToLocalRules(std::shared_ptr<const std::vector<AuthToLocalRule>> rules, std::string default_realm,
                                   AuthToLocalMechanism mechanism)
    : rules_(std::move(rules)), default_realm_(std::move(default_realm)), mechanism_(mechanism) {}

Result<AuthToLocalRules> AuthToLocalRules::parse(std::string_view rules_text, std::string default_realm,
                                                 AuthToLocalMechanism mechanism) {
  if (rules_text.size() > max_rules_bytes) {
    return make_error(std::string(rules_key) + " is " + std::to_string(rules_text.size()) +
                      " bytes long, more than the " + std::to_string(max_rules_bytes) +
                      " bytes of rules Spindle reads; shorten it, for example with one rule per realm");
  }
  auto rules = parse_rules(rules_text);
  if (!rules) return rules.error();
  return AuthToLocalRules(std::make_shared<const std::vector<AuthToLocalRule>>(std::move(*rules)),
                          std::move(default_realm), mechanism);
}

Result<std::string> AuthToLocalRules::short_name(std::string_view principal) const {
  if (principal.empty()) {
    return make_error(
        "the Kerberos principal to map to a user name is empty; check where it came from (klist shows "
        "the principal of your ticket)");
  }
  if (principal.size() > max_principal_bytes) {
    return make_error("the Kerberos principal " + printable(principal, 60) + " is " + std::to_string(principal.size()) +
                      " bytes long, more than the " + std::to_string(max_principal_bytes) +
                      " bytes Spindle maps to a user name; check where it came from");
  }
  const auto parts = split_principal(principal);
  if (!parts) {
    // Hadoop leaves a name without a realm that is not of the usual form as
    // it is, which only MIT's reading lets stand.
    if (mechanism_ == AuthToLocalMechanism::mit && principal.find('@') == std::string_view::npos) {
      return std::string(principal);
    }
    return make_error(in_quotes(principal) +
                      " is not a Kerberos principal of the form name@REALM or name/host@REALM; check where it came "
                      "from (klist shows the principal of your ticket)");
  }
  if (!parts->host && !parts->realm) return std::string(parts->name);

  std::vector<std::string_view> parameters{parts->realm.value_or(""), parts->name};
  if (parts->host) parameters.push_back(*parts->host);
  MatchBudget budget;
  for (const auto& rule : *rules_) {
    auto mapped = apply(rule, *parts, parameters, default_realm_, principal, budget);
    if (!mapped) return mapped.error();
    if (!*mapped) continue;
    std::string name = std::move(**mapped);
    if (mechanism_ == AuthToLocalMechanism::hadoop && name.find_first_of("/@") != std::string::npos) {
      return rule_error(rule,
                        "maps " + printable(principal) + " to " + in_quotes(name) +
                            ", which still holds a '/' or '@' and so is no user name",
                        "make its format or substitution drop them, as s/@.*// drops the realm");
    }
    if (name.empty()) {
      return rule_error(rule, "maps " + printable(principal) + " to an empty name",
                        "make the rule leave the user's name");
    }
    return rule.lower_case ? to_lower(name) : name;
  }
  if (mechanism_ == AuthToLocalMechanism::mit) return std::string(principal);
  return make_error("no rule of " + std::string(rules_key) + " maps the Kerberos principal " + printable(principal) +
                    " to a user name; add one to " + std::string(rules_key) + " in core-site.xml, such as " +
                    suggested_rule(*parts));
}

Result<std::string> mapped_short_name(const HadoopConfiguration& configuration, std::string_view principal,
                                      std::string_view default_realm) {
  const std::string mechanism_name = configuration.get_or(mechanism_key, "hadoop");
  AuthToLocalMechanism mechanism = AuthToLocalMechanism::hadoop;
  if (iequals(mechanism_name, "mit")) {
    mechanism = AuthToLocalMechanism::mit;
  } else if (!iequals(mechanism_name, "hadoop")) {
    return make_error(std::string(mechanism_key) + " is " + in_quotes(mechanism_name) +
                      ", which Hadoop does not know; set it to hadoop or mit, or remove it");
  }
  auto rules =
      AuthToLocalRules::parse(configuration.get_or(rules_key, "DEFAULT"), std::string(default_realm), mechanism);
  if (!rules) return rules.error();
  return rules->short_name(principal);
}

}  // namespace spindle::yarn
