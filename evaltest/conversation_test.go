package evaltest_test

import (
	"strings"
	"testing"
)

// TestRun_ConversationLogsFailingTurn runs examples/conversation's go
// test with the regressed agent: each conversation is one subtest, and
// the failing one logs its failing turn, the turn's messages and the check
// that failed; the simulated one logs that it hit the turn cap.
func TestRun_ConversationLogsFailingTurn(t *testing.T) {
	out, ok := goTestPackage(t, "./examples/conversation/", []string{"AGENT_REVISION=regressed"}, "-run", "TestConversations", "-v")
	if ok {
		t.Fatalf("the regressed conversations passed:\n%s", out)
	}
	for _, want := range []string{
		"--- FAIL: TestConversations/order-status",
		"--- FAIL: TestConversations/broken-item-refund",
		`conversation: failing turn 2 of 3 ("When will it arrive?")`,
		"turn 2 agent: What is your order number?",
		`turn 2 check turn2.contains fail (0.000): output "What is your order number?" does not contain "Friday"`,
		"conversation: stopped at the turn cap (4) without reaching the goal",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("go test output lacks %q:\n%s", want, out)
		}
	}
}
