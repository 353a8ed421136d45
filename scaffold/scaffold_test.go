package scaffold

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite_SuiteNamedAfterItsProject: "evalrun init evals" in two
// projects writes two suite (and agent) names, so their runs never
// baseline each other in the shared default database.
func TestWrite_SuiteNamedAfterItsProject(t *testing.T) {
	root := t.TempDir()
	inGit := filepath.Join(root, "shop")
	if err := os.MkdirAll(filepath.Join(inGit, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ dir, suite string }{
		{filepath.Join(inGit, "evals"), "shop-evals"},
		{filepath.Join(root, "blog", "evals"), "blog-evals"},
		{inGit + "-root", filepath.Base(root) + "-shop-root"},
	}
	for _, tt := range tests {
		res, err := Write(Options{Dir: tt.dir, Lang: "sh"})
		if err != nil {
			t.Fatalf("%s: %v", tt.dir, err)
		}
		b, _ := os.ReadFile(res.Suite)
		var s struct {
			Suite string `json:"suite"`
			Agent struct {
				Name string `json:"name"`
			} `json:"agent"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if s.Suite != tt.suite || s.Agent.Name != tt.suite+"-agent" {
			t.Errorf("%s: suite %q agent %q, want %q", tt.dir, s.Suite, s.Agent.Name, tt.suite)
		}
	}
}
