package layout

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pkg is one package of the module as go list describes it.
type pkg struct {
	path    string
	dir     string
	files   []string
	imports []string
	deps    []string
}

func list(t *testing.T, patterns ...string) []pkg {
	t.Helper()
	args := append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}\t{{join .Imports \" \"}}\t{{join .Deps \" \"}}"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v (is Go on PATH?)", err)
	}
	var pkgs []pkg
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		pkgs = append(pkgs, pkg{path: f[0], dir: f[1], files: strings.Fields(f[2]), imports: strings.Fields(f[3]), deps: strings.Fields(f[4])})
	}
	return pkgs
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

func lines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte("\n"))
}

// TestLayout_Sizes: no package holds more than 15% of the module's
// non-test lines, and no non-test file exceeds 400 lines.
func TestLayout_Sizes(t *testing.T) {
	pkgs := list(t, "./...")
	total, per := 0, map[string]int{}
	for _, p := range pkgs {
		for _, f := range p.files {
			n := lines(t, filepath.Join(p.dir, f))
			if n > 400 {
				t.Errorf("%s/%s has %d lines, want at most 400: split it by job", p.path, f, n)
			}
			per[p.path] += n
			total += n
		}
	}
	for path, n := range per {
		if share := float64(n) / float64(total); share > 0.15 {
			t.Errorf("%s holds %.1f%% of the non-test lines (%d of %d), want at most 15%%", path, 100*share, n, total)
		}
	}
}

// TestLayout_Dependencies: the read-only dashboard links no model client,
// the evidence importer needs no agent stack, and only provider imports
// langchaingo.
func TestLayout_Dependencies(t *testing.T) {
	for _, p := range list(t, "./...") {
		for _, d := range p.deps {
			if strings.HasPrefix(d, "github.com/tmc/langchaingo") && (p.path == "github.com/agentevals-go/agentevals/cmd/evaldash" || p.path == "github.com/agentevals-go/agentevals/dashboard") {
				t.Errorf("%s links %s: the dashboard must not link langchaingo", p.path, d)
				break
			}
		}
		for _, im := range p.imports {
			if strings.HasPrefix(im, "github.com/tmc/langchaingo") && p.path != "github.com/agentevals-go/agentevals/provider" {
				t.Errorf("%s imports %s: only agentevals/provider may", p.path, im)
			}
			if p.path == "github.com/agentevals-go/agentevals/evidence" && (im == "github.com/agentevals-go/agentevals/runner" || im == "github.com/agentevals-go/agentevals/agent") {
				t.Errorf("evidence imports %s: importing a file must not need the agent stack", im)
			}
		}
	}
}
