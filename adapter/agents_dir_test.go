package adapter

import (
	"context"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"path/filepath"
	"testing"

	"github.com/agentevals-go/agentevals/suite"
)

// TestProcessAgents_WorkingDirectory: command and worker agents run in the
// suite file's directory, or agent.dir resolved against it, whatever
// evalrun's own working directory (runner/doc.go). The question arrives as
// one line ending in a newline, so one `while read` script serves both.
func TestProcessAgents_WorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	testfile.Write(t, dir, "bin/agent.sh", `while IFS= read -r line; do printf '{"output":"%s"}\n' "$(pwd -P)"; done`)
	testfile.Write(t, dir, "sub/.keep", "")
	t.Chdir(t.TempDir())
	want, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ typ, dirKey, want string }{
		{suite.AgentCommand, "", want},
		{suite.AgentWorker, "", want},
		{suite.AgentCommand, `"dir": "sub", `, filepath.Join(want, "sub")},
	} {
		script := `"bin/agent.sh"`
		if tt.dirKey != "" {
			script = `"../bin/agent.sh"`
		}
		path := testfile.Write(t, dir, "suite.json", `{"suite": "S", "agent": {"name": "A", "type": "`+tt.typ+`", `+tt.dirKey+
			`"command": ["sh", `+script+`]}, "questions": [{"question": "q", "minimum_scores": {"answer_relevancy": 0.9}}]}`)
		s, err := suite.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := mustAgent(t, s.Agent, Options{}).Answer(context.Background(), testQuestion)
		if err != nil {
			t.Fatalf("%s %s: %v", tt.typ, tt.dirKey, err)
		}
		if got := `"` + tt.want + `"`; string(resp.Output) != got {
			t.Errorf("%s %s: ran in %s, want %s", tt.typ, tt.dirKey, resp.Output, got)
		}
	}
}
