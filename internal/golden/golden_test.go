package golden

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/<scenario>/*.golden from this run")

// step is one evalrun run of a scenario. Its golden files are named
// after it: <step>.run.golden (command, exit code, stdout, stderr) and
// <step>.<report>.golden for each report.
type step struct {
	name string
	env  []string
	// args follow "evalrun --database-url sqlite:DB run"; {judge} is the
	// scripted judge's URL.
	args []string
	// reports are file names in the scenario's temp dir: junit.xml is
	// written by --junit, the others by --report; "github" is --report
	// github, whose job summary is kept as <step>.github-summary.md.
	reports []string
}

type scenario struct {
	name  string
	needs []string // programs the agent runs
	judge bool     // start the scripted judge; OPENAI_API_KEY=test-key
	// schema adds schema.golden: the tables and indexes as created.
	schema bool
	steps  []step
}

var allReports = []string{"report.html", "report.md", "report.txt", "report.json", "report.xml", "junit.xml", "github"}

var scenarios = []scenario{
	{name: "support", needs: []string{"sh", "awk"}, schema: true, steps: []step{
		{name: "reference", reports: allReports,
			args: []string{"examples/support/suite.json", "--metadata", `{"revision":"reference"}`}},
		{name: "regressed", env: []string{"AGENT_REVISION=regressed"}, reports: allReports,
			args: []string{"examples/support/suite.json", "--fail-on-regression", "--metadata", `{"revision":"regressed"}`}},
	}},
	{name: "api_replay", needs: []string{"python3"}, steps: []step{
		{name: "reference", reports: []string{"report.json", "report.md"},
			args: []string{"examples/api_replay/suite.json"}},
		{name: "regressed", env: []string{"AGENT_REVISION=regressed"}, reports: []string{"report.json", "report.md", "report.html"},
			args: []string{"examples/api_replay/suite.json", "--fail-on-regression"}},
	}},
	{name: "repeat", needs: []string{"sh", "awk"}, steps: []step{
		{name: "reference", reports: []string{"report.json", "report.md", "report.txt"},
			args: []string{"examples/support/suite.json", "--repeat", "3"}},
		{name: "regressed", env: []string{"AGENT_REVISION=regressed"}, reports: []string{"report.json", "report.md", "report.txt", "report.html"},
			args: []string{"examples/support/suite.json", "--repeat", "3", "--fail-on-regression"}},
	}},
	{name: "judged", needs: []string{"sh", "awk"}, judge: true, steps: []step{
		{name: "reference", reports: []string{"report.json", "report.md"},
			args: []string{"examples/llm_judge/suite.json", "--judge-base-url", "{judge}/v1"}},
		{name: "regressed", env: []string{"AGENT_REVISION=regressed"}, reports: []string{"report.json", "report.md", "report.txt", "report.html"},
			args: []string{"examples/llm_judge/suite.json", "--judge-base-url", "{judge}/v1", "--gate", "ci", "--fail-on-regression"}},
	}},
	// edges: agent usage and cost, big numbers, redaction and repair, a
	// plain-text answer, an agent crash, a golden set, per-question checks,
	// a judge reply that is no verdict, then the same suite without judge.
	{name: "edges", needs: []string{"sh"}, judge: true, steps: []step{
		{name: "judged", reports: []string{"report.json", "report.md", "report.txt", "report.html", "junit.xml"},
			args: []string{edgesSuite, "--judge-base-url", "{judge}/v1", "--metadata", `{"big":12345678901234567890,"nested":{"a":[1,2.50,null]}}`}},
		{name: "nojudge", reports: []string{"report.json", "report.md"},
			args: []string{edgesSuite, "--no-judge"}},
	}},
}

const edgesSuite = "internal/golden/testdata/suites/edges/suite.json"

func TestGolden(t *testing.T) {
	root := moduleRoot(t)
	bin := buildEvalrun(t, root)
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			compareGolden(t, sc.name, runScenario(t, root, bin, sc))
		})
	}
}

// moduleRoot is the nearest directory up from the test's working
// directory whose go.mod declares module github.com/agentevals-go/agentevals.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(mod, []byte("module github.com/agentevals-go/agentevals\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod of module github.com/agentevals-go/agentevals above %s: run go test ./internal/golden/ inside the checkout", dir)
		}
		dir = parent
	}
}

// headCommit is the commit of the checkout at root, "" outside a git
// work tree.
func headCommit(t *testing.T, root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Logf("no git commit at %s (%v): runs get no revision from git", root, err)
		return ""
	}
	return strings.TrimSpace(string(out))
}

func buildEvalrun(t *testing.T, root string) string {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build evalrun (install Go 1.26 and put it on PATH): %v", err)
	}
	bin := filepath.Join(t.TempDir(), "evalrun")
	build := exec.Command(goBin, "build", "-o", bin, "./cmd/evalrun")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("cd %s && go build -o %s ./cmd/evalrun: %v\n%s", root, bin, err, out)
	}
	return bin
}

// childEnv is the whole environment of evalrun: nothing of the caller's
// (DATABASE_URL, EVAL_*, EVALTEST_*, CI, GITHUB_*, proxies, API keys)
// but PATH and HOME, so that the agents' programs are found.
func childEnv(tmp string, extra ...string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + tmp,
		"LANG=C.UTF-8", "TZ=UTC", "NO_COLOR=1", "CI=true", "TERM=dumb"}
	return append(env, extra...)
}

// runScenario runs the scenario's steps on one fresh database and returns
// its golden files by name, normalized.
func runScenario(t *testing.T, root, bin string, sc scenario) map[string]string {
	for _, p := range sc.needs {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("the %s scenario's agent needs %s: apt-get install -y %s", sc.name, p, debianPackage(p))
		}
	}
	tmp := t.TempDir()
	childTmp := filepath.Join(tmp, "tmp")
	if err := os.Mkdir(childTmp, 0o755); err != nil {
		t.Fatal(err)
	}
	n := newNormalizer()
	n.literal(tmp, "<tmp>")
	n.literal(root, "<root>")
	// evalrun fills a run's revision from the checkout's commit when
	// --metadata gives none (see revisionRe).
	if commit := headCommit(t, root); commit != "" {
		n.literal(commit[:12], "<commit12>")
	}
	var judge *scriptedJudge
	extraEnv := []string{}
	if sc.judge {
		judge = startJudge(t)
		n.literal(judge.URL, "<judge>")
		extraEnv = append(extraEnv, "OPENAI_API_KEY=test-key")
	}
	db := filepath.Join(tmp, "evaluations.sqlite3")

	// The outputs are normalized after the database is dumped, whose rows
	// number the ids in creation order, then in the order they were made.
	type output struct {
		name string
		text func() string
	}
	var later []output
	for _, st := range sc.steps {
		args := []string{"--database-url", "sqlite:" + db, "run"}
		for _, a := range st.args {
			if judge != nil {
				a = strings.ReplaceAll(a, "{judge}", judge.URL)
			}
			args = append(args, a)
		}
		env := append(childEnv(childTmp, extraEnv...), st.env...)
		var files []string
		for _, r := range st.reports {
			path := filepath.Join(tmp, st.name+"."+r)
			switch r {
			case "github":
				args = append(args, "--report", "github")
				path = filepath.Join(tmp, st.name+".github-summary.md")
				env = append(env, "GITHUB_STEP_SUMMARY="+path)
			case "junit.xml":
				args = append(args, "--junit", path)
			default:
				args = append(args, "--report", path)
			}
			files = append(files, path)
		}
		code, stdout, stderr := evalrun(t, root, bin, env, args)
		cmdline := shellJoin(append([]string{"evalrun"}, args...))
		later = append(later, output{st.name + ".run", func() string {
			return fmt.Sprintf("$ %s\nenv: %s\nexit: %d\n--- stdout\n%s--- stderr\n%s",
				n.text(cmdline), strings.Join(st.env, " "), code, n.text(stdout), n.stderr(stderr))
		}})
		for _, f := range files {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatalf("step %s: report %s: %v (exit %d)\n%s%s", st.name, f, err, code, stdout, stderr)
			}
			later = append(later, output{filepath.Base(f), func() string { return n.text(string(text)) }})
		}
		if judge != nil {
			requests := judge.take()
			later = append(later, output{st.name + ".judge-requests", func() string { return n.text(requests) }})
		}
	}

	sqlDB := openDB(t, db)
	out := map[string]string{"db": dumpRows(t, sqlDB, n)}
	if sc.schema {
		out["schema"] = dumpSchema(t, sqlDB)
	}
	for _, o := range later {
		out[o.name] = o.text()
	}
	return out
}

func evalrun(t *testing.T, root, bin string, env, args []string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env, cmd.WaitDelay = root, env, 10*time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatalf("evalrun %s: %v\n%s%s", shellJoin(args), err, stdout.String(), stderr.String())
	}
	return 0, stdout.String(), stderr.String()
}

func debianPackage(program string) string {
	switch program {
	case "sh":
		return "dash"
	case "awk":
		return "mawk"
	}
	return program
}

// shellJoin quotes the arguments a shell would need quoted.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"{}$*?;&|<>()\\") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
