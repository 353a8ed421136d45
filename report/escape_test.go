package report

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
)

func TestEscapeGitHub(t *testing.T) {
	msg := "50% done\r\nnext::error title=x::injected\x1b[31m"
	got := EscapeGitHubData(msg)
	if strings.ContainsAny(got, "\r\n\x1b") || got != "50%25 done%0Anext::error title=x::injected" {
		t.Errorf("EscapeGitHubData = %q", got)
	}
	if got, want := EscapeGitHubProperty("a: b, c%\n"), "a%3A b%2C c%25"; got != want {
		t.Errorf("EscapeGitHubProperty = %q, want %q", got, want)
	}
	// A case id cannot start a workflow command of its own.
	ref, bad := runfixture.SupportRuns()
	bad.Cases[0].CaseID = "x\n::error::forged"
	b, err := mustRenderer(t).Bytes(FormatGitHub, compare.Compare(bad, ref, compare.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.HasPrefix(line, "::error title=") && !strings.HasPrefix(line, "::warning title=") && !strings.HasPrefix(line, "::notice title=") {
			t.Errorf("line %q is not one of our annotations", line)
		}
		if strings.Contains(line, "::error::forged") {
			t.Errorf("forged command on line %q", line)
		}
	}
}

func TestFormatFromPath(t *testing.T) {
	tests := map[string]Format{"a.html": FormatHTML, "a.HTM": FormatHTML, "a.json": FormatJSON, "a.md": FormatMarkdown,
		"a.markdown": FormatMarkdown, "a.txt": FormatText, "a.text": FormatText, "a.xml": FormatJUnit}
	for path, want := range tests {
		if got, err := FormatFromPath(path); err != nil || got != want {
			t.Errorf("FormatFromPath(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
	for _, path := range []string{"report", "a.pdf", "a.html.bak"} {
		if _, err := FormatFromPath(path); !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("FormatFromPath(%q) error = %v, want ErrUnknownFormat", path, err)
		}
	}
	if _, err := ParseFormat("yaml"); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("ParseFormat(yaml) error = %v", err)
	}
}

func TestRenderer_WriteFile(t *testing.T) {
	r := mustRenderer(t)
	ref, bad := runfixture.SupportRuns()
	cmp := compare.Compare(bad, ref, compare.Options{})
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteFile(path, FormatJSON, cmp); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(got), "{") {
		t.Fatalf("report not replaced: %q", got)
	}
	// An unknown format fails before anything is written.
	if err := r.WriteFile(filepath.Join(dir, "x.pdf"), Format("pdf"), cmp); !errors.Is(err, ErrUnknownFormat) {
		t.Fatalf("unknown format error = %v", err)
	}
	// A missing directory fails without leaving temporary files behind.
	if err := r.WriteFile(filepath.Join(dir, "missing", "r.md"), FormatMarkdown, cmp); err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only report.json", len(entries))
	}
	summary := filepath.Join(dir, "summary.md")
	for range 2 {
		if err := r.AppendStepSummary(summary, cmp); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(summary)
	if n := strings.Count(string(b), "## Evaluation report"); n != 2 {
		t.Fatalf("job summary holds %d reports, want 2 (appended)", n)
	}
}
