package docstest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// link is a Markdown link or image target: ](target) or ](target "title").
var link = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// TestDocs_LinksResolve checks that every relative link of README.md and
// docs/*.md names a file of the repository, and that the documentation
// index links every guide.
func TestDocs_LinksResolve(t *testing.T) {
	for _, rel := range documents(t) {
		b, err := os.ReadFile(filepath.Join(env.root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			p := filepath.Join(env.root, filepath.Dir(rel), filepath.FromSlash(target))
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s links %s, which does not exist", rel, m[1])
			}
		}
	}
	index, err := os.ReadFile(filepath.Join(env.root, "docs", "README.md"))
	if err != nil {
		t.Fatalf("docs/README.md, the documentation index: %v", err)
	}
	for _, rel := range documents(t) {
		name := filepath.Base(rel)
		if rel == "README.md" || name == "README.md" {
			continue
		}
		if !strings.Contains(string(index), "("+name+")") {
			t.Errorf("docs/README.md does not link %s: add it to the index", rel)
		}
	}
}
