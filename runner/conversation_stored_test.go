package runner

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/agentevals/agentevals/agent"
	"github.com/agentevals/agentevals/score"
)

// promptJudge keeps the user prompts it is sent and scores 0.9.
type promptJudge struct {
	mu    sync.Mutex
	users []string
}

func (j *promptJudge) Assess(_ context.Context, _, user string) (score.Assessment, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.users = append(j.users, user)
	return score.Assessment{Score: 0.9, Reason: "kept"}, nil
}

// TestStoredMetricSample: re-judging a saved conversation sends the judge
// the prompt the run sent, rebuilt from the transcript; a turn check gets
// its turn's exchange back.
func TestStoredMetricSample(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "version": "1", "agent": {"name": "Bot", "command": ["true"]},
  "questions": [{"id": "q", "turns": ["My number is 7.", {"content": "What is it?", "checks": [{"type": "contains", "value": "7"}]}],
    "minimum_scores": {"knowledge_retention": 0.8}}]}`)
	bot := agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		out, _ := json.Marshal(map[int]string{1: "Noted.", 2: "It is 7."}[q.Turn])
		return agent.Response{Output: out, Actions: []score.Action{{Name: "note"}}}, nil
	})
	j := &promptJudge{}
	run := mustExecute(t, s, bot, ExecOptions{Judge: j})
	row, c := run.Cases[0], s.Cases[0]
	base := SampleOf(c)
	base.Output = json.RawMessage(row.Output)
	stored := StoredMetricSample(c, row.ResponseMetadata, "knowledge_retention", base)
	if got := score.ConversationPrompt(score.KnowledgeRetention, "", stored).User; len(j.users) != 1 || got != j.users[0] {
		t.Errorf("rebuilt prompt differs from the one sent:\n%s\nwant\n%v", got, j.users)
	}
	turn := StoredMetricSample(c, row.ResponseMetadata, "turn2.contains", base)
	if string(turn.Output) != `"It is 7."` || string(turn.Question) != `"What is it?"` || len(turn.Actions) != 1 || turn.Conversation != nil {
		t.Errorf("turn 2 sample: %+v", turn)
	}
}
