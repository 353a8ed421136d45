package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/agent"
)

// BenchmarkConversation_PerTurn measures the framework's overhead per
// turn: 20 conversations of 10 scripted turns, each turn checked, through
// Execute ("framework"), against a bare loop that asks the same Go agent
// the same turns with the same growing history ("bare"). Both report
// ns/turn; the agent answers at once, so the difference is the runner's
// own cost (questions, the panic and deadline guard, reply checks, the
// transcript, scoring and sanitizing).
func BenchmarkConversation_PerTurn(b *testing.B) {
	const conversations, turns = 20, 10
	var qs []string
	for i := range conversations {
		var ts []string
		for n := range turns {
			ts = append(ts, fmt.Sprintf(`{"content": "message %d", "checks": [{"type": "contains", "value": "seen %d"}]}`, n, 2*n+1))
		}
		qs = append(qs, fmt.Sprintf(`{"id": "c%d", "turns": [%s]}`, i, strings.Join(ts, ", ")))
	}
	s := mustLoad(b, `{"suite": "Bench", "version": "1", "agent": {"name": "Bot", "command": ["true"]}, "questions": [`+strings.Join(qs, ",")+`]}`)
	bot := agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		out, _ := json.Marshal(fmt.Sprintf("seen %d", len(q.Messages)))
		return agent.Response{Output: out}, nil
	})
	perTurn := func(b *testing.B, start time.Time) {
		b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N*conversations*turns), "ns/turn")
	}
	b.Run("bare", func(b *testing.B) {
		start := time.Now()
		for range b.N {
			for _, c := range s.Cases {
				var history []agent.Message
				for _, t := range c.Conversation.Turns {
					history = append(history, agent.Message{Role: agent.RoleUser, Content: t.Content})
					resp, err := bot(context.Background(), agent.Question{ID: c.ID, Question: jsonString(t.Content),
						Conversation: agent.Conversation{SessionID: "s", Turn: len(history)/2 + 1, Messages: append([]agent.Message(nil), history...)}})
					if err != nil {
						b.Fatal(err)
					}
					var text string
					_ = json.Unmarshal(resp.Output, &text)
					history = append(history, agent.Message{Role: agent.RoleAssistant, Content: text})
				}
			}
		}
		perTurn(b, start)
	})
	b.Run("framework", func(b *testing.B) {
		start := time.Now()
		for range b.N {
			run := mustExecute(b, s, bot, ExecOptions{Concurrency: 1})
			if run.Cases[0].Status != "passed" {
				b.Fatalf("status %s", run.Cases[0].Status)
			}
		}
		perTurn(b, start)
	})
}
