package runner

import (
	"fmt"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
)

func TestCallCounter_Failure(t *testing.T) {
	agentErr := func(kind string, status int) error {
		return &adapter.Error{Kind: kind, Message: "boom", Details: map[string]any{"status": status}}
	}
	judgeErr := func(kind string) models.JSON {
		return models.MustJSON(map[string]any{"kind": kind, "message": "down"})
	}
	tests := []struct {
		name  string
		agent []error
		judge []models.JSON
		want  string
	}{
		{"all refused", []error{agentErr("http", 0), agentErr("http", 0)}, nil, "map[agent:http: boom (2 of 2 calls)]"},
		{"gateway", []error{agentErr("http_status", 503)}, nil, "map[agent:http_status: boom (1 of 1 call)]"},
		{"agent's own 500", []error{agentErr("http_status", 500)}, nil, "map[]"},
		{"one answered", []error{agentErr("timeout", 0), nil}, nil, "map[]"},
		{"exit status", []error{agentErr("exit_status", 0)}, nil, "map[]"},
		{"judge down", []error{nil, nil}, []models.JSON{judgeErr(score.KindUnreachable), judgeErr(score.KindTimeout)},
			"map[judge:unreachable: down (2 of 2 calls)]"},
		{"judge verdicts bad", []error{nil}, []models.JSON{judgeErr(score.KindInvalidReply)}, "map[]"},
		{"judge partly up", []error{nil}, []models.JSON{judgeErr(score.KindServerError), nil}, "map[]"},
		{"no calls", nil, nil, "map[]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c callCounter
			for _, err := range tc.agent {
				c.agent(err)
			}
			for _, d := range tc.judge {
				c.judge(d)
			}
			if got := fmt.Sprint(c.failure(sanitize.Policy{})); got != tc.want {
				t.Errorf("failure = %s, want %s", got, tc.want)
			}
		})
	}
}
