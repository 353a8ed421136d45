package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// questionJudge is a chatJudge for a decision graph's yes/no questions:
// yes when the question (in the system message) is in yes and the answer
// thanks the user, no otherwise.
func questionJudge(t *testing.T, yes ...string) *httptest.Server {
	return chatJudge(t, func(system, user string) string {
		for _, q := range yes {
			if strings.Contains(system, q) && strings.Contains(user, "thanks") {
				return "1"
			}
		}
		return "0"
	})
}

// dagSuite writes a suite scored by a decision graph: the deadline check
// first, then the judge's politeness question.
func dagSuite(t *testing.T, judgeURL, graph string) string {
	t.Helper()
	dir := t.TempDir()
	agent := `read q; case "$q" in *again*) echo '{"output":"Within 7 days."}';; *) echo '{"output":"Within 30 days, thanks for asking."}';; esac` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "agent.sh"), []byte(agent), 0o644); err != nil {
		t.Fatal(err)
	}
	s := fmt.Sprintf(`{"suite": "Rules", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
  "judge": {"provider": "openai", "model": "judge", "base_url": %q, "timeout": "5s"},
  "evaluators": {"rules": {"type": "dag", "threshold": 0.9, "params": %s}},
  "questions": [
    {"id": "q1", "question": "How long?", "minimum_scores": {"rules": 0.9}},
    {"id": "q2", "question": "How long again?", "minimum_scores": {"rules": 0.9}}
  ]}`, judgeURL, graph)
	path := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const deadlineGraph = `{"root": "deadline", "nodes": {
  "deadline": {"check": {"type": "contains", "params": {"value": "30 days"}}, "yes": "polite", "no": {"score": 0, "label": "wrong deadline"}},
  "polite": {"judge": "Is the answer polite?", "yes": {"score": 1}, "no": {"score": 0.5}}}}`

// TestRunCmd_DecisionGraph runs a decision graph metric end to end: the
// score follows the path, every node's verdict and reason is stored in
// the metric's details and shown in the HTML report, and a malformed
// graph is refused before anything runs, with its place in the suite.
func TestRunCmd_DecisionGraph(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := questionJudge(t, "Is the answer polite?")
	url := migratedURL(t, "sqlite")
	html := filepath.Join(t.TempDir(), "report.html")
	code, out, stderr := evalrun(t, "--database-url", url, "run", dagSuite(t, srv.URL+"/v1", deadlineGraph), "--report", html)
	if code != exitFailed {
		t.Fatalf("run: exit %d, want 1 (q2 fails its deadline)\n%s%s", code, out, stderr)
	}
	db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(context.Background(), models.RunFilter{Suite: "Rules"})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs: %d, %v", len(runs), err)
	}
	run, err := db.GetRun(context.Background(), runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		score float64
		path  string
	}{"q1": {1, "deadline=yes polite=yes"}, "q2": {0, "deadline=no"}}
	for _, c := range run.Cases {
		meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
		if err != nil {
			t.Fatal(err)
		}
		m := c.Metrics[0]
		path := score.DAGPathOf(meta.MetricDetails["rules"], nil)
		var walk []string
		for _, st := range path {
			walk = append(walk, st.Node+"="+st.Verdict)
			if st.Reason == "" {
				t.Errorf("%s: node %s has no reason", c.CaseID, st.Node)
			}
		}
		if w := want[c.CaseID]; m.Score == nil || *m.Score != w.score || strings.Join(walk, " ") != w.path {
			t.Errorf("%s: score %v, path %v; want %v along %s", c.CaseID, m.Score, walk, w.score, w.path)
		}
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), `<ol class="dag-path"`) || !strings.Contains(string(page), "Is the answer polite?") {
		t.Errorf("the HTML report does not show the decision path (%v)", err)
	}

	// Re-judging the stored answers walks the same graph again: the
	// scripted verdicts never change, so the metric is perfectly stable.
	suitePath := dagSuite(t, srv.URL+"/v1", deadlineGraph)
	code, out, stderr = evalrun(t, "--database-url", url, "calibrate", run.ID.String(), "--rejudge", "2", "--suite", suitePath, "--json")
	if code != exitOK || !strings.Contains(out, `"metric": "rules"`) || !strings.Contains(out, `"errors": 0`) || !strings.Contains(out, `"agreement": 1,`) {
		t.Errorf("rejudge: exit %d\n%s%s", code, out, stderr)
	}
	// --repeat 2: the same scores, each repeat's path kept.
	code, out, stderr = evalrun(t, "--database-url", url, "run", suitePath, "--repeat", "2")
	if code != exitFailed || !strings.Contains(out, "q1") {
		t.Errorf("--repeat 2: exit %d\n%s%s", code, out, stderr)
	}

	bad := strings.Replace(deadlineGraph, `"no": {"score": 0.5}`, `"no": "deadline"`, 1)
	code, _, stderr = evalrun(t, "--database-url", url, "run", dagSuite(t, srv.URL+"/v1", bad))
	if code != exitInvalid || !strings.Contains(stderr, `evaluators.rules.params`) || !strings.Contains(stderr, `nodes.polite.no: leads back to "deadline"`) {
		t.Errorf("cyclic graph: exit %d\n%s", code, stderr)
	}
}
