package layout

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// floorRow is one row of docs/architecture.md's package table:
// "| 3 | `suite` | ... |", several packages to a row.
var floorRow = regexp.MustCompile("^\\| (\\d+) \\| (`[^|]+`) \\|")

// TestLayout_Floors: every package the architecture table lists sits on
// the floor it says, one above the highest package it imports, so the map
// of the code stays true as imports change.
func TestLayout_Floors(t *testing.T) {
	const module = "github.com/agentevals-go/agentevals/"
	imports := map[string][]string{}
	for _, p := range list(t, "./...") {
		name := strings.TrimPrefix(p.path, module)
		for _, imp := range p.imports {
			if strings.HasPrefix(imp, module) {
				imports[name] = append(imports[name], strings.TrimPrefix(imp, module))
			}
		}
		if _, ok := imports[name]; !ok {
			imports[name] = nil
		}
	}
	floors := map[string]int{}
	var floor func(string) int
	floor = func(name string) int {
		if f, ok := floors[name]; ok {
			return f
		}
		f := 0
		for _, imp := range imports[name] {
			f = max(f, floor(imp)+1)
		}
		floors[name] = f
		return f
	}
	doc, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(string(doc), "\n") {
		m := floorRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rows++
		want, _ := strconv.Atoi(m[1])
		for _, name := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(m[2], -1) {
			if _, ok := imports[name[1]]; !ok {
				t.Errorf("docs/architecture.md lists %s, which is not a package of the module", name[1])
				continue
			}
			if got := floor(name[1]); got != want {
				t.Errorf("docs/architecture.md puts %s on floor %d; its imports put it on floor %d", name[1], want, got)
			}
		}
	}
	if rows == 0 {
		t.Fatal("docs/architecture.md has no package table rows (| floor | `package` | job |)")
	}
}
