// YARN's diagnostics made readable before anyone shows them.
#include <gtest/gtest.h>

#include "yarn/conversions.h"

using spindle::yarn::readable_diagnostics;

TEST(ReadableDiagnostics, NotAvailableIsEmpty) {
  EXPECT_EQ(readable_diagnostics("N/A"), "");
}

TEST(ReadableDiagnostics, TextPassesUnchanged) {
  EXPECT_EQ(readable_diagnostics("every tracked task finished."), "every tracked task finished.");
  EXPECT_EQ(readable_diagnostics(""), "");
}

TEST(ReadableDiagnostics, TheRecoveryNoteIsPartedFromWhatFollows) {
  // As a ResourceManager that became active reports an application its master then finished.
  EXPECT_EQ(readable_diagnostics("Attempt recovered after RM restartevery tracked task finished."),
            "Attempt recovered after RM restart; every tracked task finished.");
  // Twice (two failovers), and alone at the end.
  EXPECT_EQ(readable_diagnostics("Attempt recovered after RM restartAttempt recovered after RM restart"),
            "Attempt recovered after RM restart; Attempt recovered after RM restart");
  EXPECT_EQ(readable_diagnostics("Attempt recovered after RM restart; done"),
            "Attempt recovered after RM restart; done");
}
