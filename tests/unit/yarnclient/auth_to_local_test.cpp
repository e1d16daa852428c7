#include "spindle/yarn/auth_to_local.h"
#include "spindle/yarn/cluster_identity.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::yarn {
namespace {

// The rules of the local secure cluster the integration tests run on
// (tests/yarn-cluster), services first.
constexpr std::string_view cluster_rules =
    "RULE:[2:$1/$2@$0]([nd]n/.*@EXAMPLE.COM)s/.*/hdfs/\n"
    "RULE:[2:$1/$2@$0]([rn]m/.*@EXAMPLE.COM)s/.*/yarn/\n"
    "RULE:[1:$1@$0](.*@EXAMPLE.COM)s/@.*//\n"
    "DEFAULT";

AuthToLocalRules rules(std::string_view text, AuthToLocalMechanism mechanism = AuthToLocalMechanism::hadoop) {
  auto parsed = AuthToLocalRules::parse(text, "EXAMPLE.COM", mechanism);
  EXPECT_TRUE(parsed.ok()) << parsed.error().message;
  if (!parsed) return *AuthToLocalRules::parse("", "EXAMPLE.COM", mechanism);
  return std::move(parsed).value();
}

std::string mapped(std::string_view text, std::string_view principal,
                   AuthToLocalMechanism mechanism = AuthToLocalMechanism::hadoop) {
  auto name = rules(text, mechanism).short_name(principal);
  EXPECT_TRUE(name.ok()) << name.error().message;
  return name ? *name : "";
}

std::string mapping_error(std::string_view text, std::string_view principal,
                          AuthToLocalMechanism mechanism = AuthToLocalMechanism::hadoop) {
  auto name = rules(text, mechanism).short_name(principal);
  EXPECT_FALSE(name.ok()) << "mapped to " << *name;
  return name ? "" : name.error().message;
}

std::string parse_error(std::string_view text) {
  auto parsed = AuthToLocalRules::parse(text, "EXAMPLE.COM");
  EXPECT_FALSE(parsed.ok()) << text;
  return parsed ? "" : parsed.error().message;
}

TEST(AuthToLocal, DefaultMapsAUserOfTheDefaultRealmToItsName) {
  EXPECT_EQ(mapped("DEFAULT", "alice@EXAMPLE.COM"), "alice");
}

TEST(AuthToLocal, DefaultMapsAHostPrincipalOfTheDefaultRealmToItsFirstComponent) {
  EXPECT_EQ(mapped("DEFAULT", "nn/host.example.com@EXAMPLE.COM"), "nn");
}

TEST(AuthToLocal, DefaultMapsNoOtherRealm) {
  const auto message = mapping_error("DEFAULT", "alice@OTHER.REALM");
  EXPECT_NE(message.find("alice@OTHER.REALM"), std::string::npos) << message;
}

TEST(AuthToLocal, APrincipalOfAnotherRealmMapsThroughItsRule) {
  constexpr std::string_view text = "RULE:[1:$1@$0](.*@OTHER\\.REALM)s/@.*//\nDEFAULT";
  EXPECT_EQ(mapped(text, "bob@OTHER.REALM"), "bob");
  EXPECT_EQ(mapped(text, "alice@EXAMPLE.COM"), "alice");
  // The escaped dot is a dot, not any character.
  EXPECT_FALSE(rules(text).short_name("bob@OTHERXREALM").ok());
}

TEST(AuthToLocal, AServicePrincipalMapsToItsServiceUser) {
  EXPECT_EQ(mapped("RULE:[2:$1](rm)s/^.*$/yarn/", "rm/host@ANY.REALM"), "yarn");
  EXPECT_EQ(mapped(cluster_rules, "nn/localhost@EXAMPLE.COM"), "hdfs");
  EXPECT_EQ(mapped(cluster_rules, "dn/localhost@EXAMPLE.COM"), "hdfs");
  EXPECT_EQ(mapped(cluster_rules, "rm/localhost@EXAMPLE.COM"), "yarn");
  EXPECT_EQ(mapped(cluster_rules, "nm/localhost@EXAMPLE.COM"), "yarn");
  EXPECT_EQ(mapped(cluster_rules, "HTTP/localhost@EXAMPLE.COM"), "HTTP");
  EXPECT_EQ(mapped(cluster_rules, "root@EXAMPLE.COM"), "root");
}

TEST(AuthToLocal, ARuleAppliesOnlyToPrincipalsWithItsNumberOfComponents) {
  constexpr std::string_view text = "RULE:[2:$1](rm)s/.*/yarn/ RULE:[1:$1]";
  EXPECT_EQ(mapped(text, "rm@EXAMPLE.COM"), "rm");
  EXPECT_EQ(mapped(text, "rm/host@EXAMPLE.COM"), "yarn");
}

TEST(AuthToLocal, TheLFlagLowersTheCase) {
  EXPECT_EQ(mapped("RULE:[1:$1]/L", "Alice@CORP.COM"), "alice");
  EXPECT_EQ(mapped("RULE:[1:$1@$0](.*@CORP\\.COM)s/@.*///L", "Alice@CORP.COM"), "alice");
  EXPECT_EQ(mapped("RULE:[1:$1@$0](.*@CORP\\.COM)s/@.*//L", "Alice@CORP.COM"), "alice");
  EXPECT_EQ(mapped("RULE:[1:$1]", "Alice@CORP.COM"), "Alice");
}

TEST(AuthToLocal, DefaultIgnoresTheLFlagAsHadoopDoes) {
  EXPECT_EQ(mapped("DEFAULT/L", "Alice@EXAMPLE.COM"), "Alice");
}

TEST(AuthToLocal, TheGFlagReplacesEveryMatchAndItsAbsenceOnlyTheFirst) {
  EXPECT_EQ(mapped("RULE:[1:$1]s/\\./_/g", "first.middle.last@EXAMPLE.COM"), "first_middle_last");
  EXPECT_EQ(mapped("RULE:[1:$1]s/\\./_/", "first.middle.last@EXAMPLE.COM"), "first_middle.last");
  EXPECT_EQ(mapped("RULE:[1:$1]s/\\./_/g/L", "First.Last@EXAMPLE.COM"), "first_last");
}

TEST(AuthToLocal, AnEmptyMatchMovesTheNextSearchOnByOneCharacterAsInJava) {
  // "abc".replaceAll("b*", "-") in Java.
  EXPECT_EQ(mapped("RULE:[1:$1]s/b*/-/g", "abc@EXAMPLE.COM"), "-a--c-");
}

TEST(AuthToLocal, ReplacementsReadGroupsAndEscapesAsJavaDoes) {
  EXPECT_EQ(mapped("RULE:[1:$1]s/^(.*)_(.*)$/$2$1/", "svc_team@EXAMPLE.COM"), "teamsvc");
  // $10 with two groups is group 1 and a 0; a group that took no part adds nothing.
  EXPECT_EQ(mapped("RULE:[1:$1]s/(a)(b)?/[$2$1$10]/g", "abac@EXAMPLE.COM"), "[baa0][aa0]c");
  EXPECT_EQ(mapped("RULE:[1:$1]s/x/\\$/", "axb@EXAMPLE.COM"), "a$b");
}

TEST(AuthToLocal, TheFirstRuleThatMatchesWins) {
  constexpr std::string_view text =
      "RULE:[1:$1@$0](admin@.*)s/.*/root/\n"
      "RULE:[1:$1@$0](.*@EXAMPLE\\.COM)s/@.*//\n"
      "RULE:[1:$1]s/.*/never/";
  EXPECT_EQ(mapped(text, "admin@EXAMPLE.COM"), "root");
  EXPECT_EQ(mapped(text, "alice@EXAMPLE.COM"), "alice");
  EXPECT_EQ(mapped(text, "alice@ELSEWHERE"), "never");
}

TEST(AuthToLocal, RulesNeedNoWhitespaceBetweenThemAndMaySpanLines) {
  EXPECT_EQ(mapped("RULE:[1:$1@$0](x@.*)s/.*/ex/DEFAULT", "alice@EXAMPLE.COM"), "alice");
  EXPECT_EQ(mapped("\n  RULE:[1:$1@$0](x@.*)s/.*/ex/\r\n\tDEFAULT  \n", "x@EXAMPLE.COM"), "ex");
}

TEST(AuthToLocal, NoMatchingRuleIsASentenceNamingThePrincipalAndTheKey) {
  const auto message = mapping_error(cluster_rules, "carol@PARTNER.ORG");
  EXPECT_NE(message.find("carol@PARTNER.ORG"), std::string::npos) << message;
  EXPECT_NE(message.find("hadoop.security.auth_to_local"), std::string::npos) << message;
  EXPECT_NE(message.find("add"), std::string::npos) << message;
  // The rule it suggests maps the principal.
  EXPECT_NE(message.find("RULE:[1:$1@$0](.*@PARTNER\\.ORG)s/@.*//"), std::string::npos) << message;
  EXPECT_EQ(mapped("RULE:[1:$1@$0](.*@PARTNER\\.ORG)s/@.*//", "carol@PARTNER.ORG"), "carol");
  EXPECT_EQ(mapping_error("", "alice@EXAMPLE.COM").find("no rule"), 0u);
}

TEST(AuthToLocal, AnUnterminatedBracketIsABadRuleNamedByNumber) {
  const auto message = parse_error("DEFAULT\nRULE:[1:$1@$0");
  EXPECT_NE(message.find("rule 2 "), std::string::npos) << message;
  EXPECT_NE(message.find("\"RULE:[1:$1@$0\""), std::string::npos) << message;
  EXPECT_NE(message.find("']'"), std::string::npos) << message;
  EXPECT_NE(parse_error("RULE:[1:$1](.*@X").find("')'"), std::string::npos);
  EXPECT_NE(parse_error("RULE:[1:$1]s/a/b").find("'/'"), std::string::npos);
  EXPECT_NE(parse_error("RULE:[:$1]").find("number of components"), std::string::npos);
  EXPECT_NE(parse_error("RULE:[99999999999:$1]").find("too large"), std::string::npos);
}

TEST(AuthToLocal, ABadRegexIsABadRuleNamedByNumber) {
  const auto message = parse_error("DEFAULT RULE:[1:$1] RULE:[1:$1@$0](a[b)");
  EXPECT_NE(message.find("rule 3 "), std::string::npos) << message;
  EXPECT_NE(message.find("\"a[b\""), std::string::npos) << message;
  EXPECT_NE(message.find("not a valid regular expression"), std::string::npos) << message;
  EXPECT_NE(parse_error("RULE:[1:$1]s/(a/b/").find("\"(a\""), std::string::npos);
  // Hadoop's (regex) ends at the first ')', so a group inside it breaks it.
  EXPECT_NE(parse_error("RULE:[1:$1](a(b))").find("first ')'"), std::string::npos);
}

TEST(AuthToLocal, AnUnknownTokenIsABadRuleNamedByNumber) {
  const auto message = parse_error("DEFAULT\nRULE:[1:$1]\nMAP alice");
  EXPECT_NE(message.find("rule 3 "), std::string::npos) << message;
  EXPECT_NE(message.find("\"MAP\""), std::string::npos) << message;
  EXPECT_NE(message.find("RULE:[n:format]"), std::string::npos) << message;
  // Rules are case-sensitive in Hadoop, and text after a rule starts the next one.
  EXPECT_NE(parse_error("default").find("rule 1 "), std::string::npos);
  EXPECT_NE(parse_error("DEFAULT/Lx").find("rule 2 "), std::string::npos);
}

TEST(AuthToLocal, ExpressionsJavaWouldReadOtherwiseAreRefusedRatherThanMisread) {
  for (const char* expression :
       {"a*+", "\\A.*", "[a&&b]", "[[:alpha:]]", "(?<name>a)", "(?i)a", "\\p{L}", "\\Qa\\E", ".**", "a{2}*"}) {
    const auto message = parse_error("RULE:[1:$1]s/" + std::string(expression) + "/x/");
    EXPECT_NE(message.find("Java"), std::string::npos) << message;
    EXPECT_NE(message.find("rule 1 "), std::string::npos) << message;
  }
  // What both read alike stays.
  EXPECT_EQ(mapped("RULE:[1:$1]s/^(\\w+?)\\d*$/$1/", "build42@EXAMPLE.COM"), "build");
  EXPECT_EQ(mapped("RULE:[1:$1]s/[^a-z]//g", "a-b_c@EXAMPLE.COM"), "abc");
}

TEST(AuthToLocal, AFormatOrReplacementThatCannotBeFilledIsAnErrorWhenTheRuleApplies) {
  // Hadoop finds these only when a principal the rule applies to comes.
  constexpr std::string_view bad_format = "RULE:[1:$1]\nRULE:[2:$3]";
  EXPECT_EQ(mapped(bad_format, "alice@EXAMPLE.COM"), "alice");
  auto message = mapping_error(bad_format, "nn/host@EXAMPLE.COM");
  EXPECT_NE(message.find("rule 2 "), std::string::npos) << message;
  EXPECT_NE(message.find("$3"), std::string::npos) << message;
  EXPECT_NE(mapping_error("RULE:[1:$]", "alice@EXAMPLE.COM").find("'$'"), std::string::npos);
  message = mapping_error("RULE:[1:$1]s/a/$2/", "alice@EXAMPLE.COM");
  EXPECT_NE(message.find("$2"), std::string::npos) << message;
  EXPECT_NE(mapping_error("RULE:[1:$1]s/a/$x/", "alice@EXAMPLE.COM").find("\\$"), std::string::npos);
}

TEST(AuthToLocal, ANameStillHoldingASlashOrAtIsAnErrorUnderTheHadoopMechanism) {
  auto message = mapping_error("RULE:[2:$1/$2]", "nn/host@EXAMPLE.COM");
  EXPECT_NE(message.find("rule 1 "), std::string::npos) << message;
  EXPECT_NE(message.find("\"nn/host\""), std::string::npos) << message;
  // Hadoop stops there instead of trying the next rule.
  message = mapping_error("RULE:[1:$1@$0] DEFAULT", "alice@EXAMPLE.COM");
  EXPECT_NE(message.find("\"alice@EXAMPLE.COM\""), std::string::npos) << message;
}

TEST(AuthToLocal, TheMitMechanismKeepsNonSimpleNamesAndUnmappedPrincipals) {
  constexpr auto mit = AuthToLocalMechanism::mit;
  EXPECT_EQ(mapped("RULE:[2:$1/$2]", "nn/host@EXAMPLE.COM", mit), "nn/host");
  EXPECT_EQ(mapped("DEFAULT", "alice@OTHER.REALM", mit), "alice@OTHER.REALM");
  EXPECT_EQ(mapped("DEFAULT", "alice@EXAMPLE.COM", mit), "alice");
}

TEST(AuthToLocal, ANameWithoutRealmOrHostIsAlreadyShort) {
  EXPECT_EQ(mapped("RULE:[1:$1]s/.*/other/", "alice"), "alice");
  // Without a realm, $0 is empty and DEFAULT does not apply.
  EXPECT_EQ(mapped("RULE:[2:$1@$0]s/@$/-local/", "nn/host"), "nn-local");
  EXPECT_FALSE(rules("DEFAULT").short_name("nn/host").ok());
}

TEST(AuthToLocal, MalformedPrincipalsAreExplained) {
  for (const char* principal : {"a@b@c", "@EXAMPLE.COM", "a/@EXAMPLE.COM", "a/b/c@EXAMPLE.COM", "a@", "a/b/c"}) {
    const auto message = mapping_error("DEFAULT", principal);
    EXPECT_NE(message.find("name/host@REALM"), std::string::npos) << message;
  }
  EXPECT_NE(mapping_error("DEFAULT", "").find("empty"), std::string::npos);
  // Hadoop leaves a name with slashes but no realm as it is; only MIT's reading lets that stand.
  EXPECT_EQ(mapped("DEFAULT", "a/b/c", AuthToLocalMechanism::mit), "a/b/c");
}

TEST(AuthToLocal, AnEmptyNameIsAnError) {
  const auto message = mapping_error("RULE:[1:$1]s/.*//", "alice@EXAMPLE.COM");
  EXPECT_NE(message.find("empty name"), std::string::npos) << message;
}

TEST(AuthToLocal, OverLongRulesAndPrincipalsAreRefusedWithASentence) {
  std::string long_rules;
  while (long_rules.size() <= 64 * 1024) long_rules += "DEFAULT\n";
  const auto message = parse_error(long_rules);
  EXPECT_NE(message.find("hadoop.security.auth_to_local is"), std::string::npos) << message;
  EXPECT_NE(message.find("shorten"), std::string::npos) << message;

  const std::string long_principal = std::string(1100, 'a') + "@EXAMPLE.COM";
  const auto principal_message = mapping_error("DEFAULT", long_principal);
  EXPECT_NE(principal_message.find("1112 bytes"), std::string::npos) << principal_message;
  EXPECT_LT(principal_message.size(), 400u) << principal_message;
}

TEST(AuthToLocal, ThePrincipalOfTheLongestKindMapsThroughCommonRules) {
  const std::string name(1024 - std::string_view("@EXAMPLE.COM").size(), 'a');
  EXPECT_EQ(mapped(cluster_rules, name + "@EXAMPLE.COM"), name);
  EXPECT_EQ(mapped("RULE:[1:$1@$0]s/(.*)@(.*)/$1/", name + "@EXAMPLE.COM"), name);
}

TEST(AuthToLocal, ExpressionsThatExpandTooFarAreRefused) {
  // libstdc++ reads long numbers into a long without a check for overflow.
  EXPECT_NE(parse_error("RULE:[1:$1]s/(a)\\12345678/x/").find("six digits"), std::string::npos);
  EXPECT_NE(parse_error("RULE:[1:$1](a{1,99999999999999999999})").find("six digits"), std::string::npos);
  auto message = parse_error("RULE:[1:$1]s/((a{20}){20}){20}/x/");
  EXPECT_NE(message.find("expand too far"), std::string::npos) << message;
  EXPECT_NE(message.find("rule 1 "), std::string::npos) << message;
  // Each alone is fine; together they are too many.
  std::string many;
  for (int i = 0; i < 100; ++i) many += "RULE:[1:$1](a{300}) ";
  message = parse_error(many);
  EXPECT_NE(message.find("fewer or simpler rules"), std::string::npos) << message;
}

TEST(AuthToLocal, ABacktrackingExpressionStopsWithASentence) {
  const auto started = std::chrono::steady_clock::now();
  const auto message = mapping_error("RULE:[1:$1](.*)s/(a|aa)+$/x/", std::string(60, 'a') + "b@EXAMPLE.COM");
  EXPECT_NE(message.find("too many steps"), std::string::npos) << message;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

TEST(AuthToLocal, ADeeplyRecursingMatchStopsWithASentence) {
  const auto message =
      mapping_error("RULE:[1:$1]s/((((((((((((((((((((a))))))))))))))))))))*/x/", std::string(1000, 'a') + "@R");
  EXPECT_NE(message.find("recurses too deeply"), std::string::npos) << message;
}

TEST(AuthToLocal, MappedShortNameReadsTheConfiguration) {
  HadoopConfiguration configuration;
  auto name = mapped_short_name(configuration, "alice@EXAMPLE.COM", "EXAMPLE.COM");
  ASSERT_TRUE(name.ok()) << name.error().message;
  EXPECT_EQ(*name, "alice");

  configuration.set("hadoop.security.auth_to_local", std::string(cluster_rules));
  name = mapped_short_name(configuration, "rm/localhost@EXAMPLE.COM", "EXAMPLE.COM");
  ASSERT_TRUE(name.ok()) << name.error().message;
  EXPECT_EQ(*name, "yarn");
  EXPECT_FALSE(mapped_short_name(configuration, "bob@OTHER.REALM", "EXAMPLE.COM").ok());

  configuration.set("hadoop.security.auth_to_local.mechanism", "MIT");
  name = mapped_short_name(configuration, "bob@OTHER.REALM", "EXAMPLE.COM");
  ASSERT_TRUE(name.ok()) << name.error().message;
  EXPECT_EQ(*name, "bob@OTHER.REALM");

  configuration.set("hadoop.security.auth_to_local.mechanism", "kerberos");
  name = mapped_short_name(configuration, "alice@EXAMPLE.COM", "EXAMPLE.COM");
  ASSERT_FALSE(name.ok());
  EXPECT_NE(name.error().message.find("hadoop.security.auth_to_local.mechanism"), std::string::npos);

  configuration.set("hadoop.security.auth_to_local.mechanism", "hadoop");
  configuration.set("hadoop.security.auth_to_local", "RULE:[1:$1");
  name = mapped_short_name(configuration, "alice@EXAMPLE.COM", "EXAMPLE.COM");
  ASSERT_FALSE(name.ok());
  EXPECT_NE(name.error().message.find("rule 1 of hadoop.security.auth_to_local"), std::string::npos);
}

// The client names itself as the cluster's servers name it: their realm is
// the one their principals carry, and a custom rule maps another realm's user.
TEST(AuthToLocal, TheClientsShortNameFollowsTheServersRealmAndRules) {
  HadoopConfiguration configuration;
  configuration.set("yarn.resourcemanager.principal", "rm/_HOST@EXAMPLE.COM");
  auto name = short_name_of(configuration, "alice@EXAMPLE.COM");
  ASSERT_TRUE(name.ok()) << name.error().message;
  EXPECT_EQ(*name, "alice");
  name = short_name_of(configuration, "alice@PARTNER.ORG");
  ASSERT_FALSE(name.ok()) << "DEFAULT strips only the servers' realm";
  EXPECT_NE(name.error().message.find("hadoop.security.auth_to_local"), std::string::npos);

  configuration.set("hadoop.security.auth_to_local", "RULE:[1:$1@$0](.*@PARTNER\\.ORG)s/@.*/-partner/\nDEFAULT");
  name = short_name_of(configuration, "alice@PARTNER.ORG");
  ASSERT_TRUE(name.ok()) << name.error().message;
  EXPECT_EQ(*name, "alice-partner");

  HadoopConfiguration without_servers;  // no server principal: the principal's own realm is the default
  name = short_name_of(without_servers, "bob@ANY.REALM");
  ASSERT_TRUE(name.ok()) << name.error().message;
  EXPECT_EQ(*name, "bob");
}

}  // namespace
}  // namespace spindle::yarn
