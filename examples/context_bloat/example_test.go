package contextbloat_test

import (
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/suite"
)

func mustPython(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this example (Debian package python3): %v", err)
	}
	return p
}

// TestFixtureUpToDate: the committed ~500 KB response is what the script
// makes, byte for byte (its SHA-256 is part of the suite fingerprint).
func TestFixtureUpToDate(t *testing.T) {
	out, err := exec.Command(mustPython(t), "make_fixture.py", "--check").CombinedOutput()
	if err != nil {
		t.Fatalf("make_fixture.py --check: %v\n%s", err, out)
	}
}

func TestContextBloat(t *testing.T) {
	mustPython(t)
	for _, tc := range []struct {
		revision string
		status   string
		budget   float64 // tool_budget score; exact and tool_call always 1
	}{
		{"reference", models.StatusPassed, 1},
		{"regressed", models.StatusFailed, 0},
	} {
		t.Run(tc.revision, func(t *testing.T) {
			t.Setenv("AGENT_REVISION", tc.revision)
			s, err := suite.Load("suite.json")
			if err != nil {
				t.Fatal(err)
			}
			a, err := adapter.New(s.Agent, adapter.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c, ok := a.(io.Closer); ok {
				defer c.Close()
			}
			run, err := runner.Execute(context.Background(), s, a, runner.ExecOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c := run.Cases[0]
			if c.Status != tc.status {
				t.Errorf("status %s (error %s), want %s", c.Status, c.ErrorDetails, tc.status)
			}
			want := map[string]float64{"exact": 1, "tool_call": 1, "tool_budget": tc.budget}
			for _, m := range c.Metrics {
				if m.Score == nil || *m.Score != want[m.Name] {
					t.Errorf("metric %s: score %v (%v), want %v", m.Name, m.Score, m.Reason, want[m.Name])
				}
			}
			var meta struct {
				ToolResultBytes  []int64               `json:"tool_result_bytes"`
				APIResponseBytes int64                 `json:"api_response_bytes"`
				APIReplay        struct{ Passed bool } `json:"api_replay"`
			}
			if err := json.Unmarshal(c.ResponseMetadata, &meta); err != nil {
				t.Fatal(err)
			}
			if meta.APIResponseBytes < 400_000 || !meta.APIReplay.Passed || len(meta.ToolResultBytes) != 1 {
				t.Errorf("metadata %+v, want a replayed ~500 KB response and one tool result", meta)
			}
			if big := meta.ToolResultBytes[0] > 4096; big != (tc.revision == "regressed") {
				t.Errorf("tool result %d bytes for the %s revision", meta.ToolResultBytes[0], tc.revision)
			}
		})
	}
}
