package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/internal/jsonindent"
)

// Format names an output format of a report.
type Format string

// Report formats.
const (
	FormatText     Format = "text"
	FormatMarkdown Format = "markdown"
	FormatHTML     Format = "html"
	FormatJSON     Format = "json"
	FormatJUnit    Format = "junit"
	FormatGitHub   Format = "github"
)

// Formats lists every format in the order help texts show them.
func Formats() []Format {
	return []Format{FormatText, FormatMarkdown, FormatHTML, FormatJSON, FormatJUnit, FormatGitHub}
}

// ErrUnknownFormat is returned for a format name or file extension that no
// renderer handles.
var ErrUnknownFormat = errors.New("unknown report format")

// ParseFormat returns the format named s (case-insensitive; "md", "txt",
// "htm" and "xml" are accepted as aliases).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "text", "txt":
		return FormatText, nil
	case "markdown", "md":
		return FormatMarkdown, nil
	case "html", "htm":
		return FormatHTML, nil
	case "json":
		return FormatJSON, nil
	case "junit", "xml":
		return FormatJUnit, nil
	case "github":
		return FormatGitHub, nil
	}
	return "", fmt.Errorf("%w %q (want one of %s)", ErrUnknownFormat, s, formatList())
}

func formatList() string {
	fs := Formats()
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// Ext is the usual file extension of the format, the one FormatFromPath
// reads first ("" for github, which is not written to a file).
func (f Format) Ext() string {
	switch f {
	case FormatHTML:
		return ".html"
	case FormatMarkdown:
		return ".md"
	case FormatText:
		return ".txt"
	case FormatJSON:
		return ".json"
	case FormatJUnit:
		return ".xml"
	}
	return ""
}

// FormatFromPath infers the format from a file extension: .html/.htm,
// .json, .md/.markdown, .txt/.text and .xml (JUnit).
func FormatFromPath(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".html", ".htm":
		return FormatHTML, nil
	case ".json":
		return FormatJSON, nil
	case ".md", ".markdown":
		return FormatMarkdown, nil
	case ".txt", ".text":
		return FormatText, nil
	case ".xml":
		return FormatJUnit, nil
	}
	return "", fmt.Errorf("%w for %q (use .html, .htm, .json, .md, .markdown, .txt, .text or .xml, or name the format)",
		ErrUnknownFormat, path)
}

// Renderer renders comparisons; it holds the parsed templates, so build it
// once with NewRenderer and reuse it.
type Renderer struct {
	tmpl *templates
	grid *gridTemplates
}

// NewRenderer parses the embedded templates.
func NewRenderer() (*Renderer, error) {
	t, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	g, err := parseGridTemplates()
	if err != nil {
		return nil, err
	}
	return &Renderer{tmpl: t, grid: g}, nil
}

// Render writes the report of c in format f to w. The whole report is
// rendered in memory first, so an error never leaves half a report.
func (r *Renderer) Render(w io.Writer, f Format, c *compare.Comparison) error {
	b, err := r.Bytes(f, c)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write %s report: %w", f, err)
	}
	return nil
}

// Bytes returns the report of c in format f.
func (r *Renderer) Bytes(f Format, c *compare.Comparison) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch f {
	case FormatJSON:
		err = jsonindent.Encode(&buf, NewDocument(c), "", "  ")
	case FormatText:
		err = r.tmpl.text.Execute(&buf, newView(c, viewText))
	case FormatMarkdown:
		err = r.tmpl.markdown.Execute(&buf, newView(c, viewMarkdown))
	case FormatHTML:
		err = r.renderHTML(&buf, c)
	case FormatJUnit:
		err = renderJUnit(&buf, c)
	case FormatGitHub:
		err = renderGitHub(&buf, c)
	default:
		return nil, fmt.Errorf("render report: %w %q", ErrUnknownFormat, f)
	}
	if err != nil {
		return nil, fmt.Errorf("render %s report: %w", f, err)
	}
	return buf.Bytes(), nil
}

// WriteFile renders the report of c in format f and replaces path with it
// atomically (atomicfile.Write), so readers never see a partial report.
func (r *Renderer) WriteFile(path string, f Format, c *compare.Comparison) error {
	b, err := r.Bytes(f, c)
	if err != nil {
		return err
	}
	return writeAtomic(path, b)
}

// writeAtomic replaces path with a report (atomicfile.Write, mode 0o644).
func writeAtomic(path string, b []byte) error {
	if err := atomicfile.Write(path, b, 0o644); err != nil {
		return fmt.Errorf("write report %s: %w", path, err)
	}
	return nil
}

// AppendStepSummary appends the Markdown report of c to a GitHub Actions job
// summary file (the path in $GITHUB_STEP_SUMMARY).
func (r *Renderer) AppendStepSummary(path string, c *compare.Comparison) error {
	b, err := r.Bytes(FormatMarkdown, c)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("append job summary %s: %w", path, err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("append job summary %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("append job summary %s: %w", path, err)
	}
	return nil
}

// RenderAB writes an A/B comparison as text or JSON (the other formats are
// for single runs and fail with ErrUnknownFormat).
func (r *Renderer) RenderAB(w io.Writer, f Format, ab *compare.ABComparison) error {
	var buf bytes.Buffer
	var err error
	switch f {
	case FormatText:
		err = r.tmpl.ab.Execute(&buf, ab)
	case FormatJSON:
		err = jsonindent.Encode(&buf, struct {
			A string `json:"a"`
			B string `json:"b"`
			*compare.ABComparison
		}{ab.A.ID.String(), ab.B.ID.String(), ab}, "", "  ")
	default:
		return fmt.Errorf("render comparison: %w %q (want text or json)", ErrUnknownFormat, f)
	}
	if err != nil {
		return fmt.Errorf("render comparison: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}
