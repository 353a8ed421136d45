package evaltest_test

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// fixture is the package of go test scenarios, some failing on purpose.
const fixture = "./evaltest/testdata/fixture"

// fixtureTests compiles the fixture's test binary (go test -c) once for
// the calling test and returns a function running it in the fixture's
// directory, as go test would, with args (-test.v, -test.run …) and env.
func fixtureTests(t *testing.T) func(env []string, args ...string) (string, bool) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the fixture tests (put the Go toolchain on PATH): %v", err)
	}
	bin := filepath.Join(t.TempDir(), "fixture.test")
	build := exec.CommandContext(t.Context(), goBin, "test", "-c", "-o", bin, fixture)
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, out)
	}
	dir := filepath.Join(repoRoot(t), filepath.FromSlash(fixture))
	return func(env []string, args ...string) (string, bool) {
		cmd := exec.CommandContext(t.Context(), bin, args...)
		cmd.Dir = dir
		return runCmd(t, cmd, env)
	}
}

// TestRun_scenarios runs the fixture scenarios (their compiled go test
// binary, which go test runs) and checks what each reports.
func TestRun_scenarios(t *testing.T) {
	malformed, _ := scriptedJudgeServer(t, "I think it is fine.")
	tests := []struct {
		test   string
		label  string // tells apart the runs of one test
		env    []string
		args   []string
		pass   bool
		wants  []string
		absent []string
	}{
		{test: "TestBadSuite", wants: []string{
			"evaltest.Run: load suite: 2 problems:",
			"suites/bad.json: $.questions[0].minimum_scores.contains_hi: want a number in [0,1], got 1.5",
			"--- FAIL: TestBadSuite "},
			absent: []string{"TestBadSuite/"}},
		{test: "TestCommandAgent", pass: true, wants: []string{
			"--- PASS: TestCommandAgent/alpha", "--- PASS: TestCommandAgent/beta",
			"--- SKIP: TestCommandAgent/judged_only",
			`not evaluated: no metric of "judged only" could be calculated: no judge configured`}},
		{test: "TestEscapes", wants: []string{
			"--- FAIL: TestEscapes/alpha", `answer: "red 14 days"`, `question "alpha" is at suites/two.json:9`,
			"judge switched off (evaltest.WithoutJudge or EVAL_NO_JUDGE)"},
			absent: []string{"\x1b", "\a"}},
		{test: "TestPanickingAgent", wants: []string{
			"--- PASS: TestPanickingAgent/alpha", "--- FAIL: TestPanickingAgent/beta",
			"agent error (panic): beta is not implemented"}},
		{test: "TestGateWithoutDatabase", wants: []string{
			"evaltest.Run: FailOnRegression needs a database to find the baseline in: set EVALTEST_DATABASE_URL or pass evaltest.SaveTo",
			"--- SKIP: TestGateWithoutDatabase/alpha"}},
		{test: "TestDeterministicWithJudgeSection", env: []string{"OPENAI_API_KEY="}, pass: true, wants: []string{
			"--- PASS: TestDeterministicWithJudgeSection/alpha"}},
		{test: "TestSuiteJudge", label: "no credential", env: []string{"OPENAI_API_KEY="}, wants: []string{
			"evaltest.Run: judge: invalid model settings: OPENAI_API_KEY is not set",
			"(to run without the judge: go test -short, or EVAL_NO_JUDGE=1)"}},
		{test: "TestSuiteJudge", label: "EVAL_NO_JUDGE", env: []string{"OPENAI_API_KEY=", "EVAL_NO_JUDGE=1"}, pass: true, wants: []string{
			"--- SKIP: TestSuiteJudge/relevant", "judge switched off"}},
		{test: "TestSuiteJudge", label: "short", env: []string{"OPENAI_API_KEY="}, args: []string{"-test.short"}, pass: true, wants: []string{
			"--- SKIP: TestSuiteJudge/relevant", "skipped under -short"}},
		{test: "TestSuiteJudge", label: "malformed verdict", env: []string{"OPENAI_API_KEY=", "EVAL_JUDGE_BASE_URL=" + malformed.URL + "/v1"}, wants: []string{
			"--- FAIL: TestSuiteJudge/relevant", "answer_relevancy: not scored (threshold 0.900): error: "}},
	}
	goTest := fixtureTests(t)
	for _, tt := range tests {
		t.Run(strings.TrimSpace(tt.test+" "+tt.label), func(t *testing.T) {
			out, ok := goTest(tt.env, append([]string{"-test.v", "-test.run", "^" + tt.test + "$"}, tt.args...)...)
			if ok != tt.pass {
				t.Errorf("go test passed: %v, want %v", ok, tt.pass)
			}
			wantAll(t, tt.test, out, tt.wants...)
			for _, s := range tt.absent {
				if strings.Contains(out, s) {
					t.Errorf("output holds %q:\n%s", s, out)
				}
			}
		})
	}
}

// TestRun_countAndSubset: -count=2 saves two runs, the second baselined
// by the first; a -run subset is its own definition, so it has no
// baseline among runs of the whole suite.
func TestRun_countAndSubset(t *testing.T) {
	u := testdb.SQLiteURL(t)
	env := []string{"EVALTEST_DATABASE_URL=" + u}
	goTest := fixtureTests(t)
	out, ok := goTest(env, "-test.v", "-test.count=2", "-test.run", "^TestCommandAgent$")
	if !ok {
		t.Fatalf("go test -count=2 failed:\n%s", out)
	}
	saved := regexp.MustCompile(`saved run (\S+) to`).FindAllStringSubmatch(out, -1)
	if len(saved) != 2 {
		t.Fatalf("want two saved runs:\n%s", out)
	}
	wantAll(t, "-count=2", out, "baseline: none (first run of this definition)", "baseline: run "+saved[0][1])
	out, ok = goTest(env, "-test.v", "-test.run", "^TestCommandAgent$/^alpha$")
	if !ok {
		t.Fatalf("go test -run subset failed:\n%s", out)
	}
	wantAll(t, "subset", out, "--- PASS: TestCommandAgent/alpha", "baseline: none (first run of this definition)")
	if strings.Contains(out, "TestCommandAgent/beta") {
		t.Errorf("subset: beta was run:\n%s", out)
	}
	checkHistory(t, u, "Fixture two", "TestCommandAgent", []int{-1, 2, -1})
}
