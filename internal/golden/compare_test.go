package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// compareGolden checks got (golden name without extension to text)
// against testdata/<scenario>/<name>.golden, or rewrites that directory
// with -update.
func compareGolden(t *testing.T, scenario string, got map[string]string) {
	t.Helper()
	dir := filepath.Join("testdata", scenario)
	fix := fmt.Sprintf("go test ./internal/golden/ -run 'TestGolden/^%s$' -update", scenario)
	existing, _ := filepath.Glob(filepath.Join(dir, "*.golden"))
	names := make([]string, 0, len(got))
	for name := range got {
		names = append(names, name)
	}
	slices.Sort(names)
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, path := range existing {
			if _, ok := got[strings.TrimSuffix(filepath.Base(path), ".golden")]; !ok {
				os.Remove(path)
			}
		}
		for _, name := range names {
			if err := os.WriteFile(filepath.Join(dir, name+".golden"), []byte(got[name]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	for _, path := range existing {
		if _, ok := got[strings.TrimSuffix(filepath.Base(path), ".golden")]; !ok {
			t.Errorf("%s is no longer produced by the scenario; if that is intended, run (from the module root):\n  %s", path, fix)
		}
	}
	for _, name := range names {
		path := filepath.Join(dir, name+".golden")
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v; to create it, run (from the module root):\n  %s", path, err, fix)
			continue
		}
		if string(want) != got[name] {
			t.Errorf("%s differs from what evalrun wrote now (- golden, + now):\n%s\nif the change is intended, run (from the module root):\n  %s",
				path, diff(string(want), got[name]), fix)
		}
	}
}

// diff shows the lines between the common prefix and the common suffix of
// want and got (at most maxLines of each), with a few lines of context and
// the column of the first differing byte.
func diff(want, got string) string {
	const context, maxLines = 3, 12
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	start := 0
	for start < len(w) && start < len(g) && w[start] == g[start] {
		start++
	}
	endW, endG := len(w), len(g)
	for endW > start && endG > start && w[endW-1] == g[endG-1] {
		endW, endG = endW-1, endG-1
	}
	var b strings.Builder
	col := 0
	if start < len(w) && start < len(g) {
		for col < len(w[start]) && col < len(g[start]) && w[start][col] == g[start][col] {
			col++
		}
	}
	fmt.Fprintf(&b, "@@ line %d, column %d @@\n", start+1, col+1)
	for _, l := range w[max(0, start-context):start] {
		b.WriteString("  " + l + "\n")
	}
	hunk := func(prefix string, lines []string) {
		for i, l := range lines {
			if i == maxLines {
				fmt.Fprintf(&b, "%s… %d more lines\n", prefix, len(lines)-maxLines)
				break
			}
			if i == 0 {
				l = clip(l, col)
			}
			b.WriteString(prefix + l + "\n")
		}
	}
	hunk("- ", w[start:endW])
	hunk("+ ", g[start:endG])
	for _, l := range w[endW:min(len(w), endW+context)] {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// clip shortens a long line (a JSON column) to the bytes around col.
func clip(line string, col int) string {
	const before, after = 80, 160
	if len(line) <= before+after {
		return line
	}
	from, to := max(0, col-before), min(len(line), col+after)
	for from > 0 && !utf8.RuneStart(line[from]) {
		from--
	}
	for to < len(line) && !utf8.RuneStart(line[to]) {
		to++
	}
	out := line[from:to]
	if from > 0 {
		out = "…" + out
	}
	if to < len(line) {
		out += "…"
	}
	return out
}
