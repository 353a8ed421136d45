// Package axe runs the axe-core accessibility engine (vendored, version
// Version) in a page that a chromedp browser test has open, and reports its
// violations. It is a test helper: only _test.go files import it.
//
// The script is injected with Runtime.evaluate, which the DevTools protocol
// runs outside the page's Content-Security-Policy, so pages under a strict
// CSP (no script at all) are audited as they are served.
package axe

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/chromedp/chromedp"
)

// Version is the vendored axe-core release.
const Version = "4.14.1"

//go:embed axe.min.js
var source string

// Impacts, from axe-core's own scale.
const (
	Minor    = "minor"
	Moderate = "moderate"
	Serious  = "serious"
	Critical = "critical"
)

// Node is one element that breaks a rule.
type Node struct {
	Target         []any  `json:"target"`
	HTML           string `json:"html"`
	FailureSummary string `json:"failureSummary"`
}

// Violation is one failed axe rule with the elements that fail it.
type Violation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []Node `json:"nodes"`
}

// Blocking reports whether the violation is serious or critical.
func (v Violation) Blocking() bool { return v.Impact == Serious || v.Impact == Critical }

// String describes the violation and up to three of its elements.
func (v Violation) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s (%s): %s", v.ID, v.Impact, v.Help)
	for i, n := range v.Nodes {
		if i == 3 {
			fmt.Fprintf(&sb, "\n    … and %d more elements", len(v.Nodes)-3)
			break
		}
		html := n.HTML
		if len(html) > 160 {
			html = html[:160] + "…"
		}
		fmt.Fprintf(&sb, "\n    %v %s\n      %s", n.Target, html, strings.ReplaceAll(n.FailureSummary, "\n", " "))
	}
	return sb.String()
}

// runScript runs every rule of axe-core on the whole document and keeps
// the violations only.
const runScript = `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({
  id: v.id, impact: v.impact || "", help: v.help,
  nodes: v.nodes.map(n => ({target: n.target, html: n.html, failureSummary: n.failureSummary || ""}))})))`

// Run audits the page open in ctx (injecting axe-core once per document)
// and returns every violation, whatever its impact.
func Run(ctx context.Context) ([]Violation, error) {
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof window.axe === "object"`))
	if err != nil {
		return nil, fmt.Errorf("axe: check for axe-core: %w", err)
	}
	if !loaded {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](source+"\n;true", chromedp.EvalIgnoreExceptions)); err != nil {
			return nil, fmt.Errorf("axe: inject axe-core %s: %w", Version, err)
		}
	}
	vs, err := chromedp.Run(ctx, chromedp.Evaluate[[]Violation](runScript, chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, fmt.Errorf("axe: run axe-core %s: %w", Version, err)
	}
	return vs, nil
}

// Blocking returns the serious and critical violations.
func Blocking(vs []Violation) []Violation {
	var out []Violation
	for _, v := range vs {
		if v.Blocking() {
			out = append(out, v)
		}
	}
	return out
}
