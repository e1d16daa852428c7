#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"

namespace spindle::yarn {

class HadoopConfiguration;

// What hadoop.security.auth_to_local.mechanism tells Hadoop to make of the
// rules' outcome.
enum class AuthToLocalMechanism {
  // Hadoop's own reading, its default: a principal no rule maps, or a name a
  // rule leaves with '/' or '@' in it, is an error.
  hadoop,
  // MIT Kerberos' reading: such names stand, and a principal no rule maps
  // keeps its full name.
  mit,
};

// One parsed rule; defined with the parser.
struct AuthToLocalRule;

// Hadoop's hadoop.security.auth_to_local rules (KerberosName in
// hadoop-auth), by which a cluster turns a Kerberos principal into the short
// user name it owns files and applications under: "alice@EXAMPLE.COM" ->
// "alice", "rm/host@EXAMPLE.COM" -> "yarn".
//
// The rules are DEFAULT and RULE:[n:format](regex)s/pattern/replacement/g,
// each optionally ending in /L for lower case, separated by whitespace. The
// regular expressions are Java's in Hadoop and ECMAScript here: the common
// subset (classes, groups, alternation, greedy and lazy repetition, ^ $ \b
// \d \w \s) means the same; Java-only syntax (possessive quantifiers,
// lookbehind, named groups, inline flags, \Q..\E, \p{..}) is reported as a
// bad rule; and '.' matches one byte where Java matches one UTF-16 character.
//
// Parsing and mapping never throw. Rules over 64 KiB, principals over 1 KiB,
// and expressions whose repetitions expand too far or whose matching takes
// too many steps are refused with a sentence saying so, since std::regex
// would otherwise take unbounded memory, time or stack on them.
class AuthToLocalRules {
 public:
  // `default_realm` is what the DEFAULT rule strips: the realm of the
  // cluster's krb5.conf. A rule that does not parse or whose expression does
  // not compile is an error naming its number and text.
  static Result<AuthToLocalRules> parse(std::string_view rules_text, std::string default_realm,
                                        AuthToLocalMechanism mechanism = AuthToLocalMechanism::hadoop);

  // The user name of `principal` (name, name@REALM or name/host@REALM) under
  // the first rule that applies to it. A name with neither host nor realm is
  // already short and is returned as it is, as Hadoop does.
  Result<std::string> short_name(std::string_view principal) const;

 private:
  AuthToLocalRules(std::shared_ptr<const std::vector<AuthToLocalRule>> rules, std::string default_realm,
                   AuthToLocalMechanism mechanism);

  // Shared between copies: parsed rules are never changed, and std::regex
  // may be used from several threads at once when only read.
  std::shared_ptr<const std::vector<AuthToLocalRule>> rules_;
  std::string default_realm_;
  AuthToLocalMechanism mechanism_;
};

// The short name a cluster with this configuration gives `principal`: its
// hadoop.security.auth_to_local rules ("DEFAULT" when unset) read as
// hadoop.security.auth_to_local.mechanism says ("hadoop" when unset).
// `default_realm` is the realm of the krb5.conf the cluster's servers use,
// which the configuration does not name.
Result<std::string> mapped_short_name(const HadoopConfiguration& configuration, std::string_view principal,
                                      std::string_view default_realm);

}  // namespace spindle::yarn
