package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	htmltemplate "html/template"
	"io"
	texttemplate "text/template"

	"github.com/agentevals-go/agentevals/internal/jsonindent"
	"github.com/agentevals-go/agentevals/sanitize"
)

// gridTemplates are the parsed templates of the experiment grid.
type gridTemplates struct {
	text     *texttemplate.Template
	markdown *texttemplate.Template
	html     *htmltemplate.Template
	css      string
}

func parseGridTemplates() (*gridTemplates, error) {
	text, err := texttemplate.New("grid.txt.tmpl").Funcs(funcs(sanitize.EscapeText)).
		ParseFS(templateFS, "templates/grid.txt.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parse grid text template: %w", err)
	}
	md, err := texttemplate.New("grid.md.tmpl").Funcs(funcs(sanitize.EscapeMarkdown)).
		ParseFS(templateFS, "templates/grid.md.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parse grid markdown template: %w", err)
	}
	html, err := htmltemplate.New("grid.html.tmpl").Funcs(funcs(func(s string) string { return sanitize.StripControl(s, true) })).
		ParseFS(templateFS, "templates/grid.html.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parse grid html template: %w", err)
	}
	base, err := templateFS.ReadFile("templates/report.css")
	if err != nil {
		return nil, fmt.Errorf("read report css: %w", err)
	}
	grid, err := templateFS.ReadFile("templates/grid.css")
	if err != nil {
		return nil, fmt.Errorf("read grid css: %w", err)
	}
	return &gridTemplates{text: text, markdown: md, html: html, css: string(base) + "\n" + string(grid)}, nil
}

// GridCSS is the stylesheet of the standalone grid page; the dashboard
// serves the same rules for its experiment page.
func (r *Renderer) GridCSS() string { return r.grid.css }

// gridPage is the data of the grid templates.
type gridPage struct {
	*Grid
	Style htmltemplate.CSS
	CSP   string
}

// RenderGrid writes an experiment grid as text, Markdown, standalone HTML
// or JSON (JUnit and GitHub output are for single runs and fail with
// ErrUnknownFormat). The whole output is rendered in memory first.
func (r *Renderer) RenderGrid(w io.Writer, f Format, g *Grid) error {
	var buf bytes.Buffer
	var err error
	switch f {
	case FormatText:
		err = r.grid.text.Execute(&buf, gridPage{Grid: g})
	case FormatMarkdown:
		err = r.grid.markdown.Execute(&buf, gridPage{Grid: g})
	case FormatHTML:
		sum := sha256.Sum256([]byte(r.grid.css))
		err = r.grid.html.Execute(&buf, gridPage{Grid: g, Style: htmltemplate.CSS(r.grid.css),
			CSP: "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
				"'; img-src 'none'; base-uri 'none'; form-action 'none'"})
	case FormatJSON:
		err = jsonindent.Encode(&buf, g, "", "  ")
	default:
		return fmt.Errorf("render grid: %w %q (want text, markdown, html or json)", ErrUnknownFormat, f)
	}
	if err != nil {
		return fmt.Errorf("render grid: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write grid: %w", err)
	}
	return nil
}

// WriteGridFile renders the grid in format f and replaces path with it
// atomically.
func (r *Renderer) WriteGridFile(path string, f Format, g *Grid) error {
	var buf bytes.Buffer
	if err := r.RenderGrid(&buf, f, g); err != nil {
		return err
	}
	return writeAtomic(path, buf.Bytes())
}
