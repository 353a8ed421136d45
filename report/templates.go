package report

import (
	"embed"
	"fmt"
	htmltemplate "html/template"
	texttemplate "text/template"

	"github.com/agentevals-go/agentevals/sanitize"
)

//go:embed templates
var templateFS embed.FS

// templates holds one parsed template set per output.
type templates struct {
	text     *texttemplate.Template
	ab       *texttemplate.Template
	markdown *texttemplate.Template
	html     *htmltemplate.Template
	css      string
}

func parseTemplates() (*templates, error) {
	text, err := texttemplate.New("report.txt.tmpl").Funcs(funcs(sanitize.EscapeText)).
		ParseFS(templateFS, "templates/report.txt.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parse text template: %w", err)
	}
	ab, err := texttemplate.New("ab.txt.tmpl").Funcs(funcs(sanitize.EscapeText)).
		ParseFS(templateFS, "templates/ab.txt.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parse a/b template: %w", err)
	}
	md, err := texttemplate.New("report.md.tmpl").Funcs(funcs(sanitize.EscapeMarkdown)).
		ParseFS(templateFS, "templates/report.md.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parse markdown template: %w", err)
	}
	html, err := htmltemplate.New("report.html.tmpl").Funcs(funcs(func(s string) string { return sanitize.StripControl(s, true) })).
		ParseFS(templateFS, "templates/report.html.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parse html template: %w", err)
	}
	css, err := templateFS.ReadFile("templates/report.css")
	if err != nil {
		return nil, fmt.Errorf("read report css: %w", err)
	}
	return &templates{text: text, ab: ab, markdown: md, html: html, css: string(css)}, nil
}
