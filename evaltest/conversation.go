package evaltest

import (
	"testing"

	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/sanitize"
)

// logConversation logs, for a conversation that failed, the failing turn
// and why it ended, then that turn's messages and failed checks: a
// conversation is one subtest, so this is where its log says where it
// went wrong.
func logConversation(t *testing.T, v *report.TranscriptView) {
	t.Helper()
	if v == nil {
		return
	}
	t.Logf("conversation: %s", sanitize.EscapeText(v.Summary))
	for _, turn := range v.Turns {
		if !turn.Failing {
			continue
		}
		t.Logf("turn %d user: %s", turn.Turn, sanitize.EscapeText(turn.User))
		if turn.Error != "" {
			t.Logf("turn %d agent error: %s", turn.Turn, sanitize.EscapeText(turn.Error))
		} else {
			t.Logf("turn %d agent: %s", turn.Turn, sanitize.EscapeText(turn.Agent))
		}
		for _, c := range turn.Checks {
			if c.State == "fail" || c.State == "error" {
				t.Logf("turn %d check %s %s (%s): %s", turn.Turn, sanitize.EscapeText(c.Name), c.State, c.Score, sanitize.EscapeText(c.Reason))
			}
		}
	}
}
