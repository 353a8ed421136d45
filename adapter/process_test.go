package adapter

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/internal/proc"
	"github.com/agentevals-go/agentevals/suite"
)

// TestCommandAgent_BackgroundChildren: an agent that answers but leaves a
// child running gets a clear case error (not Go's WaitDelay message), at
// once, and the child is gone when Answer returns.
func TestCommandAgent_BackgroundChildren(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		wantErr      bool
	}{
		{"background sleep", `cat >/dev/null; sleep 1000 & echo ok`, true},
		{"background sleep holding no pipe", `cat >/dev/null; sleep 1000 >/dev/null 2>&1 </dev/null & echo ok`, true},
		{"child that finished", `cat >/dev/null; true & wait; echo ok`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := mustAgent(t, shAgent(t, suite.AgentCommand, tc.script), Options{})
			start := time.Now()
			_, err := a.Answer(context.Background(), agent.Question{ID: "q", Question: []byte(`"hi"`)})
			if elapsed := time.Since(start); elapsed > pipeDrain {
				t.Errorf("Answer took %s: it waited for the background child", elapsed)
			}
			if !tc.wantErr {
				if err != nil {
					t.Fatalf("Answer: %v", err)
				}
				return
			}
			ae := agentErr(t, err)
			if ae.Kind != "background_processes" || !strings.Contains(ae.Message, "agent left background processes running") {
				t.Fatalf("error = %s: %s", ae.Kind, ae.Message)
			}
			// SIGKILL is delivered at once but a process takes a moment to die
			n := liveTagged(t, a.(*Command).Procs.Tag)
			for deadline := time.Now().Add(2 * time.Second); n != 0 && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
				n = liveTagged(t, a.(*Command).Procs.Tag)
			}
			if n != 0 {
				t.Errorf("%d tagged processes still running", n)
			}
		})
	}
}

// liveTagged counts the live processes whose environment holds tag.
func liveTagged(t *testing.T, tag string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		b, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !strings.Contains(string(b), proc.TagEnv+"="+tag) {
			continue
		}
		if b, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil && !strings.Contains(string(b), ") Z ") {
			n++
		}
	}
	return n
}
