package suite

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadExperiment is the experiment loader's property: whatever the
// experiment file holds (as JSON, and as YAML), LoadExperiment returns an
// experiment of 1 to MaxVariants named variants or a *ValidationError,
// and never panics. The committed corpus (testdata/fuzz/FuzzLoadExperiment)
// holds valid files and hostile ones (deep variant metadata, NUL, lone
// surrogates, invalid UTF-8, wrong types); it runs with every `go test`.
func FuzzLoadExperiment(f *testing.F) {
	dir := f.TempDir()
	for name, body := range map[string]string{
		"suite.json": `{"suite": "S", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
		  "questions": [{"id": "q", "question": "hi", "expected_answer": "ok", "checks": [{"type": "contains", "params": {"value": "ok"}}]}]}`,
		"agent.sh": "cat >/dev/null; echo ok",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	f.Add([]byte(`{"suite": "suite.json", "variants": [{"name": "a"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"exp.json", "exp.yaml"} {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			e, err := LoadExperiment(path)
			var ve *ValidationError
			switch {
			case err != nil && !errors.As(err, &ve):
				t.Fatalf("%s: %T %v, want a *ValidationError", name, err, err)
			case err != nil:
			case e.Suite == nil || len(e.Variants) < 1 || len(e.Variants) > MaxVariants:
				t.Fatalf("%s: accepted with suite %v and %d variants", name, e.Suite, len(e.Variants))
			default:
				for i, v := range e.Variants {
					if v.Name == "" {
						t.Fatalf("%s: variant %d has no name", name, i)
					}
				}
			}
		}
	})
}
