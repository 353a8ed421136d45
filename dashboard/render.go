package dashboard

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/template/parse"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/show"
)

// pageNames are the pages; each gets its own template set made of the base
// layout, the shared partials and the page itself.
var pageNames = []string{"history", "run", "case", "compare", "experiment", "search", "error"}

// BasePage is embedded in every page's data: the title, the mount path that
// every link carries, and which navigation entry is current.
type BasePage struct {
	Title     string
	MountPath string
	// Section is the navigation entry to mark current ("history", "compare").
	Section string
	// Nested is true on a page inside the section (a run, a case, an
	// experiment under history): its entry is then aria-current="true",
	// not "page", since the page itself is not the one the link opens.
	Nested bool
}

// Path joins the mount path with escaped path segments.
func (b BasePage) Path(segments ...string) string {
	var sb strings.Builder
	sb.WriteString(b.MountPath)
	for _, s := range segments {
		sb.WriteByte('/')
		sb.WriteString(url.PathEscape(s))
	}
	if sb.Len() == 0 {
		return "/"
	}
	return sb.String()
}

// caseLink is the address of a run's case page; cases are addressed by
// their position.
func (b BasePage) caseLink(runID string, position int) string {
	return b.Path("runs", runID, "cases", strconv.Itoa(position))
}

// Home is the history page's address (with a trailing slash under a mount path).
func (b BasePage) Home() string { return b.MountPath + "/" }

// Asset is the address of an embedded static file.
func (b BasePage) Asset(name string) string { return b.Path("assets", name) }

func (s *Server) base(r *http.Request, title, section string) BasePage {
	b := BasePage{Title: title, MountPath: s.mount, Section: section}
	if section != "" && r != nil {
		root := map[string]string{"history": "/", "compare": "/compare", "search": "/search"}[section]
		p := strings.TrimPrefix(r.URL.Path, s.mount)
		b.Nested = p != root && !(root == "/" && p == "")
	}
	return b
}

// errorPage is the data of the error page.
type errorPage struct {
	BasePage
	Status  int
	Message string
}

func parsePages(fsys fs.FS) (map[string]*template.Template, error) {
	pages := make(map[string]*template.Template, len(pageNames))
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(templateFuncs()).ParseFS(fsys,
			"templates/base.tmpl", "templates/partials.tmpl", "templates/transcript.tmpl", "templates/judging.tmpl", "templates/"+name+".tmpl")
		if err != nil {
			return nil, fmt.Errorf("parse %s page: %w", name, err)
		}
		for _, tt := range t.Templates() {
			if tt.Tree != nil {
				cleanActions(tt.Tree.Root)
			}
		}
		pages[name] = t
	}
	return pages, nil
}

// cleanActions appends "| clean" to every {{…}} that prints a value, so
// that every string a page shows (suite and case names, questions, outputs,
// reasons, JSON, error texts) loses terminal control sequences and control
// characters in one place, before html/template escapes it. It runs before
// the first execution, when html/template adds its own escapers.
func cleanActions(n parse.Node) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			cleanActions(c)
		}
	case *parse.ActionNode:
		if len(n.Pipe.Decl) == 0 {
			n.Pipe.Cmds = append(n.Pipe.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: n.Pos,
				Args: []parse.Node{parse.NewIdentifier("clean").SetPos(n.Pos)}})
		}
	case *parse.IfNode:
		cleanActions(n.List)
		cleanActions(n.ElseList)
	case *parse.RangeNode:
		cleanActions(n.List)
		cleanActions(n.ElseList)
	case *parse.WithNode:
		cleanActions(n.List)
		cleanActions(n.ElseList)
	}
}

// clean strips control sequences from strings (keeping newlines and tabs,
// as the terminal and HTML reports do); other values pass unchanged.
func clean(v any) any {
	if s, ok := v.(string); ok {
		return sanitize.StripControl(s, true)
	}
	return v
}

func templateFuncs() template.FuncMap {
	return template.FuncMap{
		"score":    formatScore,
		"pct":      formatPercent,
		"when":     formatTime,
		"duration": formatDuration,
		"pretty":   prettyJSON,
		"text":     jsonText,
		"delta":    formatDelta,
		"int64":    formatInt64,
		"cost":     formatCost,
		"ci":       formatInterval,
		"short":    shortID,
		"clean":    clean,
		"minimum":  func(v float64) string { return formatScore(&v) },
		"plural":   show.Count,
		"label":    statusLabel,
		"tone":     abTone,
		"add":      func(a, b float64) float64 { return a + b },
		"replayStatus": func(v *report.ReplayView) string {
			switch {
			case v.Failed:
				return "failed"
			case v.Other != "":
				return "not_evaluated"
			}
			return "passed"
		},
	}
}

// statusLabel shows a stored status value (not_evaluated) in words (not
// evaluated); the value itself stays in class names and query strings.
func statusLabel(s string) string {
	return strings.ReplaceAll(s, "_", " ")
}

// formatScore shows a score with three decimals, as the reports do, or a dash for "no value":
// a missing value is never shown as 0.
func formatScore(v *float64) string {
	if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
		return "—"
	}
	return fmt.Sprintf("%.3f", *v)
}

func formatPercent(v *float64) string {
	if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", *v*100)
}

func formatDelta(v *float64) string {
	if v == nil || math.IsNaN(*v) {
		return "—"
	}
	return fmt.Sprintf("%+.3f", *v)
}

// formatInterval shows a bootstrap interval, or a dash when there is none.
func formatInterval(iv *compare.Interval) string {
	if iv == nil {
		return "—"
	}
	return fmt.Sprintf("[%.3f, %.3f]", iv.Low, iv.High)
}

// shortID abbreviates a digest or id for display (the full value is in a title).
func shortID(s string) string {
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}

func formatInt64(v *int64) string {
	if v == nil {
		return "—"
	}
	return fmt.Sprintf("%d", *v)
}

// formatCost shows a run's total cost (a float, to four decimals) or a
// case's cost (its exact decimal, as saved); "—" when unknown.
func formatCost(v any) string {
	switch c := v.(type) {
	case *float64:
		if c != nil {
			return fmt.Sprintf("$%.4f", *c)
		}
	case *models.Decimal:
		if c != nil {
			return "$" + c.String()
		}
	}
	return "—"
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

func formatDuration(ms float64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%.0f ms", ms)
	case ms < 60_000:
		return fmt.Sprintf("%.1f s", ms/1000)
	default:
		return (time.Duration(ms) * time.Millisecond).Round(time.Second).String()
	}
}

// prettyJSON indents a JSON column for a <pre> block; SQL NULL and JSON
// null read "null". The result is plain text and is escaped by the template.
func prettyJSON(j models.JSON) string {
	if j.IsNull() {
		return "null"
	}
	return show.JSON(j, "  ")
}

// jsonText shows a JSON string column as its text and anything else as
// indented JSON.
func jsonText(j models.JSON) string {
	if j.IsNull() {
		return ""
	}
	var s string
	if err := json.Unmarshal(j, &s); err == nil {
		return s
	}
	return prettyJSON(j)
}
