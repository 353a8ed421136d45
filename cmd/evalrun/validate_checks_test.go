package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateCmd_WarnsAboutDefaultedValueCheck checks that a contains
// check with a fixed value, made a default of every golden-set line by
// the gem's rule, is a warning on stderr while validate still exits 0.
func TestValidateCmd_WarnsAboutDefaultedValueCheck(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "golden.jsonl"), []byte("{\"input\": \"Capital of France?\"}\n{\"input\": \"Boiling point of water?\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(s, []byte(`{"suite": "T", "agent": {"name": "A", "command": ["true"]},
	  "evaluators": {"paris": {"type": "contains", "params": {"value": "Paris"}}}, "golden_set": "golden.jsonl"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := evalrun(t, "validate", s)
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr: %s", code, stderr)
	}
	if !strings.Contains(stdout, ": ok:") {
		t.Errorf("stdout = %q, want the ok line", stdout)
	}
	if want := `warning: ` + s + `: $.evaluators.paris: contains check with a fixed value is a default of 2 questions`; !strings.Contains(stderr, want) {
		t.Errorf("stderr = %q\nwant it to contain %q", stderr, want)
	}
}
