package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceToSuite_FromFile drafts a question from a trace in a file
// export, then refuses bad requests with exit 2, writing nothing and never
// touching the suite.
func TestTraceToSuite_FromFile(t *testing.T) {
	dir := t.TempDir()
	traces := filepath.Join(dir, "window.jsonl")
	writeShopExport(t, traces, 10)
	suiteFile := filepath.Join(dir, "suite.json")
	suiteText := `{"suite": "shop", "agent": {"name": "shop", "command": ["true"]},
  "questions": [{"id": "known", "question": "Where is order 1?", "checks": [{"type": "contains", "value": "1"}]}]}
`
	writeTestFile(t, suiteFile, suiteText)
	mon := filepath.Join(dir, "monitor.json")
	writeTestFile(t, mon, `{"monitor": "m", "agent": "shop", "checks": [{"name": "looked_up_order", "type": "tool_used", "tools": ["lookup_order"]}]}`)
	yamlSuite := filepath.Join(dir, "suite.yaml")
	writeTestFile(t, yamlSuite, "suite: shop\nagent: {name: shop, command: [\"true\"]}\nquestions: [{id: a, question: q, checks: [{type: contains, value: q}]}]\n")
	db := "sqlite:" + filepath.Join(dir, "db.sqlite3")
	trace := "0100ab070102030405060708090a0b25" // request 1: it looked the order up

	out := filepath.Join(dir, "grown.json")
	code, stdout, stderr := evalrun(t, "--database-url", db, "trace-to-suite", suiteFile, "-o", out, "--traces", traces, "--trace-id", trace, "--monitor", mon, "--check", "looked_up_order")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	got, _ := os.ReadFile(out)
	for _, want := range []string{`"question": "Where is order 1001?"`, `"expected_answer": "Order 1001 ships today."`, `"name": "lookup_order"`,
		`"order": 1001`, `"review": true`, `"looked_up_order"`, `"production_actions"`, trace} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the new suite lacks %s:\n%s", want, got)
		}
	}
	if !strings.HasPrefix(string(got), suiteText[:strings.Index(suiteText, "]}")]) {
		t.Errorf("the suite's own text should be kept as written:\n%s", got)
	}
	if code, _, stderr := evalrun(t, "validate", out); code != exitOK {
		t.Errorf("validate the new suite: exit %d\n%s", code, stderr)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no source", []string{suiteFile, "-o", filepath.Join(dir, "a.json")}, "--run RUN_ID"},
		{"two sources", []string{suiteFile, "-o", filepath.Join(dir, "a.json"), "--traces", traces, "--trace-id", trace, "--run", "x", "--case", "1"}, "either"},
		{"existing output", []string{suiteFile, "-o", out, "--traces", traces, "--trace-id", trace}, "never overwrites"},
		{"unknown trace", []string{suiteFile, "-o", filepath.Join(dir, "a.json"), "--traces", traces, "--trace-id", "ffff"}, "no case of"},
		{"unknown check", []string{suiteFile, "-o", filepath.Join(dir, "a.json"), "--traces", traces, "--trace-id", trace, "--monitor", mon, "--check", "nope"}, `check "nope"`},
		{"YAML suite", []string{yamlSuite, "-o", filepath.Join(dir, "a.json"), "--traces", traces, "--trace-id", trace}, "not a JSON suite"},
		{"duplicate id", []string{suiteFile, "-o", filepath.Join(dir, "a.json"), "--traces", traces, "--trace-id", trace, "--id", "known"}, "does not validate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := evalrun(t, append([]string{"--database-url", db, "trace-to-suite"}, tc.args...)...)
			if code != exitInvalid || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want 2 naming %q\n%s%s", code, tc.want, stdout, stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "a.json")); err == nil {
		t.Error("a refused trace-to-suite wrote its output")
	}
	if again, _ := os.ReadFile(suiteFile); string(again) != suiteText {
		t.Error("trace-to-suite changed the suite")
	}
}
