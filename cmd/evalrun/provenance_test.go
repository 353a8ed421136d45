package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// gitProject writes a suite of one question and its agent into a new git
// repository under a temp dir and commits them; it returns the suite path
// and the commit.
func gitProject(t *testing.T, name string) (suitePath, commit string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	os.MkdirAll(dir, 0o755)
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s (git is needed: apt-get install -y git)", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	writeTestFile(t, filepath.Join(dir, "agent.sh"), "cat >/dev/null; cat answer.txt\n")
	writeTestFile(t, filepath.Join(dir, "answer.txt"), "Paris\n")
	suitePath = filepath.Join(dir, "suite.json")
	writeTestFile(t, suitePath, `{"suite": "evals", "agent": {"name": "evals-agent", "command": ["sh", "agent.sh"]},
	  "questions": [{"id": "capital", "question": "Capital of France?", "checks": [{"type": "contains", "value": "Paris"}]}]}`)
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "suite")
	git("remote", "add", "origin", "https://ci-bot:s3cr3t-token@git.example/org/"+name+".git")
	return suitePath, git("rev-parse", "HEAD")
}

// TestRun_RecordsProvenance runs a suite in a git checkout under GitHub
// Actions: the summary records commit, branch, dirty flag, remote without
// credentials, CI run URL, host and directory; the metadata gets the
// revision from git; history shows where each run came from, with its
// outcome, quality change and regressed questions, as a table and as JSON;
// a run of a same-named suite in another project that picks the first as
// its baseline says so.
func TestRun_RecordsProvenance(t *testing.T) {
	for k, v := range map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "org/app",
		"GITHUB_RUN_ID": "77", "GITHUB_RUN_ATTEMPT": "1", "CI": "true"} {
		t.Setenv(k, v)
	}
	url := testdb.SQLiteURL(t)
	suiteA, commit := gitProject(t, "app")
	if code, out, stderr := evalrun(t, "--database-url", url, "run", suiteA); code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, out, stderr)
	}
	run := newestRun(t, url)
	sum, err := models.DecodeRunSummary(run.Summary)
	if err != nil || sum.Provenance == nil {
		t.Fatalf("summary %s: no provenance (%v)", run.Summary, err)
	}
	p := sum.Provenance
	if p.Commit != commit || p.Branch != "main" || p.Dirty == nil || *p.Dirty || p.Remote != "https://git.example/org/app.git" ||
		p.CI == nil || p.CI.Provider != "github-actions" || p.CI.RunURL != "https://github.com/org/app/actions/runs/77" || p.Host == "" || p.WorkingDirectory == "" {
		t.Errorf("provenance %+v (ci %+v)", p, p.CI)
	}
	if strings.Contains(string(run.Summary), "s3cr3t") {
		t.Errorf("the remote's credentials were saved: %s", run.Summary)
	}
	if got := report.Revision(run); got != commit[:12] {
		t.Errorf("revision %q, want the commit's first 12 digits", got)
	}
	code, out, stderr := evalrun(t, "--database-url", url, "run", suiteA, "--metadata", `{"revision":"v1.2"}`)
	if code != exitOK || report.Revision(newestRun(t, url)) != "v1.2" {
		t.Fatalf("a given revision is kept: exit %d, revision %q\n%s%s", code, report.Revision(newestRun(t, url)), out, stderr)
	}

	// The same suite and agent names in another project: its first run
	// takes the other project's run as baseline, and says so.
	suiteB, _ := gitProject(t, "other")
	writeTestFile(t, filepath.Join(filepath.Dir(suiteB), "answer.txt"), "Lyon\n")
	code, out, stderr = evalrun(t, "--database-url", url, "run", suiteB)
	if code != exitFailed {
		t.Fatalf("run of the other project: exit %d\n%s%s", code, out, stderr)
	}
	if want := "Baseline made elsewhere: the baseline was made in https://git.example/org/app.git, this run in https://git.example/org/other.git"; !strings.Contains(out, want) {
		t.Errorf("run output lacks %q:\n%s", want, out)
	}

	code, out, _ = evalrun(t, "--database-url", url, "history")
	if code != exitOK {
		t.Fatalf("history: exit %d\n%s", code, out)
	}
	lines := strings.Split(out, "\n")
	for _, want := range []string{"OUTCOME", "CHANGE", "REGRESSED", "SOURCE"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("history header lacks %s: %q", want, lines[0])
		}
	}
	if f := strings.Fields(lines[1]); !strings.Contains(lines[1], "failed") || !strings.Contains(lines[1], "-1.000") || !strings.Contains(lines[1], " 1 ") || !strings.Contains(lines[1], "main@") {
		t.Errorf("newest history row %q (fields %q): want failed, change -1.000, 1 regressed, main@commit", lines[1], f)
	}
	code, out, _ = evalrun(t, "--database-url", url, "history", "--json")
	var rows []struct {
		Outcome     string             `json:"outcome"`
		Change      *float64           `json:"quality_change"`
		Regressions *int               `json:"regressed_questions"`
		BaselineID  *string            `json:"baseline_id"`
		Provenance  *models.Provenance `json:"provenance"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 3 {
		t.Fatalf("history --json: exit %d, %d rows\n%s", code, len(rows), out)
	}
	if r := rows[0]; r.Outcome != "failed" || r.Change == nil || *r.Change != -1 || r.Regressions == nil || *r.Regressions != 1 || r.Provenance == nil || r.Provenance.Remote != "https://git.example/org/other.git" {
		t.Errorf("newest row %+v", r)
	}
	if r := rows[2]; r.Outcome != "passed" || r.BaselineID != nil || r.Change != nil || r.Regressions != nil {
		t.Errorf("first run: %+v, want passed without baseline", r)
	}
}

// TestRunCmd_ProvenanceWithoutHost: --no-host (or EVALRUN_NO_HOST=1)
// keeps the host name out of the stored provenance, and no absolute path
// is stored either way.
func TestRunCmd_ProvenanceWithoutHost(t *testing.T) {
	url := testdb.SQLiteURL(t)
	suitePath, _ := gitProject(t, "app")
	for _, args := range [][]string{{"run", suitePath, "--no-host"}, {"run", suitePath}} {
		if len(args) == 2 {
			t.Setenv("EVALRUN_NO_HOST", "1")
		}
		if code, out, stderr := evalrun(t, append([]string{"--database-url", url}, args...)...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, stderr)
		}
		run := newestRun(t, url)
		sum, err := models.DecodeRunSummary(run.Summary)
		if err != nil || sum.Provenance == nil || sum.Provenance.Host != "" || sum.Provenance.Commit == "" {
			t.Errorf("%v: provenance %+v (%v)", args, sum.Provenance, err)
		}
		if strings.Contains(string(run.Summary), filepath.Dir(suitePath)) {
			t.Errorf("%v: an absolute path was stored: %s", args, run.Summary)
		}
	}
}
