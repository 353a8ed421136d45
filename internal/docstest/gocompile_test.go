package docstest

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocs_GoBlocksCompile compiles every go block of the documents in a
// module of its own that requires github.com/agentevals-go/agentevals with a
// replace pointing at this checkout, as a user's module would: go build
// and go vet (which type-checks test files too). A block is a package of
// its own; blocks whose file markers name the same directory of one
// document form one package.
func TestDocs_GoBlocksCompile(t *testing.T) {
	mod := t.TempDir()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(filepath.Join(home, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/docblocks\n\ngo 1.26.0\n\n" +
		"require github.com/agentevals-go/agentevals v0.0.0-00010101000000-000000000000\n\n" +
		"replace github.com/agentevals-go/agentevals => " + env.root + "\n"
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyFile(filepath.Join(env.root, "go.sum"), filepath.Join(mod, "go.sum"), 0o644); err != nil {
		t.Fatal(err)
	}
	origin := map[string]string{} // package directory → where its blocks are
	slug := regexp.MustCompile(`[^a-z0-9]+`)
	for _, rel := range documents(t) {
		for _, b := range parseDoc(t, rel) {
			if b.Lang != "go" || b.Marker.Skip != "" {
				continue
			}
			doc := strings.Trim(slug.ReplaceAllString(strings.ToLower(strings.TrimSuffix(rel, ".md")), "_"), "_")
			dir, name := fmt.Sprintf("%s_l%d", doc, b.Line), "doc.go"
			if strings.Contains(b.Body, `"testing"`) {
				name = "doc_test.go"
			}
			if b.Marker.File != "" {
				d, f := path.Split(b.Marker.File)
				dir, name = strings.Trim(doc+"_"+slug.ReplaceAllString(d, "_"), "_"), f
			}
			p := filepath.Join(mod, dir, name)
			if _, err := os.Stat(p); err == nil {
				t.Fatalf("%s:%d: two go blocks would both be %s", rel, b.Line, filepath.Join(dir, name))
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(b.Body), 0o644); err != nil {
				t.Fatal(err)
			}
			origin[dir] += fmt.Sprintf(" %s:%d", rel, b.Line)
		}
	}
	if len(origin) == 0 {
		t.Fatal("no go blocks found: the README's evaltest example at least should be one")
	}
	var where strings.Builder
	for dir, blocks := range origin {
		fmt.Fprintf(&where, "  %s:%s\n", dir, blocks)
		t.Logf("compiling %s (from%s)", dir, blocks)
	}
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		cmd.Env = environ(home, "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the blocks' module: %v\n%s%s\nwhere the packages come from:\n%s", strings.Join(args, " "), err, out, offlineHint(out), where.String())
		}
	}
}
